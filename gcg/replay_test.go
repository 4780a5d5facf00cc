package gcg

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/move"
	"scrabble/position"
	"scrabble/rules"
)

// TestReplayEvents replays testdata/events.gcg, whose scores were worked out
// by hand, and checks the board, each turn and each running total.
func TestReplayEvents(t *testing.T) {
	g := mustParse(t, "events.gcg", readTestdata(t, "events.gcg"))
	r := g.Replay()
	for _, p := range r.Problems {
		t.Errorf("problem: %v", &p)
	}
	want, err := position.ParseGrid("want", []byte(`...............
...............
...............
...............
...............
....Z..........
....O..........
...RETAINS.....
...OA..........
...V...........
...E...........
...............
...............
...............
...............
`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Board != want.Board {
		t.Errorf("final board:\n%s\nwant (QUDS withdrawn):\n%s", r.Board.GridString(), want.Board.GridString())
	}
	if len(r.Steps) != len(g.Events) {
		t.Fatalf("%d steps for %d events", len(r.Steps), len(g.Events))
	}
	for i, s := range r.Steps {
		if s.Totals != s.Recorded || !s.Applied {
			t.Errorf("step %d (line %d): totals %v, recorded %v, applied %v", i, g.Events[i].Line, s.Totals, s.Recorded, s.Applied)
		}
	}
	if r.Totals != [rules.MaxPlayers]int{76, 47} || r.Recorded != r.Totals {
		t.Errorf("final totals %v, recorded %v; want [76 47]", r.Totals, r.Recorded)
	}
	// Turn numbers of the events: the withdrawal and the challenge bonus
	// belong to the moves before them.
	var turnOf []int
	for _, s := range r.Steps {
		turnOf = append(turnOf, s.Turn)
	}
	if want := []int{1, 2, 3, 4, 4, 5, 5, 6, 7, 7, 7, 7}; !equalInts(turnOf, want) {
		t.Errorf("steps' turns %v, want %v", turnOf, want)
	}

	type turnWant struct {
		player, bag, scoreless, score int
		kind                          move.Kind
		withdrawn                     bool
		leave                         string
	}
	wantTurns := []turnWant{
		{0, 86, 0, 66, move.Play, false, ""},       // 100 - 0 on the board - 14 on racks
		{1, 79, 0, 13, move.Play, false, "DIQU"},   // RETAINS: 7 tiles down
		{0, 76, 0, 0, move.Exchange, false, "EEO"}, // ZOEA put down 3
		{1, 76, 1, 16, move.Play, true, "BDILQUY"}, // withdrawn: the rack is kept
		{0, 76, 2, 9, move.Play, false, "EST?"},    // QUDS gone again; two scoreless turns
		{1, 73, 0, 0, move.Exchange, false, ""},    // only the count is known
		{0, 73, 1, 0, move.Pass, false, "EEST?"},   //
	}
	if len(r.Turns) != len(wantTurns) {
		t.Fatalf("%d turns, want %d", len(r.Turns), len(wantTurns))
	}
	for i, w := range wantTurns {
		tr := &r.Turns[i]
		leave := tr.Leave()
		if tr.Number != i+1 || tr.Player != w.player || tr.BagLen != w.bag || tr.Scoreless != w.scoreless ||
			tr.Score != w.score || !tr.Scored || tr.Move.Kind != w.kind || tr.Withdrawn != w.withdrawn || leave.String() != w.leave {
			t.Errorf("turn %d: %+v, leave %s; want %+v", i+1, tr, leave.String(), w)
		}
	}
	if m := r.Turns[5].Move; m.Len != 0 || m.NumTiles != 7 {
		t.Errorf("exchange of 7 unknown tiles: Len %d, NumTiles %d", m.Len, m.NumTiles)
	}
	if got := r.Turns[4].Board; got.At(7, 9) != rules.Letter('S'-'A'+1) || got.At(4, 9) != rules.Empty {
		t.Errorf("board before ROVE still holds QUDS:\n%s", got.GridString())
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestReplayProblems: each line that cannot be applied as recorded is
// reported with its line, and the game goes on.
func TestReplayProblems(t *testing.T) {
	head := "#player1 alice\n#player2 bob\n" // lines 1 and 2
	retains := ">alice: AEINRST 8D RETAINS +66 66\n"
	zoea := ">bob: ADIOQUZ E6 ZO(E)A +13 13\n"
	tests := []struct {
		name     string
		lines    string
		problems map[int]string        // line -> part of the message; every problem listed
		totals   [rules.MaxPlayers]int // the engine's
		tiles    int                   // on the final board
	}{
		{"all fine", retains + zoea, nil, [rules.MaxPlayers]int{66, 13}, 10},
		{"score disagrees", ">alice: AEINRST 8D RETAINS +60 60\n" + zoea,
			map[int]string{3: "recorded score +60, but the engine scores 8D RETAINS +66"}, [rules.MaxPlayers]int{66, 13}, 10},
		{"total does not add up", ">alice: AEINRST 8D RETAINS +66 70\n" + zoea,
			map[int]string{3: "cumulative score 70, but 0 +66 = 66"}, [rules.MaxPlayers]int{66, 13}, 10},
		{"tile not on the rack", ">alice: AEINRSX 8D RETAINS +66 66\n" + zoea,
			map[int]string{3: "8D RETAINS: tile T is not on the rack AEINRSX"}, [rules.MaxPlayers]int{66, 13}, 10},
		{"off the board", ">alice: AEINRST 8K RETAINS +66 66\n>bob: ADIOQUZ 8H ZOA +24 24\n",
			// ZOA: (10 + 1 + 1) doubled on the star.
			map[int]string{3: "cannot place 8K RETAINS"}, [rules.MaxPlayers]int{66, 24}, 3},
		{"letter disagrees", retains + ">bob: ADIOQUZ E6 ZO(X)A +13 13\n>alice: EEOSTV? D8 .OVE +9 75\n",
			map[int]string{4: "square 8E holds E, not X; the new tiles are placed as recorded"}, [rules.MaxPlayers]int{75, 13}, 13},
		{"dot on an empty square", retains + ">bob: ADIOQUZ E6 ZO.A. +13 13\n",
			map[int]string{4: "cannot place E6 ZO.A."}, [rules.MaxPlayers]int{66, 13}, 7},
		{"not connected", retains + ">bob: ADIOQUZ A1 ZOA +30 30\n",
			map[int]string{4: "does not touch any tile"}, [rules.MaxPlayers]int{66, 30}, 10},
		{"withdraws no play", retains + ">bob: ADIOQUZ -- -66 -66\n",
			map[int]string{4: "-- takes back no play: the last move is alice's"}, [rules.MaxPlayers]int{66, -66}, 7},
		{"withdraws twice", retains + ">alice: AEINRST -- -66 0\n>alice: AEINRST -- -66 -66\n",
			map[int]string{5: "already taken back"}, [rules.MaxPlayers]int{-66, 0}, 0},
		{"moves twice", retains + ">alice: ADIOQUZ E6 ZO(E)A +13 79\n",
			map[int]string{4: "alice moves twice in a row (also turn 1)"}, [rules.MaxPlayers]int{79, 0}, 10},
		{"rack does not fit", retains + ">bob: QQ - +0 0\n",
			map[int]string{4: "the rack QQ does not fit the tiles left"}, [rules.MaxPlayers]int{66, 0}, 7},
		{"exchange off the rack", ">alice: AEINRST -XYZ +0 0\n",
			map[int]string{3: "cannot exchange XYZ: tiles XYZ are not on the rack AEINRST"}, [rules.MaxPlayers]int{0, 0}, 0},
		{"exchange scores", ">alice: AEINRST -A +5 5\n",
			map[int]string{3: "recorded score +5, but the engine scores -A +0"}, [rules.MaxPlayers]int{0, 0}, 0},
		{"pass scores", ">alice: AEINRST - +5 5\n",
			map[int]string{3: "recorded score +5, but the engine scores - +0"}, [rules.MaxPlayers]int{0, 0}, 0},
		{"end points", retains + ">bob:  (DIV) +15 15\n",
			map[int]string{4: "recorded score +15, but the engine scores (DIV) +14"}, [rules.MaxPlayers]int{66, 14}, 7},
		{"end penalty", retains + ">bob: DIV (DIX) -11 -11\n",
			map[int]string{4: "the rack DIV and the tiles (DIX) differ"}, [rules.MaxPlayers]int{66, -11}, 7},
		{"challenge bonus", retains + ">alice:  (challenge) -5 61\n",
			map[int]string{4: "a challenge bonus cannot take points away"}, [rules.MaxPlayers]int{61, 0}, 7},
		{"time penalty", retains + ">alice:  (time) +10 76\n",
			map[int]string{4: "a time penalty cannot add points"}, [rules.MaxPlayers]int{76, 0}, 7},
		{"too many tiles without racks", ">alice: 8G ZZZ +60 60\n", // (10 + 10 + 10) doubled on the star
			map[int]string{3: "the board now holds 3 Zs, the set only 1"}, [rules.MaxPlayers]int{60, 0}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustParse(t, "p.gcg", []byte(head+tc.lines))
			r := g.Replay()
			got := map[int]string{}
			for _, p := range r.Problems {
				if p.File != "p.gcg" || !strings.HasPrefix(p.Error(), "p.gcg:") {
					t.Errorf("problem %q does not name the file", &p)
				}
				got[p.Line] += p.Msg
			}
			if len(got) != len(tc.problems) {
				t.Errorf("problems %v, want %v", got, tc.problems)
			}
			for line, want := range tc.problems {
				if !strings.Contains(got[line], want) {
					t.Errorf("line %d: problem %q, want %q", line, got[line], want)
				}
			}
			if r.Totals != tc.totals {
				t.Errorf("totals %v, want %v", r.Totals, tc.totals)
			}
			if n := r.Board.TileCount(); n != tc.tiles {
				t.Errorf("%d tiles on the board, want %d:\n%s", n, tc.tiles, r.Board.GridString())
			}
			if len(r.Steps) != len(g.Events) {
				t.Errorf("%d steps for %d events: an event was dropped", len(r.Steps), len(g.Events))
			}
		})
	}
}

func TestBagLen(t *testing.T) {
	var b rules.Board
	if n := BagLen(&b, 2); n != 86 {
		t.Errorf("empty board: %d in the bag, want 100 - 14 = 86", n)
	}
	for i := range 90 {
		b.Squares[i] = 1
	}
	if n := BagLen(&b, 2); n != 0 {
		t.Errorf("90 tiles down: %d in the bag, want 0", n)
	}
}

// TestReplayScorelessEnd: six consecutive scoreless turns end the game
// (NASPA); each player then loses their own tiles' value, and a move or
// other line after the end is a problem and is not applied.
func TestReplayScorelessEnd(t *testing.T) {
	head := "#player1 alice\n#player2 bob\n" // lines 1 and 2
	retains := ">alice: AEINRST 8D RETAINS +66 66\n"
	bobPass, alicePass := ">bob: ADIOQUZ - +0 0\n", ">alice: EEOSTV? - +0 66\n"
	sixPasses := strings.Repeat(bobPass+alicePass, 3) // lines 4 to 9
	// The end: each loses their own rack, ADIOQUZ 26 and EEOSTV? 9.
	ends := ">bob: ADIOQUZ (ADIOQUZ) -26 -26\n>alice: EEOSTV? (EEOSTV?) -9 57\n"
	tests := []struct {
		name     string
		lines    string
		problems map[int]string        // line -> part of the message; every problem listed
		totals   [rules.MaxPlayers]int // the engine's
		recorded [rules.MaxPlayers]int
		turns    int
	}{
		{"sixth scoreless turn ends it", retains + sixPasses + ends, nil, [rules.MaxPlayers]int{57, -26}, [rules.MaxPlayers]int{57, -26}, 7},
		{"end penalty not the rack", retains + sixPasses + ">bob:  (ADIOQU) -16 -16\n",
			map[int]string{10: "bob holds ADIOQUZ, not ADIOQU"}, [rules.MaxPlayers]int{66, -16}, [rules.MaxPlayers]int{66, -16}, 7},
		{"a play after the end", retains + sixPasses + ">bob: ADIOQUZ E6 ZO(E)A +13 13\n",
			map[int]string{10: "the game ended after six consecutive scoreless turns (line 9): E6 ZO(E)A is not applied"},
			[rules.MaxPlayers]int{66, 0}, [rules.MaxPlayers]int{66, 13}, 7},
		{"a seventh pass", retains + sixPasses + bobPass + ends,
			map[int]string{10: "(line 9): - is not applied"}, [rules.MaxPlayers]int{57, -26}, [rules.MaxPlayers]int{57, -26}, 7},
		{"going-out points after a scoreless end", retains + sixPasses + ">alice:  (ADIOQUZ) +52 118\n",
			map[int]string{10: "nobody went out"}, [rules.MaxPlayers]int{66, 0}, [rules.MaxPlayers]int{118, 0}, 7},
		{"a second end penalty", retains + sixPasses + ends + ">bob: ADIOQUZ (ADIOQUZ) -26 -52\n",
			map[int]string{12: "bob's tiles have already been counted"}, [rules.MaxPlayers]int{57, -26}, [rules.MaxPlayers]int{57, -52}, 7},
		{"a withdrawn play is scoreless", retains + ">bob: ADIOQUZ E6 ZO(E)A +13 13\n>bob: ADIOQUZ -- -13 0\n" +
			alicePass + strings.Repeat(bobPass+alicePass, 2) + bobPass, // lines 6 to 10: turns 3 to 7
			map[int]string{11: "(line 10): - is not applied"}, [rules.MaxPlayers]int{66, 0}, [rules.MaxPlayers]int{66, 0}, 7},
		{"a scoring play starts the count again", retains + strings.Repeat(bobPass+alicePass, 2) + // lines 4 to 7
			">bob: ADIOQUZ E6 ZO(E)A +13 13\n" + strings.Repeat(alicePass+">bob: - +0 13\n", 3) + alicePass, // 8; 9 to 14; 15
			map[int]string{15: "(line 14): - is not applied"}, [rules.MaxPlayers]int{66, 13}, [rules.MaxPlayers]int{66, 13}, 12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustParse(t, "p.gcg", []byte(head+tc.lines))
			r := g.Replay()
			got := map[int]string{}
			for _, p := range r.Problems {
				if !strings.HasPrefix(p.Error(), "p.gcg:") {
					t.Errorf("problem %q does not name the file", &p)
				}
				got[p.Line] += p.Msg
			}
			if len(got) != len(tc.problems) {
				t.Errorf("problems %v, want %v", got, tc.problems)
			}
			for line, want := range tc.problems {
				if !strings.Contains(got[line], want) {
					t.Errorf("line %d: problem %q, want %q", line, got[line], want)
				}
			}
			if r.Totals != tc.totals || r.Recorded != tc.recorded {
				t.Errorf("totals %v, recorded %v; want %v, %v", r.Totals, r.Recorded, tc.totals, tc.recorded)
			}
			if len(r.Turns) != tc.turns {
				t.Errorf("%d turns, want %d", len(r.Turns), tc.turns)
			}
			if len(r.Steps) != len(g.Events) {
				t.Errorf("%d steps for %d events: an event was dropped", len(r.Steps), len(g.Events))
			}
		})
	}
}

// TestReplayLongGame: a generated file of 100,000 turns after the game's
// end (six passes) replays into seven turns; the first ten lines after the
// end are a problem each and one more problem covers the rest.
func TestReplayLongGame(t *testing.T) {
	const extra = 100_000
	var b strings.Builder
	b.WriteString("#player1 alice\n#player2 bob\n>alice: AEINRST 8D RETAINS +66 66\n")
	for i := range 6 + extra {
		switch {
		case i%2 == 0:
			b.WriteString(">bob: - +0 0\n")
		case i%4 == 3:
			b.WriteString(">alice: EEOSTV? D8 .OVE +7 73\n>alice: -- -7 66\n")
		default:
			b.WriteString(">alice: - +0 66\n")
		}
	}
	path := filepath.Join(t.TempDir(), "long.gcg")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := g.Replay()
	if len(r.Turns) != 7 {
		t.Errorf("%d turns, want 7: the game ends after six scoreless turns", len(r.Turns))
	}
	if len(r.Problems) != 11 {
		t.Fatalf("%d problems, want 11 (ten lines after the end, then one for the rest)", len(r.Problems))
	}
	lastLine := g.Events[len(g.Events)-1].Line
	for i, p := range r.Problems {
		if p.File != path || p.Line <= 10 || i > 0 && p.Line <= r.Problems[i-1].Line {
			t.Errorf("problem %d: %v", i, &p)
		}
	}
	last := r.Problems[10].Msg
	if want := fmt.Sprintf("to line %d, are not applied", lastLine); !strings.Contains(last, want) {
		t.Errorf("last problem %q, want it to say %q", last, want)
	}
	if r.Totals != [rules.MaxPlayers]int{66, 0} || r.Board.TileCount() != 7 {
		t.Errorf("totals %v, %d tiles on the board; want [66 0], 7", r.Totals, r.Board.TileCount())
	}
}

// TestReplayManyProblems: a generated file of 100,000 plays that cannot be
// placed, each scoring as recorded (so no scoreless turns end the game),
// stops after 100 problems; one more problem covers the rest.
func TestReplayManyProblems(t *testing.T) {
	var b strings.Builder
	b.WriteString("#player1 alice\n#player2 bob\n")
	total := [rules.MaxPlayers]int{}
	for i := range 100_000 {
		p := i % 2
		total[p]++
		fmt.Fprintf(&b, ">%s: 8O QI +1 %d\n", [2]string{"alice", "bob"}[p], total[p]) // off the board
	}
	g := mustParse(t, "many.gcg", []byte(b.String()))
	r := g.Replay()
	if len(r.Turns) != maxProblems {
		t.Errorf("%d turns, want %d: one problem each, then the replay stops", len(r.Turns), maxProblems)
	}
	if len(r.Problems) != maxProblems+1 {
		t.Fatalf("%d problems, want %d", len(r.Problems), maxProblems+1)
	}
	want := "many.gcg:103: the replay stopped after 100 problems: this line and 99899 more after it, to line 100002, are not applied"
	if got := r.Problems[maxProblems].Error(); got != want {
		t.Errorf("last problem %q, want %q", got, want)
	}
	if len(r.Steps) != len(g.Events) || r.Recorded != [rules.MaxPlayers]int{50_000, 50_000} || r.Totals != [rules.MaxPlayers]int{50, 50} {
		t.Errorf("%d steps for %d events; totals %v, recorded %v", len(r.Steps), len(g.Events), r.Totals, r.Recorded)
	}
}
