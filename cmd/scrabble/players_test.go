package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"scrabble/eval"
	"scrabble/position"
	"scrabble/rules"
)

// fieldPositions writes the example mid-game position and the endgame of
// testdata as positions of n players (the mover's rack, the others'
// unknown; scores in turn order) and returns their files.
func fieldPositions(t *testing.T, e *testEnv, n int) (mid, end string) {
	t.Helper()
	racks := "/" + strings.Repeat("/", n-2)
	scores := []string{"129", "215", "100", "80"}[:n]
	midData, err := os.ReadFile(examplePos)
	if err != nil {
		t.Fatal(err)
	}
	endData, err := os.ReadFile(filepath.Join("testdata", "endgame.cgp"))
	if err != nil {
		t.Fatal(err)
	}
	mid = strings.Replace(string(midData), "AEINRST/ 129/215 0", "AEINRST"+racks+" "+strings.Join(scores, "/")+" 0", 1)
	end = strings.Replace(string(endData), "GLLORUU/ADPRST? 305/444 0", "GLLORUU"+racks+" 305/444/"+strings.Join(scores[2:], "/")+" 0", 1)
	if mid == string(midData) || end == string(endData) {
		t.Fatal("the example positions changed: update fieldPositions")
	}
	return e.file("mid.cgp", mid), e.file("end.cgp", end)
}

// TestBestMovesField: on a 4-player position with tiles in the bag, moves
// and best give what they give for two players (the same moves, the same
// equity: move generation and leaves do not change), with the bag worked
// out as the unseen tiles less three full racks; with the bag empty, best
// and sim rank by the static end-of-game valuation of four players and say
// so (a line of text, the JSON object's fields), and endgame, peg and
// infer refuse the position.
func TestBestMovesField(t *testing.T) {
	e := nwlEnv(t)
	mid, end := fieldPositions(t, e, 4)
	midData, err := os.ReadFile(mid)
	if err != nil {
		t.Fatal(err)
	}
	known := e.file("known.cgp", strings.Replace(string(midData), "AEINRST///", "AEINRST//Q/", 1))

	for _, cmd := range []string{"moves", "best"} {
		two := e.ok(cmd, "--board", examplePos, "--json", "--top", "5")
		four := e.ok(cmd, "--board", mid, "--json", "--top", "5")
		if two != four || !strings.HasPrefix(four, "[") {
			t.Errorf("%s on 4 players differs from 2 players:\n%s\n%s", cmd, two, four)
		}
	}
	out := e.ok("show", "--board", mid)
	for _, want := range []string{"To move:   AEINRST   score 129", "Next:      -         score 215", "Third:     -         score 100",
		"Fourth:    -         score 80", "52 unseen: 31 in the bag, 7 on each of the other 3 racks"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}

	// The bag empty: the static valuation of 4 players, said so.
	out = e.ok("best", "--board", end, "--top", "3")
	if !strings.Contains(out, "Bag empty, 4 players: the endgame solver handles two players; ranked by the static end-of-game valuation") ||
		!strings.Contains(out, "Best ") || strings.Contains(out, "Solved") {
		t.Errorf("best on a 4-player endgame:\n%s", out)
	}
	var got staticEndJSON
	if err := json.Unmarshal([]byte(e.ok("best", "--board", end, "--json", "--top", "0")), &got); err != nil {
		t.Fatal(err)
	}
	if got.Players != 4 || got.Bag != 0 || got.Valuation != "static" || !strings.Contains(got.Note, "4 players") ||
		!reflect.DeepEqual(got.Scores, []int{305, 444, 100, 80}) || len(got.Moves) < 10 {
		t.Errorf("best --json on a 4-player endgame: %+v", got)
	}
	// Each move's equity is its score plus the end-of-game term of four
	// players (4/3 times the tiles), not two's (2 times).
	data, err := os.ReadFile(end)
	if err != nil {
		t.Fatal(err)
	}
	p, err := position.Parse("end", data)
	if err != nil {
		t.Fatal(err)
	}
	unseen, _ := rules.Unseen(&p.Board, p.Racks[0])
	four, two := eval.EquityAmong(nil, 0, unseen, 4), eval.EquityAmong(nil, 0, unseen, 2)
	differ := 0
	for _, m := range got.Moves {
		leave, err := rules.ParseRack(strings.ReplaceAll(m.Leave, "-", ""))
		if err != nil {
			t.Fatal(err)
		}
		want := rules.MilliToPoints(float64(rules.FromPoints(int32(m.Score)) + four.LeaveValue(&leave)))
		if m.Equity != want {
			t.Errorf("%s (leave %q): equity %.3f, want %.3f", m.Move, m.Leave, m.Equity, want)
		}
		if four.LeaveValue(&leave) != two.LeaveValue(&leave) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("no move's equity tells four players from two")
	}
	out = e.ok("sim", "--board", end)
	if !strings.Contains(out, "Bag empty, 4 players: the endgame solver handles two players") {
		t.Errorf("sim on a 4-player endgame:\n%s", out)
	}
	// One tile in the bag of a 3-player game (the endgame's board less 8
	// tiles: 15 unseen, 14 on the others' racks): no pre-endgame solve.
	pre := e.file("pre.cgp", "10EQUIP/1C10N2/1R10N2/1ID8NOOK/1MO7V1I2/FEN2ZYMOGEnS2/A1A2I1EX1R1Y2/E1TENTIE1AB4/R1I4DALETHS1/I1V6AD2W1/E1E6T3A1/9I3G1/9O3E1/4AJOWAN3R1/2TOH10 GLLORUU// 305/444/100 0 lex NWL23;\n")
	out = e.ok("best", "--board", pre, "--top", "2")
	if !strings.Contains(out, "1 tile in the bag and 3 players: the pre-endgame solver handles two players; ranked by static equity.") ||
		!strings.Contains(out, "Best ") {
		t.Errorf("best on a 3-player pre-endgame:\n%s", out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"peg", "--board", pre}, "peg: a 3-player position: the solver handles two players"},
		{[]string{"endgame", "--board", end}, "endgame: a 4-player position: the solver handles two players"},
		{[]string{"peg", "--board", mid}, "peg: a 4-player position: the solver handles two players"},
		{[]string{"infer", "--board", mid, "--last", "-"}, "infer: a 4-player position: inference handles two players"},
		{[]string{"sim", "--board", mid, "--infer", "--last", "-", "--iterations", "2"}, "--infer: a 4-player position"},
		{[]string{"sim", "--board", known, "--iterations", "2"}, "a 4-player position gives rack 3 (Q): with more than two players the simulation draws every other rack at random"},
	} {
		if r := e.run(c.args...); r.code == 0 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want an error with %q", strings.Join(c.args, " "), r.code, r.stderr, c.want)
		}
	}
}

