package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"scrabble/gcg"
	"scrabble/internal/testlex"
	"scrabble/position"
)

// englishSet is the standard English tile set, written out here so that
// the tests do not take it from the code they check.
const englishSet = "AAAAAAAAABBCCDDDDEEEEEEEEEEEEFFGGGHHIIIIIIIIIJKLLLLMMNNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTTUUUUVVWWXYYZ??"

// trackingSheet is what a player tracking tiles writes for englishSet less
// the tiles of the CGP board field and of rack (blanks on the board, lower
// case, are '?'), grouped by letter, and how many tiles that is.
func trackingSheet(t *testing.T, board, rack string) (string, int) {
	t.Helper()
	left := map[rune]int{}
	for _, ch := range englishSet {
		left[ch]++
	}
	take := func(ch rune) {
		if left[ch]--; left[ch] < 0 {
			t.Fatalf("more %c than the set has", ch)
		}
	}
	for _, ch := range board {
		switch {
		case ch >= 'A' && ch <= 'Z':
			take(ch)
		case ch >= 'a' && ch <= 'z':
			take('?')
		}
	}
	for _, ch := range rack {
		take(ch)
	}
	var groups []string
	n := 0
	for _, ch := range "ABCDEFGHIJKLMNOPQRSTUVWXYZ?" {
		if left[ch] > 0 {
			groups = append(groups, strings.Repeat(string(ch), left[ch]))
			n += left[ch]
		}
	}
	return strings.Join(groups, " "), n
}

