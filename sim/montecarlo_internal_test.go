package sim

import (
	"testing"

	"scrabble/eval"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/movegen"
	"scrabble/rules"
)

// TestRolloutKeepsTheTiles plays rollouts from positions of a real game,
// from the opening to the endgame, and checks after each one that no tile
// was made or lost: the board, both racks and the bag hold the full set.
func TestRolloutKeepsTheTiles(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	rec := equityGame(t, lex, leaves, 5)
	s := NewSimulator(testgen.Tables(lex))
	w := &simWorker{gen: movegen.New(testgen.Tables(lex))}
	pos, bags, _ := turnPositions(rec)
	for ti := range pos {
		if ti%3 != 0 && bags[ti] > 7 {
			continue // every third turn, and every one near the end
		}
		opts := Options{Leaves: leaves, Candidates: 6, Iterations: 2, Plies: 3}
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
				if total != rules.Distribution() {
					t.Fatalf("turn %d, candidate %s, iteration %d: tiles %v, want the full set", ti+1, r.cands[c].Notation(), i, total)
				}
			}
		}
	}
}

// TestRolloutsMatchFreshSearches: rollouts whose searches reuse what the
// searches before them worked out (a rack's set-up, kept lanes; see
// movegen.Options.Repeat) give exactly the values of rollouts whose every
// search starts afresh, on positions of two real games from the opening
// to the endgame, iteration after iteration.
func TestRolloutsMatchFreshSearches(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSimulator(testgen.Tables(lex))
	reuse := &simWorker{gen: movegen.New(testgen.Tables(lex))}
	fresh := &simWorker{gen: movegen.New(testgen.Tables(lex)), fresh: true}
	rollouts := 0
	for _, seed := range []uint64{5, 6} {
		pos, _, _ := turnPositions(equityGame(t, lex, leaves, seed))
		for ti := range pos {
			if ti%2 != 0 {
				continue
			}
			opts := Options{Leaves: leaves, Candidates: 12, Iterations: 6, Plies: 2}
			r, _, err := s.prepare(&pos[ti], &opts)
			if err != nil {
				t.Fatalf("game %d, turn %d: %v", seed, ti+1, err)
			}
			reuse.reset(r)
			fresh.reset(r)
			for i := range opts.Iterations {
				reuse.iterate(r, i)
				fresh.iterate(r, i)
				for c := range r.cands {
					if reuse.vals[c] != fresh.vals[c] {
						t.Fatalf("game %d, turn %d, iteration %d, candidate %s: value %d reusing searches, %d searching afresh",
							seed, ti+1, i, r.cands[c].Notation(), reuse.vals[c], fresh.vals[c])
					}
				}
				rollouts += len(r.order)
			}
			if reuse.acc.gens != fresh.acc.gens {
				t.Fatalf("game %d, turn %d: %d searches reusing, %d afresh", seed, ti+1, reuse.acc.gens, fresh.acc.gens)
			}
			for c := range r.cands {
				if reuse.acc.win[c] != fresh.acc.win[c] {
					t.Fatalf("game %d, turn %d, candidate %s: wins %d reusing, %d afresh", seed, ti+1, r.cands[c].Notation(), reuse.acc.win[c], fresh.acc.win[c])
				}
			}
		}
	}
	if rollouts < 1000 {
		t.Fatalf("only %d rollouts compared", rollouts)
	}
	t.Logf("%d rollouts agree", rollouts)
}
