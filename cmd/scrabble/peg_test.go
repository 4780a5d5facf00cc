package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/internal/testlex"
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