// TestShowUnseen: show prints the tiles the player to move has not seen,
// grouped as on a tracking sheet, with their count split into the bag and
// the opponent's rack (min(7, unseen)); with the bag empty, the opponent's
// rack itself.
func TestShowUnseen(t *testing.T) {
	e := newTestEnv(t)
	const board = "15/15/15/15/15/15/7C7/5QUIz6/7T7/15/15/15/15/15/15"
	for _, tc := range []struct {
		name, racks string
		want        func(sheet string, n int) []string
	}{
		{"rack known", "AEINRS?/", func(sheet string, n int) []string {
			return []string{"Unseen:    " + sheet + "\n", fmt.Sprintf("%d unseen: %d in the bag, 7 on the opponent's rack\n", n, n-7)}
		}},
		{"opponent partly known", "AEINRS?/VX", func(sheet string, n int) []string {
			return []string{"Unseen:    " + sheet + "\n", fmt.Sprintf("%d unseen: %d in the bag, 7 on the opponent's rack (VX known)\n", n, n-7)}
		}},
		{"no rack to move", "/", func(sheet string, n int) []string {
			return []string{"Unseen:    " + sheet + "\n", fmt.Sprintf("%d unseen (no rack for the player to move): %d in the bag, 14 on the two racks\n", n, n-14)}
		}},
		{"rack partly known", "EE/", func(sheet string, n int) []string {
			return []string{fmt.Sprintf("%d unseen: %d in the bag", n, n-7), "the rack to move holds 2 known tiles"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mover, _, _ := strings.Cut(tc.racks, "/")
			sheet, n := trackingSheet(t, board, mover)
			out := e.ok("show", "--board", e.file("p.cgp", board+" "+tc.racks+" 0/0 0"), "--color", "never")
			for _, w := range tc.want(sheet, n) {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "Bag empty") {
				t.Errorf("bag empty with %d unseen:\n%s", n, out)
			}
		})
	}
	// A grid has no racks: the unseen tiles are all those off the board.
	out := e.ok("show", "--board", e.file("grid.txt", gridBoard), "--color", "never")
	if sheet, n := trackingSheet(t, "CAT", ""); !strings.Contains(out, "Unseen:    "+sheet+"\n") || !strings.Contains(out, fmt.Sprintf("%d unseen (no rack", n)) {
		t.Errorf("grid:\n%s", out)
	}
}

// TestShowBagEmpty: with the bag empty the unseen tiles are the opponent's
// rack. The position is the one before the last turn of doug_v_emely.gcg,
// whose end-of-game line gives the tiles doug was left with.
func TestShowBagEmpty(t *testing.T) {
	path := testlex.Game(t, "doug_v_emely.gcg")
	g, err := gcg.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	last := g.Events[len(g.Events)-1]
	if last.Kind != gcg.EndPoints {
		t.Fatalf("the game's last line is %v, not the points for going out", last.Kind)
	}
	e := newTestEnv(t)
	turns := len(g.Replay().Turns)
	cgp := e.ok("position", path, "--turn", fmt.Sprint(turns), "--format", "cgp")
	p, err := position.ParseCGP("cgp", strings.TrimSpace(cgp))
	if err != nil {
		t.Fatal(err)
	}
	_, n := trackingSheet(t, strings.Fields(cgp)[0], p.Racks[0].String())
	if n != last.Tiles.Count() {
		t.Fatalf("%d unseen, but doug was left with %s", n, last.Tiles)
	}
	r := e.runIn(cgp, "--data-dir", e.dataDir, "show", "--board", "-", "--color", "never")
	if want := "Bag empty: the opponent holds " + last.Tiles.String() + "\n"; r.code != 0 || !strings.Contains(r.stdout, want) {
		t.Errorf("want %q in:\n%s%s", want, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "in the bag") {
		t.Errorf("bag count printed with the bag empty:\n%s", r.stdout)
	}
	// After the last turn doug holds those tiles and sees every other one.
	end := e.ok("position", path, "--turn", fmt.Sprint(turns+1), "--format", "cgp")
	if !strings.Contains(end, " / ") {
		t.Fatalf("the end position has racks: %q", end)
	}
	end = strings.Replace(end, " / ", " "+last.Tiles.String()+"/ ", 1)
	if out := e.ok("show", "--board", e.file("end.cgp", end), "--color", "never"); !strings.Contains(out, "Unseen:    -\n") ||
		!strings.Contains(out, "Bag empty: the opponent's rack is empty too") {
		t.Errorf("nothing unseen:\n%s", out)
	}
}

// TestShowLastMove: a CGP lm opcode is shown under the board, its new tiles
// marked in brackets (or in colour), explained in the legend, and kept by
// --format cgp.
func TestShowLastMove(t *testing.T) {
	e := newTestEnv(t)
	// QUIz on 8F (z a blank) through the I of CIT (H7 down): QU and z are new.
	const pos = "15/15/15/15/15/15/7C7/5QUIz6/7T7/15/15/15/15/15/15 AEINRST/ 40/12 0 lm 8F QU.z;"
	file := e.file("lm.cgp", pos+"\n")
	out := e.ok("show", "--board", file, "--color", "never")
	for _, want := range []string{
		" 8 = . . ' .[Q U]I[z]. . ' . . =\n",
		"Legend: = triple word, - double word, \" triple letter, ' double letter, * centre (double word), [A] last move\n",
		"Last move: 8F QU(I)z, new tiles on 8F 8G 8I\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	// Only row 8 is marked.
	if n := len(regexp.MustCompile(`(?m)^\s*\d+ .*\[`).FindAllString(out, -1)); n != 1 {
		t.Errorf("%d rows marked, want 1:\n%s", n, out)
	}
	if got := e.ok("show", "--board", file, "--format", "cgp"); got != pos+"\n" {
		t.Errorf("--format cgp: %q, want %q", got, pos)
	}
	col := e.ok("show", "--board", file, "--color", "always")
	const newTile = "\x1b[1;30;48;5;214m"
	for _, want := range []string{newTile + " Q ", newTile + " U ", newTile + " z ", newTile + " A \x1b[0m last move"} {
		if !strings.Contains(col, want) {
			t.Errorf("colour output lacks %q", want)
		}
	}
	if n := strings.Count(col, newTile); n != 4 { // three squares and the legend
		t.Errorf("%d uses of the last move's colour, want 4", n)
	}

	for _, tc := range []struct{ lm, want string }{
		{"lm -;", "Last move: pass (lm -)\n"},
		{"lm -3;", "Last move: exchange of 3 tiles (lm -3)\n"},
		{"lm -VX;", "Last move: exchange of VX (lm -VX)\n"},
		{"lm challenge 9A QI;", "Last move: 9A QI, challenged off: its tiles went back to the rack\n"},
		{"lm 8F.QU.z +5;", "Last move: 8F QU(I)z, new tiles on 8F 8G 8I; challenged in vain (+5)\n"},
	} {
		p := strings.Replace(pos, "lm 8F QU.z;", tc.lm, 1)
		out := e.ok("show", "--board", e.file("x.cgp", p), "--color", "never")
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s: lacks %q:\n%s", tc.lm, tc.want, out)
		}
		if strings.Contains(tc.lm, "QU") != strings.Contains(out, "[Q U]") || strings.Contains(out, "[A] last move") != strings.Contains(tc.lm, "QU") {
			t.Errorf("%s: squares marked only for a play that stands:\n%s", tc.lm, out)
		}
	}
	// Without lm there is no marker and no last move.
	if out := e.ok("show", "--board", e.file("no.cgp", strings.TrimSuffix(pos, " lm 8F QU.z;")), "--color", "never"); strings.Contains(out, "Last move") || strings.Contains(out, "[") {
		t.Errorf("no lm:\n%s", out)
	}

	// An lm that disagrees with the board is an error at the opcode.
	bad := e.file("bad.cgp", strings.Replace(pos, "lm 8F QU.z;", "lm 8F QUIZ;", 1))
	r := e.run("show", "--board", bad)
	at := len(pos) - len("lm 8F QU.z;") + 1 // the byte column of the opcode
	if want := fmt.Sprintf("scrabble: %s:1:%d: last move lm 8F QUIZ: square 8I holds z, but the move put Z there", bad, at); r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("bad lm: exit %d, stderr %q; want 1 and %q", r.code, r.stderr, want)
	}
}

// TestPositionLastMove: position before turn N marks the play of turn N-1
// and gives it as the CGP lm opcode.
func TestPositionLastMove(t *testing.T) {
	e := newTestEnv(t)
	game := testlex.Game(t, "doug_v_emely.gcg")
	// Turn 4 was emely's VOX down from F2 (see TestPositionCommand).
	out := e.ok("position", game, "--turn", "5", "--color", "never")
	for _, want := range []string{
		" 2 . - . . .[V]. . . \" . . . - .\n",
		" 3 . . - . J[O]' . ' . . . - . .\n",
		" 4 ' . . - A[X]. ' . . . - . . '\n",
		"Last move: F2 VOX, new tiles on 2F 3F 4F\n",
		"[A] last move\n",
		" lm F2 VOX;\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("turn 5 lacks %q:\n%s", want, out)
		}
	}
	cgp := strings.Fields(e.ok("position", game, "--turn", "5", "--format", "cgp"))
	if sheet, n := trackingSheet(t, cgp[0], cgp[1][:strings.Index(cgp[1], "/")]); !strings.Contains(out, "Unseen:    "+sheet+"\n") ||
		!strings.Contains(out, fmt.Sprintf("%d unseen: %d in the bag, 7 on the opponent's rack", n, n-7)) {
		t.Errorf("unseen tiles at turn 5 (%d: %s):\n%s", n, sheet, out)
	}
	// Turn 1 has no last move.
	if out := e.ok("position", game, "--turn", "1", "--color", "never"); strings.Contains(out, "Last move") || strings.Contains(out, " lm ") {
		t.Errorf("turn 1:\n%s", out)
	}
	// Turn 6 (4B TIL.., line 8) was challenged off (line 9).
	if out := e.ok("position", game, "--turn", "7", "--color", "never"); !strings.Contains(out, "Last move: 4B TIL(AX), challenged off") ||
		!strings.Contains(out, " lm challenge 4B TIL..;\n") || strings.Contains(out, "[A] last move") {
		t.Errorf("turn 7:\n%s", out)
	}
	// josh2.gcg: 8H DOWLY (line 3) was challenged in vain, +5 (line 4).
	if out := e.ok("position", testlex.Game(t, "josh2.gcg"), "--turn", "2", "--color", "never"); !strings.Contains(out, " 8 = . . ' . . .[D O W L Y]. . =\n") ||
		!strings.Contains(out, " lm 8H DOWLY +5;\n") || !strings.Contains(out, "challenged in vain (+5)") {
		t.Errorf("josh2 turn 2:\n%s", out)
	}
}

// TestPositionLastMoveValid: on every turn of every shared game, the
// position's lm agrees with its board (position.Parse checks it).
func TestPositionLastMoveValid(t *testing.T) {
	for _, path := range testlex.Games(t) {
		g, err := gcg.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r := g.Replay()
		withLM := 0
		for n := 1; n <= len(r.Turns)+1; n++ {
			pos, _ := positionBefore(g, r, n)
			if _, err := position.Parse("cgp", []byte(pos.CGP())); err != nil {
				t.Errorf("%s turn %d: %v\n%s", path, n, err, pos.CGP())
			}
			if m, _ := pos.LastMove(); m != nil {
				withLM++
			}
		}
		if withLM < len(r.Turns)-1-len(r.Problems) {
			t.Errorf("%s: %d of %d turns have a last move", path, withLM, len(r.Turns)+1)
		}
	}
}
