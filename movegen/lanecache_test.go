package movegen_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// TestLaneCacheFollowsBoard checks the generator's cache of loaded lanes
// the way a search uses it: a child generator takes its parent's board
// (CopyBoard), plays one of the parent's moves on it, and lists the next
// rack's plays, sibling after sibling; its parent moves on through a game.
// Every list must equal a fresh generator's on the same board: a lane whose
// squares changed without a new stamp would list stale plays.
func TestLaneCacheFollowsBoard(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 3
	}
	for _, name := range testlex.Names() {
		t.Run(name, func(t *testing.T) {
			tables := movegen.NewTables(testlex.GADDAG(t, name))
			parent, child := movegen.New(tables), movegen.New(tables)
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			checked := 0
			for game := 0; game < games; game++ {
				bag := rules.NewBag(uint64(100 + game))
				var board rules.Board
				var racks [2]rules.Rack
				bag.DrawInto(&racks[0], rules.RackSize)
				bag.DrawInto(&racks[1], rules.RackSize)
				parent.SetBoard(&board)
				for side, passes := 0, 0; racks[side].Count() > 0 && passes < 2; side = 1 - side {
					var all movegen.AllMoves
					parent.GeneratePlays(&racks[side], &all)
					if len(all.Moves) == 0 {
						passes++
						continue
					}
					passes = 0
					// A few siblings: the best-scoring play and random ones.
					slices.SortFunc(all.Moves, func(a, b move.Move) int { return int(b.Score - a.Score) })
					siblings := []move.Move{all.Moves[0]}
					for k := 0; k < 3; k++ {
						siblings = append(siblings, all.Moves[rng.IntN(len(all.Moves))])
					}
					for _, m := range siblings {
						child.CopyBoard(parent)
						child.Apply(&m)
						after := board
						after.Apply(m.PlacedView())
						fresh := movegen.New(tables)
						fresh.SetBoard(&after)
						next := &racks[1-side]
						got, want := newPlayCollector(), newPlayCollector()
						child.GeneratePlays(next, got)
						fresh.GeneratePlays(next, want)
						if d := diffPlays(got.plays, want.plays); d != "" {
							t.Fatalf("game %d, after %s: the child's plays differ from a fresh generator's: %s", game, m.Notation(), d)
						}
						checked++
					}
					m := siblings[0]
					racks[side].Sub(m.Used())
					board.Apply(m.PlacedView())
					parent.Apply(&m)
					bag.DrawInto(&racks[side], rules.RackSize-racks[side].Count())
				}
			}
			t.Logf("%s: %d boards checked", name, checked)
		})
	}
}
