package endgame

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"scrabble/move"
	"scrabble/rules"
)

// TestSortByKey: sortByKey orders moves as a stable sort by key, best first,
// on lists with negative, tied and extreme keys, reusing its room from one
// list to the next.
func TestSortByKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var s searcher
	for trial := range 500 {
		n := rng.IntN(300)
		moves := make([]move.Move, n)
		for i := range moves {
			var e int32
			switch rng.IntN(4) {
			case 0:
				e = int32(rng.IntN(20)) - 10 // many ties around zero
			case 1:
				e = []int32{math.MinInt32, math.MaxInt32, -1, 0}[rng.IntN(4)]
			default:
				e = rng.Int32() - math.MaxInt32/2
			}
			moves[i].Equity = rules.Equity(e)
			moves[i].Row = int8(i % 15) // tells equal keys apart
			moves[i].Col = int8(i / 15 % 15)
			moves[i].Len = int8(i / 225)
		}
		want := slices.Clone(moves)
		slices.SortStableFunc(want, func(a, b move.Move) int { return cmp.Compare(b.Equity, a.Equity) })
		s.sortByKey(moves)
		if !slices.Equal(moves, want) {
			t.Fatalf("trial %d (%d moves): sortByKey differs from a stable sort by key", trial, n)
		}
	}
}
