package endgame

import (
	"testing"

	"scrabble/move"
)

// TestSortRoot checks the order of the first moves after an iteration: the
// move that set the value first, whatever the others' values say, then the
// others by value, ties in their old order.
func TestSortRoot(t *testing.T) {
	for _, c := range []struct {
		name   string
		values []int // the moves' values, in their order before the sort
		best   int   // the index of the move that set the value
		want   []int // the old indexes, in the new order
	}{
		{"best already first", []int{10, 3, 7}, 0, []int{0, 2, 1}},
		{"best later", []int{3, 10, 7}, 1, []int{1, 2, 0}},
		// A deferred move searched after the best one fails low with the
		// null window at the best value, and its bound equals it.
		{"a bound equal to the value, before the best", []int{2, 10, 5, 10}, 3, []int{3, 1, 2, 0}},
		// After a cut the moves not searched keep an older iteration's
		// values, which may be higher.
		{"an older higher value", []int{4, 12, 30, 20}, 1, []int{1, 2, 3, 0}},
		{"no best (every move aborted)", []int{1, 3, 2}, -1, []int{1, 2, 0}},
		{"one move", []int{5}, 0, []int{0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			moves := make([]rootMove, len(c.values))
			for i, v := range c.values {
				// The move's column names its old index.
				moves[i] = rootMove{m: move.Move{Kind: move.Play, Col: int8(i)}, value: v}
			}
			sortRoot(moves, c.best)
			for i, w := range c.want {
				if got := int(moves[i].m.Col); got != w {
					t.Fatalf("order %v, want %v", cols(moves), c.want)
				}
			}
		})
	}
}

func cols(moves []rootMove) []int {
	out := make([]int, len(moves))
	for i := range moves {
		out[i] = int(moves[i].m.Col)
	}
	return out
}
