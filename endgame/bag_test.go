package endgame

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"

	"scrabble/rules"
)

// withBag turns small endgames into games with a known bag: one to three
// tiles of the racks go to the bag, in random order (the racks are short,
// which the rules of the search do not mind).
func withBag(games []smallEndgame, seed uint64) []smallEndgame {
	rng := rand.New(rand.NewPCG(seed, 0xba9))
	var out []smallEndgame
	for _, e := range games {
		st := e.st
		k := 1 + rng.IntN(3)
		var bag []rules.Letter
		for i := 0; i < k; i++ {
			side := rng.IntN(2)
			if st.racks[side].Count() <= 1 {
				side = 1 - side
			}
			if st.racks[side].Count() <= 1 {
				break
			}
			tiles := st.racks[side].Tiles()
			t := tiles[rng.IntN(len(tiles))]
			st.racks[side].Remove(t)
			bag = append(bag, t)
		}
		if len(bag) == 0 {
			continue
		}
		st.bag = bag
		e.st = st
		e.name = fmt.Sprintf("%s bag %v", e.name, rules.WordString(bag))
		out = append(out, e)
	}
	return out
}

// TestKnownBagAgainstMinimax compares solves with a known bag
// (Options.Bag) with the plain minimax drawing from the same bag.
func TestKnownBagAgainstMinimax(t *testing.T) {
	count := 240
	if testing.Short() {
		count = 60
	}
	lex := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	games, skipped := minimaxValues(lex, withBag(randomEndgames(lex, count, 31), 31))
	t.Logf("%d games with a known bag valued by the plain minimax, %d skipped", len(games), skipped)
	if len(games) < count/2 {
		t.Fatalf("only %d of %d games compared", len(games), count)
	}
	for _, threads := range []int{1, 2} {
		for _, flat := range []bool{false, true} {
			for _, b := range disagreements(t, lex, games, Options{TTMB: 4, Threads: threads, NoDeepening: flat}) {
				t.Errorf("%d thread(s), no deepening %v: %s", threads, flat, b)
			}
		}
	}
	t.Run("planted bug", func(t *testing.T) {
		plantedBug = bugDrawOne
		defer func() { plantedBug = bugNone }()
		bad := disagreements(t, lex, games, Options{TTMB: 4})
		t.Logf("a play drawing one tile: %d of %d disagree", len(bad), len(games))
		if len(bad) == 0 {
			t.Error("bug planted (a play draws one tile), but the solver agrees with the minimax everywhere")
		}
	})
}

// TestWindow checks that a windowed solve puts the value on the right side
// of the window, and is exact inside it, for thresholds around the true
// value.
func TestWindow(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	games, _ := minimaxValues(lex, randomEndgames(lex, 120, 41))
	rng := rand.New(rand.NewPCG(41, 0x3d))
	checked := 0
	for i, e := range games {
		for _, th := range []int{e.want - 1, e.want, e.want + 1, e.want + rng.IntN(41) - 20} {
			// Every other game without iterative deepening, as the
			// pre-endgame solver asks.
			opts, err := (Options{TTMB: 4, ScorelessTurns: e.n, Window: Window{th - 1, th + 1}, ValueOnly: true, NoDeepening: i%2 == 1}).normalize()
			if err != nil {
				t.Fatal(err)
			}
			res, err := solve(context.Background(), lex, e.st, opts)
			if err != nil {
				t.Fatal(err)
			}
			ok := res.Proven
			switch {
			case e.want < th:
				ok = ok && res.Value <= th-1 && res.Value >= e.want
			case e.want > th:
				ok = ok && res.Value >= th+1 && res.Value <= e.want
			default:
				ok = ok && res.Value == th
			}
			if !ok {
				t.Errorf("%s: window (%d, %d): value %d (proven %v), true value %d", e.name, th-1, th+1, res.Value, res.Proven, e.want)
			}
			checked++
		}
	}
	t.Logf("%d windowed solves checked", checked)
}
