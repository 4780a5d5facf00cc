package server

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"scrabble/eval"
	"scrabble/infer"
	"scrabble/internal/testlex"
	"scrabble/peg"
	"scrabble/position"
	"scrabble/rules"
	"scrabble/sim"
)

// inferCGP is a pre-endgame (one tile in the bag, NWL23) after the
// opponent's D12 GE. (the lm opcode), as cmd/scrabble's peg-infer.cgp.
const inferCGP = "15/1C13/1L8C4/GATE6IN3/1N8GO3/1KOB1PIU1ZAS3/2HOMO2BARE3/E2WAIVERS4V/WHELM2NE4SO/1ET4DEX3PI/9IF2OD/3G3Y2O2u1/3E1FROnTLETS1/1TRYNA1U2D2E1/7R3QADI AIJLNUU/ 404/378 0 lm D12 GE.;"

// inferenceOf is the library's inference for inferCGP with last as its
// last move, with the server's options.
func inferenceOf(t *testing.T, lex *Lexicon, last string, seed uint64) *infer.Result {
	t.Helper()
	pos, err := position.ParseCGP("test", inferCGP)
	if err != nil {
		t.Fatal(err)
	}
	lm, err := position.ParseLastMove(last)
	if err != nil {
		t.Fatal(err)
	}
	pos.SetLastMove(lm)
	sit, err := infer.FromPosition(pos, pos.Racks[0])
	if err != nil {
		t.Fatal(err)
	}
	res, err := infer.New(lex.Tables).Infer(sit, infer.Options{Leaves: lex.Leaves, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestInferEndpoint: /api/infer is the library's inference of the CGP's
// lm opcode, or of "last" in its place; top cuts the leaves, 0 lists all.
func TestInferEndpoint(t *testing.T) {
	if testlex.Name() != "NWL23" {
		t.Skip("the position is NWL23's")
	}
	_, ts := newTestServer(t, Config{})
	lex := testLexicon(t)
	noLM := strings.Replace(inferCGP, " lm D12 GE.;", "", 1)
	for _, tc := range []struct {
		name, body, last string
		top              int
	}{
		{"the CGP's lm", body(inferCGP, "", ""), "D12 GE.", 10},
		{"all leaves", body(inferCGP, "", `"top":0`), "D12 GE.", 0},
		{"last given", body(noLM, "", `"last":"D12 GE.","top":3`), "D12 GE.", 3},
		{"last in place of lm", body(inferCGP, "", `"last":"-","top":3`), "-", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got infer.Report
			if code := post(t, ts, "/api/infer", tc.body, &got); code != 200 {
				t.Fatalf("status %d: %+v", code, got)
			}
			want := inferenceOf(t, lex, tc.last, 1)
			if got.LastMove != tc.last || got.Uniform != want.Uniform || got.Count != len(want.Leaves) || got.Model != "softmax" || got.Tau != infer.DefaultTau {
				t.Fatalf("report %+v; want last move %s, uniform %v, %d leaves, softmax tau %g", got, tc.last, want.Uniform, len(want.Leaves), infer.DefaultTau)
			}
			n := len(want.Leaves)
			if tc.top > 0 {
				n = min(n, tc.top)
			}
			if len(got.Leaves) != n {
				t.Fatalf("%d leaves listed, want %d", len(got.Leaves), n)
			}
			for i, l := range got.Leaves {
				if w := want.Leaves[i]; l.Leave != w.Leave.String() || math.Abs(l.Prob-w.Prob) > 1e-12 {
					t.Errorf("leave %d: %s %.6f, want %s %.6f", i, l.Leave, l.Prob, w.Leave, w.Prob)
				}
			}
			marg := want.Marginals()
			for _, l := range got.Letters {
				r, err := rules.ParseRack(l.Letter)
				if err != nil {
					t.Fatal(err)
				}
				slot := r.Tiles()[0].RackIndex()
				if math.Abs(l.Prob-marg[slot]) > 1e-12 {
					t.Errorf("letter %s: %.6f, want %.6f", l.Letter, l.Prob, marg[slot])
				}
			}
		})
	}
}

// TestSimAndPEGInfer: with "infer", /api/sim draws the opponent's rack
// from the inference, as the library does given it (the same table
// for the same seed), and /api/peg weights the bag's tiles by it; without
// it the answers differ.
func TestSimAndPEGInfer(t *testing.T) {
	if testlex.Name() != "NWL23" {
		t.Skip("the position is NWL23's")
	}
	_, ts := newTestServer(t, Config{})
	lex := testLexicon(t)
	pos, err := position.ParseCGP("test", inferCGP)
	if err != nil {
		t.Fatal(err)
	}
	res := inferenceOf(t, lex, "D12 GE.", 5)

	const simArgs = `"iterations":40,"seed":5,"time":"30s","top":5`
	var inferred, plain SimResponse
	if code := post(t, ts, "/api/sim", body(inferCGP, "", simArgs+`,"infer":true`), &inferred); code != 200 {
		t.Fatalf("sim with infer: status %d", code)
	}
	if code := post(t, ts, "/api/sim", body(inferCGP, "", simArgs), &plain); code != 200 {
		t.Fatalf("sim: status %d", code)
	}
	opts := sim.Options{Leaves: lex.Leaves, WinPct: eval.DefaultWinPct(), Candidates: 5, Plies: sim.DefaultPlies,
		Iterations: 40, Confidence: 0.99, Threads: 1, Seed: 5}
	want, err := sim.NewSimulator(lex.Tables).Simulate(context.Background(), &sim.Position{Board: pos.Board, Rack: pos.Racks[0],
		Scores: pos.Scores, Scoreless: pos.ZeroTurns, OpponentRacks: res}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if inferred.InferredFrom != "D12 GE." || plain.InferredFrom != "" || len(inferred.Candidates) != len(want.Candidates) {
		t.Fatalf("inferred from %q (plain %q), %d candidates; want D12 GE. and %d", inferred.InferredFrom, plain.InferredFrom, len(inferred.Candidates), len(want.Candidates))
	}
	differ := false
	for i, c := range inferred.Candidates {
		w := &want.Candidates[i]
		if c.Move != w.Move.NotationOn(&pos.Board) || c.SimEquity != w.Mean || c.WinPct != 100*w.WinProb {
			t.Errorf("candidate %d: %s %.4f %.4f%%, want %s %.4f %.4f%%", i, c.Move, c.SimEquity, c.WinPct, w.Move.NotationOn(&pos.Board), w.Mean, 100*w.WinProb)
		}
		for _, p := range plain.Candidates {
			if p.Move == c.Move && p.SimEquity != c.SimEquity {
				differ = true
			}
		}
	}
	if !differ {
		t.Errorf("the inferred sim's values are the uniform one's")
	}

	var weighted, uniform PEGResponse
	if code := post(t, ts, "/api/peg", body(inferCGP, "", `"infer":true,"seed":5,"top":3`), &weighted); code != 200 {
		t.Fatalf("peg with infer: status %d", code)
	}
	if code := post(t, ts, "/api/peg", body(inferCGP, "", `"top":3`), &uniform); code != 200 {
		t.Fatalf("peg: status %d", code)
	}
	wp, err := peg.Solve(context.Background(), lex.Tables, pos, peg.Options{TTMB: pegTTMB, Top: 3, OppRackProb: res.RackProb})
	if err != nil {
		t.Fatal(err)
	}
	if !weighted.Proven || !wp.Proven || weighted.Best == nil || uniform.Best == nil {
		t.Fatalf("not proven: %+v, %+v", weighted, wp)
	}
	b, w := weighted.Best, &wp.Candidates[0]
	if weighted.InferredFrom != "D12 GE." || weighted.DrawUnit != peg.InferredUnit || uniform.DrawUnit != 1 || uniform.InferredFrom != "" {
		t.Errorf("weighted: from %q, unit %d; uniform: from %q, unit %d", weighted.InferredFrom, weighted.DrawUnit, uniform.InferredFrom, uniform.DrawUnit)
	}
	if b.WinPct != w.WinPct || b.MeanSpread != w.MeanSpread || b.Wins != w.Wins || b.Draws != w.Draws {
		t.Errorf("weighted best %+v; the library's %s: win %.4f%%, spread %.4f, %d of %d", b, w.Notation, w.WinPct, w.MeanSpread, w.Wins, w.Draws)
	}
	if uniform.Best.MeanSpread == b.MeanSpread {
		t.Errorf("the weighted mean spread %g is the uniform one", b.MeanSpread)
	}
}

// TestInferBadRequests: inference's mistakes are 400s that say what is
// wrong.
func TestInferBadRequests(t *testing.T) {
	if testlex.Name() != "NWL23" {
		t.Skip("the position is NWL23's")
	}
	_, ts := newTestServer(t, Config{})
	noLM := strings.Replace(inferCGP, " lm D12 GE.;", "", 1)
	opening := emptyBoard + " AEINRST/ 0/0 0"
	for _, tc := range []struct {
		name, path, body, want string
	}{
		{"no last move", "/api/infer", body(noLM, "", ""), "no last move"},
		{"no last move, sim", "/api/sim", body(noLM, "", `"infer":true`), "no last move"},
		{"bad last", "/api/infer", body(noLM, "", `"last":"Q99 XYZ"`), "last"},
		{"last off the board's tiles", "/api/peg", body(noLM, "", `"infer":true,"last":"8D ZZZZ"`), "does not fit"},
		{"last without infer", "/api/sim", body(inferCGP, "", `"last":"D12 GE."`), "goes with"},
		{"last without infer, peg", "/api/peg", body(inferCGP, "", `"last":"D12 GE."`), "goes with"},
		{"infer for best", "/api/best", body(inferCGP, "", `"infer":true`), "no use of infer"},
		{"infer for moves", "/api/moves", body(inferCGP, "", `"last":"D12 GE."`), "no use of infer"},
		{"opponent's rack known", "/api/infer", body(strings.Replace(inferCGP, "AIJLNUU/", "AIJLNUU/E", 1), "", ""), "already"},
		{"three players", "/api/infer", body(emptyBoard+" AEINRST// 0/0/0 0 lm -;", "", ""), "two players"},
		{"opening", "/api/infer", body(opening, "", ""), "no last move"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e struct{ Error string }
			if code := post(t, ts, tc.path, tc.body, &e); code != 400 || !strings.Contains(e.Error, tc.want) {
				t.Errorf("status %d, error %q; want 400 saying %q", code, e.Error, tc.want)
			}
		})
	}
}

// TestInferTimeLimit: an inference the server's time limit stops is a 503
// that says so, on /api/infer and where sim and peg infer first.
func TestInferTimeLimit(t *testing.T) {
	if testlex.Name() != "NWL23" {
		t.Skip("the position is NWL23's")
	}
	_, ts := newTestServer(t, Config{TimeLimit: time.Nanosecond})
	for _, tc := range []struct{ path, body string }{
		{"/api/infer", body(inferCGP, "", "")},
		{"/api/sim", body(inferCGP, "", `"infer":true`)},
		{"/api/peg", body(inferCGP, "", `"infer":true`)},
	} {
		var e struct{ Error string }
		if code := post(t, ts, tc.path, tc.body, &e); code != 503 || !strings.Contains(e.Error, "infer: no answer within the server's time limit") {
			t.Errorf("%s: status %d, error %q; want 503 saying the inference ran out of time", tc.path, code, e.Error)
		}
	}
}
