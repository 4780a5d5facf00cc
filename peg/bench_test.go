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
// (8 draws each; magpie-moves), and p009 solved in full (its MAGPIE time
// is in ../shared/endgame/README.md). Compare threads within one run.
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
		b.Run(fmt.Sprintf("p009/threads=%d", threads), func(b *testing.B) {
			for range b.N {
				if _, err := Solve(context.Background(), lex, p009, Options{ScorelessTurns: 2, Threads: threads, Top: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
