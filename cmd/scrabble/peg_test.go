package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
