package review

import (
	"context"
	"testing"
	"time"

	"scrabble/eval"
	"scrabble/infer"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/peg"
	"scrabble/position"
	"scrabble/rules"
)

// TestReviewPEG: with PEG, the turns played with 1 to PEGMaxBag tiles in
// the bag and a full rack carry the pre-endgame solver's verdict (when it
// valued a candidate in time; with one tile, always); with one tile, where
// it is proven, the move made's record checks out against a solve made
// apart from the review.
func TestReviewPEG(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	seen, qualified, staged := 0, 0, 0
	for _, name := range []string{"doug_v_emely.gcg", "utf8_dos.gcg", "vs_andy.gcg"} {
		r := replay(t, testlex.Game(t, name))
		rep := mustReview(t, r, Options{Tables: lex, PEG: 10 * time.Second})
		for i, tr := range rep.Turns {
			gt := &r.Turns[i]
			qualifies := tr.Reviewed && gt.BagLen >= 1 && gt.BagLen <= PEGMaxBag && gt.Rack.Count() == 7
			if qualifies {
				qualified++
			}
			if !qualifies && tr.PEG != nil {
				t.Errorf("%s turn %d: bag %d, a pre-endgame verdict %+v", name, tr.Turn, gt.BagLen, tr.PEG)
			}
			if tr.PEG == nil || tr.PEG.PlayedWinPct == nil {
				if qualifies && gt.BagLen == 1 {
					// Proven, or estimated when the clock stopped
					// the exact solve: a one-tile turn always has
					// an answer in time.
					t.Errorf("%s turn %d: one tile in the bag, no verdict %+v", name, tr.Turn, tr.PEG)
				}
				continue
			}
			seen++
			e := tr.PEG
			if gt.BagLen > 1 || !e.Proven {
				// Staged, or one tile with estimates: the best and the
				// move made valued together.
				if e.WinPctLost != e.BestWinPct-*e.PlayedWinPct || e.Proven && e.WinPctLost < 0 {
					t.Errorf("%s turn %d: bag %d, review %+v", name, tr.Turn, gt.BagLen, e)
				}
				staged++
				continue
			}
			pos := &position.Position{Board: gt.Board, Scores: [rules.MaxPlayers]int{gt.Totals[gt.Player], gt.Totals[1-gt.Player]}, ZeroTurns: gt.Scoreless}
			pos.Racks[0] = gt.Rack
			stand := gt.Move
			if gt.Withdrawn {
				stand = move.Move{Kind: move.Pass}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			one, err := peg.Solve(ctx, lex, pos, peg.Options{TTMB: 16, Only: []move.Move{stand}})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if !one.Proven {
				continue
			}
			if c := one.Candidates[0]; c.WinPct != *e.PlayedWinPct || e.WinPctLost != e.BestWinPct-c.WinPct || e.WinPctLost < 0 && e.Proven {
				t.Errorf("%s turn %d: review %+v, apart %.1f%%", name, tr.Turn, e, c.WinPct)
			}
		}
	}
	t.Logf("%d pre-endgame turns, %d valued, %d of them staged or estimated", qualified, seen, staged)
	if qualified == 0 {
		t.Error("no pre-endgame turn in the games")
	}
	if staged == 0 {
		t.Error("no staged pre-endgame turn valued")
	}
}

// TestReviewPEGInfer: with PEGInfer a pre-endgame turn's draws are
// weighted by what the opponent's move just before says they kept. On turn
// 23 of testdata/peg-infer.gcg (a game between equity players, one tile in
// the bag, the opponent having just played B2 FLAN) the verdict is a solve
// made apart from the review with the draws weighted by infer's result for
// that move, and without PEGInfer the uniform solve's; the two name
// different best moves here.
func TestReviewPEGInfer(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	r := replay(t, "testdata/peg-infer.gcg")
	const turn = 23
	gt, prev := &r.Turns[turn-1], &r.Turns[turn-2]
	if gt.BagLen != 1 || prev.Move.Kind != move.Play {
		t.Fatalf("turn %d: bag %d, the move before %v", turn, gt.BagLen, prev.Move.Kind)
	}
	inferred, err := infer.New(lex).Infer(&infer.Situation{Board: prev.Board, Rack: gt.Rack, Last: prev.Move}, infer.Options{Leaves: leaves})
	if err != nil {
		t.Fatal(err)
	}
	pos := &position.Position{Board: gt.Board, Scores: [rules.MaxPlayers]int{gt.Totals[gt.Player], gt.Totals[1-gt.Player]}, ZeroTurns: gt.Scoreless}
	pos.Racks[0] = gt.Rack
	var best [2]string
	for k, weights := range []func(rules.Rack) float64{nil, inferred.RackProb} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		want, err := peg.Solve(ctx, lex, pos, peg.Options{TTMB: 16, Top: 1, OppRackProb: weights})
		cancel()
		if err != nil || !want.Proven {
			t.Fatalf("the solve apart: %v, proven %v", err, want != nil && want.Proven)
		}
		opts := Options{Tables: lex, Leaves: leaves, PEG: 30 * time.Second}
		if weights != nil {
			opts.PEGInfer = &infer.Options{}
		}
		rep := mustReview(t, r, opts)
		e := rep.Turns[turn-1].PEG
		w := want.Candidates[0]
		if e == nil || !e.Proven || e.Best != w.Notation || e.BestWinPct != w.WinPct || e.BestMeanSpread == nil || *e.BestMeanSpread != w.MeanSpread {
			t.Fatalf("inferred %v: review %+v, the solve apart %s %.1f%% %+.3f", weights != nil, e, w.Notation, w.WinPct, w.MeanSpread)
		}
		best[k] = e.Best
	}
	if best[0] == best[1] {
		t.Errorf("the same best move, %s, with and without inference", best[0])
	}
	t.Logf("best uniformly %s, with inference %s", best[0], best[1])
}
