package sim

import (
	"testing"

	"scrabble/eval"
	"scrabble/internal/testlex"
	"scrabble/movegen"
	"scrabble/rules"
)

// TestRolloutKeepsTheTiles plays rollouts from positions of a real game,
// from the opening to the endgame, and checks after each one that no tile
// was made or lost: the board, both racks and the bag hold the full set.
func TestRolloutKeepsTheTiles(t *testing.T) {
	lex := testlex.GADDAG(t, "NWL23")
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	rec := equityGame(t, lex, leaves, 5)
	s := NewSimulator(lex)
	w := &simWorker{gen: movegen.New(lex)}
	pos, bags, _ := turnPositions(rec)
	for ti := range pos {
		if ti%3 != 0 && bags[ti] > 7 {
			continue // every third turn, and every one near the end
		}
		opts := SimOptions{Leaves: leaves, Candidates: 6, Iterations: 2, Plies: 3}
		r, _, err := s.prepare(&pos[ti], &opts)
		if err != nil {
			t.Fatalf("turn %d: %v", ti+1, err)
		}
		w.reset(r)
		for i := range 2 {
			w.iterate(r, i)
			for c := range r.cands {
				w.rollout(r, c, iterSeed(1, i))
				total := w.gen.Board().TileCounts()
				for l, n := range w.unplaced {
					total[l] += n
				}
				for _, rk := range w.racks {
					for l, n := range rk {
						total[l] += n
					}
				}
				for _, l := range w.bag[w.top:] {
					total.Add(l)
				}
				if total != rules.Distribution {
					t.Fatalf("turn %d, candidate %s, iteration %d: tiles %v, want the full set", ti+1, r.cands[c].Notation(), i, total)
				}
			}
		}
	}
}
