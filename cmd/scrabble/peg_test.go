package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"scrabble/infer"
	"scrabble/internal/testlex"
	"scrabble/peg"
	"scrabble/rules"
)

// sharedPEGLine is a line of the shared peg1.jsonl: a one-tile pre-endgame
// and MAGPIE's record for its move.
type sharedPEGLine struct {
	ID    string `json:"id"`
	CGP   string `json:"cgp"`
	Exact map[string]struct {
		Wins   int     `json:"win_count"`
		Ties   int     `json:"tie_count"`
		Losses int     `json:"loss_count"`
		Mean   float64 `json:"mean_spread"`
		Proven bool    `json:"proven"`
	} `json:"exact"`
}

func sharedPEG(t *testing.T, id string) sharedPEGLine {
	t.Helper()
	testlex.Path(t, "NWL23") // skips without the shared lists
	f, err := os.Open(filepath.Join(os.Getenv(testlex.EnvVar), "..", "endgame", "peg1.jsonl"))
	if err != nil {
		t.Fatalf("the shared pre-endgames: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var p sharedPEGLine
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("no %s in peg1.jsonl", id)
	return sharedPEGLine{}
}

// TestPEGCommand: peg --move values MAGPIE's move of a shared position
// exactly, with its proven record; the per-draw results add up to the
// record; a time budget gives an answer that says it is not proven; best
// solves a pre-endgame and --static does not; peg refuses an endgame.
func TestPEGCommand(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	p := sharedPEG(t, "p009")
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	file := e.file("peg.cgp", p.CGP+"\n")
	var got pegJSON
	out := e.ok("--lexicon", "NWL23", "peg", "--board", file, "--move", "4C KUE", "--scoreless-turns", "2", "--json")
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := p.Exact["4C KUE"]
	if got.Best == nil || !got.Proven {
		t.Fatalf("peg --move: no proven answer:\n%s", out)
	}
	b := got.Best
	if b.Wins != want.Wins || b.Ties != want.Ties || b.Losses != want.Losses || b.MeanSpread == nil || *b.MeanSpread != want.Mean {
		t.Errorf("4C KUE: %d-%d-%d mean %v, MAGPIE's proven %d-%d-%d %.3f", b.Wins, b.Ties, b.Losses, b.MeanSpread, want.Wins, want.Ties, want.Losses, want.Mean)
	}
	weight, sum := 0, 0
	for _, d := range b.PerDraw {
		weight += d.Weight
		if d.Spread == nil {
			t.Fatalf("draw %s: no spread", d.Tile)
		}
		sum += d.Weight * *d.Spread
		if (d.Result == "loss") != (*d.Spread < 0) {
			t.Errorf("draw %s: %s with spread %d", d.Tile, d.Result, *d.Spread)
		}
	}
	if weight != b.Draws || b.Draws != 8 || float64(sum)/8 != *b.MeanSpread {
		t.Errorf("the draws weigh %d (of %d) and sum to %d, mean %v", weight, b.Draws, sum, *b.MeanSpread)
	}

	r := e.run("--lexicon", "NWL23", "peg", "--board", file, "--time", "2s", "--json")
	if r.code != 0 {
		t.Fatalf("peg --time: exit %d, %s", r.code, r.stderr)
	}
	got = pegJSON{}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Proven || got.Stopped != "time" {
		t.Errorf("peg --time 2s: proven %v, stopped %q", got.Proven, got.Stopped)
	}

	// In 2 s best may settle no candidate: it then ranks by static equity
	// and says so.
	r = e.run("--lexicon", "NWL23", "best", "--board", file, "--time", "2s")
	switch {
	case r.code != 0:
		t.Errorf("best on a pre-endgame: exit %d, %s", r.code, r.stderr)
	case strings.Contains(r.stdout, "Pre-endgame"):
		if !strings.Contains(r.stdout, "not proven") {
			t.Errorf("best on a pre-endgame, 2 s:\n%s", r.stdout)
		}
	case !strings.Contains(r.stderr, "ranking by static equity") || !strings.Contains(r.stdout, "Best "):
		t.Errorf("best on a pre-endgame, nothing settled:\n%s\n%s", r.stdout, r.stderr)
	}
	out = e.ok("--lexicon", "NWL23", "best", "--board", file, "--time", "20s", "--top", "0")
	if !strings.Contains(out, "Pre-endgame") {
		t.Errorf("best on a pre-endgame, 20 s:\n%s", out)
	}
	out = e.ok("--lexicon", "NWL23", "best", "--board", file, "--static")
	if strings.Contains(out, "Pre-endgame") || !strings.Contains(out, "Best ") {
		t.Errorf("best --static on a pre-endgame:\n%s", out)
	}
	end := fastSharedEndgames(t, 1)[0]
	r = e.run("--lexicon", "NWL23", "peg", "--board", e.file("end.cgp", end.CGP+"\n"))
	if r.code != 1 || !strings.Contains(r.stderr, "an empty bag is an endgame") {
		t.Errorf("peg on an endgame: exit %d, %s", r.code, r.stderr)
	}
	r = e.run("--lexicon", "NWL23", "peg", "--board", file, "--move", "Z9 NOPE")
	if r.code != 2 || !strings.Contains(r.stderr, "--move") {
		t.Errorf("peg --move with a bad move: exit %d, %s", r.code, r.stderr)
	}
}

// TestPEGTwoTiles: with two tiles in the bag (a position of a self-play
// game) peg without --time solves every candidate over every draw order and
// proves the ranking; with --time the stages come first, then the exact
// solve, which within the time left gives the same proven answer.
func TestPEGTwoTiles(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	const file = "testdata/peg-two.cgp"
	var exact, timed pegJSON
	out := e.ok("--lexicon", "NWL23", "peg", "--board", file, "--top", "3", "--json")
	if err := json.Unmarshal([]byte(out), &exact); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// 9 unseen tiles, 2 in the bag: 9 x 8 draw orders.
	if exact.BagTiles != 2 || !exact.Proven || exact.Stopped != "complete" || len(exact.Candidates) != 3 {
		t.Fatalf("peg on two tiles: bag %d, proven %v, stopped %q, %d candidates", exact.BagTiles, exact.Proven, exact.Stopped, len(exact.Candidates))
	}
	for _, c := range exact.Candidates {
		if !c.Proven || c.Spread != "exact" || c.Draws != 72 || c.Wins+c.Ties+c.Losses != 72 || c.MeanSpread == nil {
			t.Errorf("%s: proven %v, spread %q, %d-%d-%d of %d", c.Move.Move, c.Proven, c.Spread, c.Wins, c.Ties, c.Losses, c.Draws)
		}
	}
	// With --time the stages come first, then the exact solve: 10
	// minutes are ample here, so the answer is the same, proven.
	out = e.ok("--lexicon", "NWL23", "peg", "--board", file, "--top", "3", "--time", "10m", "--json")
	if err := json.Unmarshal([]byte(out), &timed); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !timed.Proven || len(timed.Candidates) != len(exact.Candidates) {
		t.Fatalf("peg --time on two tiles: proven %v, %d candidates", timed.Proven, len(timed.Candidates))
	}
	for i, c := range timed.Candidates {
		x := exact.Candidates[i]
		if c.Move.Move != x.Move.Move || c.Wins != x.Wins || c.Ties != x.Ties || c.Losses != x.Losses || !c.Proven || c.MeanSpread == nil || *c.MeanSpread != *x.MeanSpread {
			t.Errorf("peg --time: %d. %s %d-%d-%d (proven %v), without --time %s %d-%d-%d", i+1, c.Move.Move, c.Wins, c.Ties, c.Losses, c.Proven, x.Move.Move, x.Wins, x.Ties, x.Losses)
		}
	}
	text := e.ok("--lexicon", "NWL23", "peg", "--board", file, "--time", "10m")
	if !strings.Contains(text, "Solved exactly: "+exact.Best.Move.Move) {
		t.Errorf("peg --time on two tiles:\n%s", text)
	}
}

// TestPEGStaged: with three or four tiles in the bag best solves the
// pre-endgame by stages within --time: the answer is marked not proven,
// each record says what valued it, the deeper stages rank first, and the
// records count every draw order.
func TestPEGStaged(t *testing.T) {
	e, ps := benchEnv(t)
	found := map[int]bool{}
	for _, p := range ps {
		unseen, err := rules.Unseen(&p.Board, p.Racks[0])
		bag := unseen.Count() - rules.RackSize
		if err != nil || bag < 3 || bag > peg.MaxBag || found[bag] || p.Racks[0].Count() != rules.RackSize {
			continue
		}
		found[bag] = true
		file := e.file(fmt.Sprintf("bag%d.cgp", bag), p.CGP()+"\n")
		var got pegJSON
		out := e.ok("--lexicon", "NWL23", "best", "--board", file, "--time", "4s", "--json")
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("bag %d: %v\n%s", bag, err, out)
		}
		if got.BagTiles != bag || got.Proven || got.Best == nil || len(got.Candidates) == 0 {
			t.Fatalf("bag %d: best --json: bag %d, proven %v, %d candidates", bag, got.BagTiles, got.Proven, len(got.Candidates))
		}
		// 8 unseen with one tile in the bag, one more for each tile more:
		// n!/(n-bag)! draw orders.
		orders := 1
		for i := 0; i < bag; i++ {
			orders *= rules.RackSize + bag - i
		}
		depth := func(c pegCandidate) int {
			if c.Proven {
				return 1 << 10
			}
			return c.Plies
		}
		for i, c := range got.Candidates {
			if c.Draws != orders || c.Wins+c.Ties+c.Losses != orders {
				t.Errorf("bag %d: %s: %d-%d-%d of %d draws, want %d draw orders", bag, c.Move.Move, c.Wins, c.Ties, c.Losses, c.Draws, orders)
			}
			if i > 0 && depth(c) > depth(got.Candidates[i-1]) {
				t.Errorf("bag %d: %s (%d plies) ranks below %s (%d plies)", bag, c.Move.Move, c.Plies, got.Candidates[i-1].Move.Move, got.Candidates[i-1].Plies)
			}
		}
		text := e.ok("--lexicon", "NWL23", "peg", "--board", file, "--time", "4s")
		if !strings.Contains(text, "Best by estimate, not proven") || !regexp.MustCompile(`(playouts|\d plies|exact)\n`).MatchString(text) {
			t.Errorf("bag %d: peg --time 4s:\n%s", bag, text)
		}
	}
	if !found[3] || !found[4] {
		t.Fatalf("benchmark positions with 3 and 4 tiles in the bag: %v, want both", found)
	}
}

// TestPEGInfer: peg --infer weights each bag tile by what the opponent's
// last move (the CGP's lm) says they kept. Each tile's chance is the one
// worked out from infer's leaves (given the leave, the other unseen tiles
// are alike: the bag tile is one of them at random), the win percentage
// is the chances of the draws won, and the records are in draws with
// fractions; without --infer the chances are the tile counts'. best
// --infer weights its pre-endgame the same way; mistakes are usage errors.
func TestPEGInfer(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.Path(t, "NWL23")
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	file, err := filepath.Abs("testdata/peg-infer.cgp")
	if err != nil {
		t.Fatal(err)
	}
	var inf infer.Report
	if err := json.Unmarshal([]byte(e.ok("--lexicon", "NWL23", "infer", "--board", file, "--json", "--top", "0")), &inf); err != nil {
		t.Fatal(err)
	}
	unseen, err := rules.ParseRack(inf.Unseen)
	if err != nil {
		t.Fatal(err)
	}
	// The chance of each bag tile from the leaves.
	want := map[string]float64{}
	for _, l := range inf.Leaves {
		leave, err := rules.ParseRack(l.Leave)
		if err != nil {
			t.Fatal(err)
		}
		rest := unseen
		rest.Sub(leave)
		for slot, n := range rest {
			if n > 0 {
				tile := rules.Blank
				if slot > 0 {
					tile = rules.Letter(slot)
				}
				want[tileString(tile)] += l.Prob * float64(n) / float64(rest.Count())
			}
		}
	}
	spread := 0.0
	for _, inferred := range []bool{true, false} {
		args := []string{"--lexicon", "NWL23", "peg", "--board", file, "--top", "3", "--json"}
		if inferred {
			args = append(args, "--infer")
		}
		var got pegJSON
		if err := json.Unmarshal([]byte(e.ok(args...)), &got); err != nil {
			t.Fatal(err)
		}
		b := got.Best
		if b == nil || !got.Proven || len(b.PerDraw) == 0 {
			t.Fatalf("--infer %v: no proven answer with its draws: %+v", inferred, got)
		}
		unit := 1
		if inferred {
			unit = peg.InferredUnit
		}
		if got.DrawUnit != unit || (got.InferredFrom == "D12 GE.") != inferred {
			t.Errorf("--infer %v: draw unit %d, inferred from %q", inferred, got.DrawUnit, got.InferredFrom)
		}
		if d := float64(b.Draws) / float64(unit); math.Abs(d-8) > 0.01 {
			t.Errorf("--infer %v: %g draws, want 8", inferred, d)
		}
		sum, won, mean := 0.0, 0.0, 0.0
		for _, d := range b.PerDraw {
			p := float64(d.Weight) / 8
			if inferred {
				p = want[d.Tile]
			}
			if math.Abs(d.Prob-p) > 2e-3 {
				t.Errorf("--infer %v: bag tile %s has chance %.4f, want %.4f", inferred, d.Tile, d.Prob, p)
			}
			sum += d.Prob
			won += d.Prob * map[string]float64{"win": 1, "tie": 0.5}[d.Result]
			mean += d.Prob * float64(*d.Spread)
		}
		if math.Abs(sum-1) > 1e-9 || math.Abs(100*won-b.WinPct) > 1e-6 || math.Abs(mean-*b.MeanSpread) > 1e-6 {
			t.Errorf("--infer %v: chances sum to %g, win %% %g from them against %g, mean spread %g against %g", inferred, sum, 100*won, b.WinPct, mean, *b.MeanSpread)
		}
		if inferred {
			spread = *b.MeanSpread
		} else if spread == *b.MeanSpread {
			t.Errorf("the weighted mean spread %g is the uniform one", spread)
		}
	}
	out := e.ok("--lexicon", "NWL23", "best", "--board", file, "--infer")
	if !strings.Contains(out, "Draws weighted by the opponent's last move D12 GE.") || !strings.Contains(out, "of 8.00 draws") {
		t.Errorf("best --infer on a pre-endgame:\n%s", out)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	noLM := e.file("nolm.cgp", strings.Replace(string(text), " lm D12 GE.;", "", 1))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"peg", "--board", noLM, "--infer"}, "no last move"},
		{[]string{"peg", "--board", file, "--last", "8H DOG"}, "--last goes with --infer"},
		{[]string{"peg", "--board", noLM, "--infer", "--last", "9Z XYZ"}, "--last"},
		{[]string{"best", "--board", file, "--infer", "--static"}, "--infer"},
	} {
		r := e.run(append([]string{"--lexicon", "NWL23"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, %s", c.args, r.code, r.stderr)
		}
	}
}