// TestSimField: sim on a 4-player position draws the other three racks
// (21 tiles) and ranks by equity against the field; the same seed gives
// the same table on 1 or 2 threads.
func TestSimField(t *testing.T) {
	e := nwlEnv(t)
	mid, _ := fieldPositions(t, e, 4)
	args := []string{"sim", "--board", mid, "--iterations", "6", "--candidates", "3", "--stop", "none", "--json", "--seed", "5", "--plies", "4"}
	s, raw := parseSim(t, e.ok(append(args, "--threads", "1")...))
	if s.Players != 4 || s.Bag != 31 || s.Drawn != 21 || !reflect.DeepEqual(s.Scores, []int{129, 215, 100, 80}) ||
		s.Rank != "equity" || s.Endgame || s.Plies != 4 || s.Iterations != 6 {
		t.Errorf("header fields: %+v", s)
	}
	if n := int64(len(s.Candidates)); n != 7 || s.Rollouts != 6*n || s.Generations != 4*6*n {
		t.Errorf("%d candidates, %d rollouts, %d move searches; want 7, 42 and 4 plies each", n, s.Rollouts, s.Generations)
	}
	if _, two := parseSim(t, e.ok(append(args, "--threads", "2")...)); !reflect.DeepEqual(raw, two) {
		t.Errorf("the same seed gave different tables:\n%v\n%v", raw, two)
	}
	out := e.ok("sim", "--board", mid, "--iterations", "4", "--candidates", "2", "--threads", "1")
	for _, want := range []string{"4 players, 31 tiles in the bag, the other 3 racks drawn at random, scores 129-215-100-80 in turn order; 2 plies",
		"ranked by simulated equity, the spread against the field", "WIN% is the share of rollouts after which the mover stands first"} {
		if !strings.Contains(out, want) {
			t.Errorf("sim text lacks %q:\n%s", want, out)
		}
	}
}
