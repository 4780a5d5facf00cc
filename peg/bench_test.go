package peg

import (
	"context"
	"fmt"
	"testing"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/position"
)

// BenchmarkSharedPEG values the shared one-tile pre-endgames under
// MAGPIE's rule on 1 and 2 threads: every position's MAGPIE move exactly
// (8 draws each; magpie-moves), every position solved in full (full: the
// exact best move; minutes), and p009 in full alone (MAGPIE's times are in
// ../shared/endgame/README.md). Compare threads within one run.
func BenchmarkSharedPEG(b *testing.B) {
	ps := loadPEG(b)
	lex := testgen.Tables(testlex.GADDAG(b, "NWL23"))
	type one struct {
		pos *position.Position
		m   move.Move
	}
	var all []one
	var p009 *position.Position
	for _, p := range ps {
		pos, err := position.ParseCGP(p.ID, p.CGP)
		if err != nil {
			b.Fatal(err)
		}
		m, err := move.Parse(p.Best.Move, &pos.Board)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, one{pos, m})
		if p.ID == "p009" {
			p009 = pos
		}
	}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("magpie-moves/threads=%d", threads), func(b *testing.B) {
			for range b.N {
				for _, o := range all {
					if _, err := Solve(context.Background(), lex, o.pos, Options{ScorelessTurns: 2, Threads: threads, Only: []move.Move{o.m}}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		// Every position solved in full (every candidate, Top 1): the
		// exact answer, each position's seconds reported beside the total.
		b.Run(fmt.Sprintf("full/threads=%d", threads), func(b *testing.B) {
			for range b.N {
				total := 0.0
				for i, o := range all {
					res, err := Solve(context.Background(), lex, o.pos, Options{ScorelessTurns: 2, Threads: threads, Top: 1})
					if err != nil {
						b.Fatal(err)
					}
					secs := res.Elapsed.Seconds()
					total += secs
					b.ReportMetric(secs, ps[i].ID+"-s")
					b.Logf("%s: %s %d-%d-%d, mean %.3f, %d moves, %d endgames, %.1f s", ps[i].ID, res.Candidates[0].Notation,
						res.Candidates[0].Wins, res.Candidates[0].Ties, res.Candidates[0].Losses, res.Candidates[0].MeanSpread, res.Moves, res.Endgames, secs)
				}
				b.ReportMetric(total, "total-s")
			}
		})
		b.Run(fmt.Sprintf("p009/threads=%d", threads), func(b *testing.B) {
			for range b.N {
				if _, err := Solve(context.Background(), lex, p009, Options{ScorelessTurns: 2, Threads: threads, Top: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
