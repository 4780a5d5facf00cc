package main

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"scrabble/infer"
	"scrabble/internal/testlex"
	"scrabble/position"
)

// TestInferCommand: the three ways to give the move (a GCG turn, a CGP's
// lm opcode, --last on a CGP without one) give the same answer; the
// leaves' probabilities sum to 1 and the letters' chances are
// probabilities; mistakes are usage errors naming the problem.
func TestInferCommand(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.Path(t, "NWL23")
	games := testlex.Games(t)
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	game := games[0]
	checked := 0
	for turn := 2; turn < 30 && checked < 4; turn += 3 {
		cgp := strings.TrimSpace(e.ok("--lexicon", "NWL23", "position", game, "--turn", strconv.Itoa(turn), "--format", "cgp"))
		pos, err := position.ParseCGP("t", cgp)
		if err != nil {
			t.Fatal(err)
		}
		lm, _ := pos.LastMove()
		if lm == nil || pos.Racks[0].Count() == 0 {
			continue
		}
		checked++
		decode := func(out string) infer.Report {
			t.Helper()
			var j infer.Report
			if err := json.Unmarshal([]byte(out), &j); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			return j
		}
		fromGCG := decode(e.ok("--lexicon", "NWL23", "infer", "--gcg", game, "--turn", strconv.Itoa(turn), "--json", "--top", "0"))
		withLM := decode(e.ok("--lexicon", "NWL23", "infer", "--board", e.file("lm.cgp", cgp+"\n"), "--json", "--top", "0"))
		pos.SetLastMove(nil)
		withLast := decode(e.ok("--lexicon", "NWL23", "infer", "--board", e.file("nolm.cgp", pos.CGP()+"\n"), "--last", lm.String(), "--json", "--top", "0"))
		a, _ := json.Marshal(fromGCG)
		for _, o := range []infer.Report{withLM, withLast} {
			if b, _ := json.Marshal(o); string(a) != string(b) {
				t.Fatalf("turn %d: the answers differ:\n%s\n%s", turn, a, b)
			}
		}
		if fromGCG.LastMove != lm.String() || fromGCG.Model != "softmax" {
			t.Errorf("turn %d: last move %q model %q", turn, fromGCG.LastMove, fromGCG.Model)
		}
		var sum float64
		for _, l := range fromGCG.Leaves {
			sum += l.Prob
			if len(l.Leave) != fromGCG.LeaveTiles {
				t.Errorf("turn %d: leave %q of %d tiles, want %d", turn, l.Leave, len(l.Leave), fromGCG.LeaveTiles)
			}
		}
		if !fromGCG.Uniform && math.Abs(sum-1) > 1e-9 {
			t.Errorf("turn %d: probabilities sum to %g", turn, sum)
		}
		for _, l := range fromGCG.Letters {
			if !(l.Prob >= 0 && l.Prob <= 1+1e-9) {
				t.Errorf("turn %d: letter %s chance %g", turn, l.Letter, l.Prob)
			}
		}
		text := e.ok("--lexicon", "NWL23", "infer", "--gcg", game, "--turn", strconv.Itoa(turn), "--top", "3")
		if !strings.Contains(text, "Chance their rack holds at least one") {
			t.Errorf("turn %d: text output:\n%s", turn, text)
		}
	}
	if checked == 0 {
		t.Fatal("no turn checked")
	}
	noLM := e.file("none.cgp", "15/15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15 AEINRST/ 5/0 0 lex NWL23;\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"infer", "--board", noLM}, "no last move"},
		{[]string{"infer", "--board", noLM, "--last", "8H DOG"}, "--last"},
		{[]string{"infer", "--board", noLM, "--last", "9Z XYZ"}, "--last"},
		{[]string{"infer", "--board", noLM, "--last", "8H CAT", "--turn", "3"}, "--turn"},
		{[]string{"infer", "--board", noLM, "--last", "-", "--model", "best"}, "--model"},
		{[]string{"infer", "--board", noLM, "--last", "-", "--tau", "0"}, "--tau"},
		{[]string{"infer", "--board", noLM, "--last", "-", "--tau", "NaN"}, "--tau"},
		{[]string{"infer", "--board", noLM, "--last", "-", "--tau", "+Inf"}, "--tau"},
		{[]string{"infer", "--board", noLM, "--last", "-", "--margin", "Inf"}, "--margin"},
		{[]string{"infer", "--gcg", game, "--turn", "1"}, "--turn"},
		{[]string{"infer"}, "--board"},
	} {
		r := e.run(append([]string{"--lexicon", "NWL23"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q: want exit 2 naming %q", c.args, r.code, r.stderr, c.want)
		}
	}
	// A pass tells nothing; 8H CAT fits the board and is inferred.
	if out := e.ok("--lexicon", "NWL23", "infer", "--board", noLM, "--last", "-"); !strings.Contains(out, "tells nothing") {
		t.Errorf("a pass:\n%s", out)
	}
	if out := e.ok("--lexicon", "NWL23", "infer", "--board", noLM, "--last", "8H CAT", "--json"); !strings.Contains(out, `"leave_tiles":4`) {
		t.Errorf("8H CAT:\n%s", out)
	}
}

// TestSimInfer: sim --infer says what it inferred, gives the same table on
// 1 and 2 threads (no stopping rule), and its mistakes are usage errors;
// review --sim --infer reviews a game with it.
func TestSimInfer(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.Path(t, "NWL23")
	games := testlex.Games(t)
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	cgp := strings.TrimSpace(e.ok("--lexicon", "NWL23", "position", games[0], "--turn", "8", "--format", "cgp"))
	file := e.file("t8.cgp", cgp+"\n")
	run := func(threads string) simJSON {
		t.Helper()
		var j simJSON
		out := e.ok("--lexicon", "NWL23", "sim", "--board", file, "--infer", "--iterations", "16", "--stop", "none", "--threads", threads, "--json")
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		j.Seconds, j.RolloutsPerS = 0, 0
		return j
	}
	a, b := run("1"), run("2")
	a.Threads, b.Threads = 0, 0
	if ja, _ := json.Marshal(a); string(ja) != func() string { jb, _ := json.Marshal(b); return string(jb) }() {
		t.Errorf("1 and 2 threads differ:\n%+v\n%+v", a, b)
	}
	pos, _ := position.ParseCGP("t", cgp)
	lm, _ := pos.LastMove()
	if a.InferredFrom != lm.String() {
		t.Errorf("inferred from %q, want %q", a.InferredFrom, lm)
	}
	pos.SetLastMove(nil)
	noLM := e.file("nolm.cgp", pos.CGP()+"\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--board", noLM, "--infer", "--iterations", "4"}, "no last move"},
		{[]string{"sim", "--board", noLM, "--last", lm.String(), "--iterations", "4"}, "--infer"},
		{[]string{"sim", "--board", noLM, "--infer", "--last", "8A ZZZZ", "--iterations", "4"}, "--last"},
		{[]string{"review", games[0], "--infer"}, "--sim"},
	} {
		r := e.run(append([]string{"--lexicon", "NWL23"}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q: want exit 2 naming %q", c.args, r.code, r.stderr, c.want)
		}
	}
	withLast := e.ok("--lexicon", "NWL23", "sim", "--board", noLM, "--infer", "--last", lm.String(), "--iterations", "4", "--threads", "1")
	if !strings.Contains(withLast, "inferred from their last move "+lm.String()) {
		t.Errorf("sim --infer --last:\n%s", withLast)
	}
	out := e.ok("--lexicon", "NWL23", "review", games[0], "--sim", "--infer", "--iterations", "2", "--top", "1")
	if !strings.Contains(out, "the opponent's rack inferred") {
		t.Errorf("review --sim --infer:\n%.400s", out)
	}
}
