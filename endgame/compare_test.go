package endgame

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// smallEndgame is a random endgame for the comparison with the plain
// minimax, with the rule it is solved under.
type smallEndgame struct {
	name string
	st   state
	n    int // scoreless turns that end the game
}

// bagEmptyPositions plays greedy self-play games (each side plays its
// highest-scoring move) until the bag is empty and returns the board and
// racks there, the player to move first.
func bagEmptyPositions(lex *movegen.Tables, games int, seed uint64) []state {
	g := newGenerator(lex)
	var out []state
	for i := 0; i < games; i++ {
		bag := rules.NewBag(seed + uint64(i))
		var board rules.Board
		var racks [2]rules.Rack
		bag.DrawInto(&racks[0], rules.RackSize)
		bag.DrawInto(&racks[1], rules.RackSize)
		g.SetBoard(&board)
		side, passes := 0, 0
		for bag.Len() > 0 && passes < 2 {
			m, ok := g.Best(&racks[side], bag.Len(), movegen.Options{})
			if !ok || m.Kind != move.Play {
				passes++
				side = 1 - side
				continue
			}
			passes = 0
			racks[side].Sub(m.Used())
			board.Apply(m.PlacedView())
			g.Apply(&m)
			bag.DrawInto(&racks[side], rules.RackSize-racks[side].Count())
			side = 1 - side
		}
		if bag.Len() == 0 && racks[0].Count() > 0 && racks[1].Count() > 0 {
			out = append(out, state{board: board, racks: [2]rules.Rack{racks[side], racks[1-side]}})
		}
	}
	return out
}

// shrink plays random moves from a bag-empty position until both racks hold
// at most maxTiles (and at least one) tile: real boards, small racks. ok is
// false when the game ended first.
func shrink(g *movegen.Generator, st state, maxTiles [2]int, rng *rand.Rand) (state, bool) {
	g.SetBoard(&st.board)
	var all movegen.AllMoves
	for st.racks[0].Count() > maxTiles[0] || st.racks[1].Count() > maxTiles[1] {
		all.Reset()
		g.GeneratePlays(&st.racks[0], &all)
		if len(all.Moves) == 0 {
			return st, false
		}
		m := all.Moves[rng.IntN(len(all.Moves))]
		if int(m.NumTiles) == st.racks[0].Count() {
			return st, false
		}
		st.racks[0].Sub(m.Used())
		st.board.Apply(m.PlacedView())
		g.Apply(&m)
		st.racks[0], st.racks[1] = st.racks[1], st.racks[0]
		maxTiles[0], maxTiles[1] = maxTiles[1], maxTiles[0]
	}
	return st, true
}

// randomEndgames makes count small endgames on lex: racks of 1 to 4 tiles
// (most totals small enough for the plain minimax), under the two-turn and
// the six-turn rule, with a random starting count of scoreless turns.
func randomEndgames(lex *movegen.Tables, count int, seed uint64) []smallEndgame {
	rng := rand.New(rand.NewPCG(seed, 0xe4d))
	g := newGenerator(lex)
	var out []smallEndgame
	for batch := uint64(0); len(out) < count; batch++ {
		for _, st := range bagEmptyPositions(lex, 20, seed*1000+batch*20) {
			for k := 0; k < 4 && len(out) < count; k++ {
				// Racks of 1 to 4 tiles, at most 5 or 6 in all under the two-turn
				// rule and 4 under the six-turn one, whose passes make the
				// trees far bigger: the plain minimax's tree grows fast.
				n, most := 2, 5+rng.IntN(2)
				if rng.IntN(4) == 0 {
					n, most = 6, 4
				}
				limits := [2]int{1 + rng.IntN(4), 1 + rng.IntN(4)}
				for limits[0]+limits[1] > most {
					limits = [2]int{1 + rng.IntN(4), 1 + rng.IntN(4)}
				}
				small, ok := shrink(g, st, limits, rng)
				if !ok {
					continue
				}
				small.scoreless = rng.IntN(n)
				out = append(out, smallEndgame{
					name: fmt.Sprintf("%s-%d %s/%s n=%d z=%d", lex.Lexicon().Header().Name, len(out), small.racks[0], small.racks[1], n, small.scoreless),
					st:   small, n: n,
				})
			}
		}
	}
	return out
}

// minimaxNodeLimit bounds the plain minimax per position: a bigger tree is
// skipped (and counted), to keep the test within its time.
const minimaxNodeLimit = 20_000

// withMinimax is an endgame and its value by the plain minimax.
type withMinimax struct {
	smallEndgame
	want int
}

// minimaxValues values each endgame by the plain minimax, leaving out those
// whose tree is over the limit.
func minimaxValues(lex *movegen.Tables, games []smallEndgame) (out []withMinimax, skipped int) {
	newGen := func() *movegen.Generator { return newGenerator(lex) }
	for _, e := range games {
		want, _, ok := minimaxValue(newGen, e.st, e.n, minimaxNodeLimit)
		if !ok {
			skipped++
			continue
		}
		out = append(out, withMinimax{e, want})
	}
	return out, skipped
}

// disagreements solves each endgame and lists where the solver's value is
// not the minimax's (or not proven).
func disagreements(t *testing.T, lex *movegen.Tables, games []withMinimax, opts Options) []string {
	t.Helper()
	var bad []string
	for _, e := range games {
		res := solveSmall(t, lex, e, opts)
		if !res.Proven || res.Value != e.want {
			bad = append(bad, fmt.Sprintf("%s: solver %d (proven %v, %v), minimax %d", e.name, res.Value, res.Proven, pvString(res.PV), e.want))
			continue
		}
		checkPV(t, res)
	}
	return bad
}

// solveSmall solves e with opts under e's rule of scoreless turns.
func solveSmall(t *testing.T, lex *movegen.Tables, e withMinimax, opts Options) *Result {
	t.Helper()
	opts.ScorelessTurns = e.n
	opts, err := opts.normalize()
	if err != nil {
		t.Fatal(err)
	}
	res, err := solve(context.Background(), lex, e.st, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestAgainstMinimax compares the solver with the plain minimax on random
// small endgames from self-play boards, in both lexica (NWL23 and CSW24;
// SOWPODS without the shared lists): every one on one
// thread, every third on two.
func TestAgainstMinimax(t *testing.T) {
	perLex := 280
	if testing.Short() {
		perLex = 80
	}
	total := 0
	for _, name := range testlex.Names() {
		t.Run(name, func(t *testing.T) {
			lex := testgen.Tables(testlex.GADDAG(t, name))
			start := time.Now()
			games, skipped := minimaxValues(lex, randomEndgames(lex, perLex, 25))
			t.Logf("%s: %d endgames valued by the plain minimax, %d skipped (tree over %d nodes), in %v",
				name, len(games), skipped, minimaxNodeLimit, time.Since(start))
			if len(games) < perLex*7/8 {
				t.Errorf("only %d of %d endgames compared", len(games), perLex)
			}
			total += len(games)
			var third []withMinimax
			for i := 0; i < len(games); i += 3 {
				third = append(third, games[i])
			}
			shared := NewTable(4)
			defer shared.Release()
			for _, c := range []struct {
				threads int
				games   []withMinimax
				flat    bool   // Options.NoDeepening
				table   *Table // one table for every solve, which reuses the searchers (on the whole lexicon)
			}{{1, games, false, nil}, {2, third, false, nil}, {1, games, true, nil}, {2, third, true, nil}, {1, games, true, shared}, {2, third, false, shared}} {
				start := time.Now()
				bad := disagreements(t, lex, c.games, Options{TTMB: 4, Threads: c.threads, NoDeepening: c.flat, Table: c.table, NoPrune: c.table != nil})
				t.Logf("%s, %d thread(s), no deepening %v, shared table %v: %d endgames, %d disagree, in %v", name, c.threads, c.flat, c.table != nil, len(c.games), len(bad), time.Since(start))
				for _, b := range bad {
					t.Error(b)
				}
			}
		})
	}
	t.Logf("%d endgames compared in all", total)
}

// TestPlantedBugs shows that the comparison with the plain minimax catches a
// wrong rule: with each bug planted in the solver, some endgames disagree.
func TestPlantedBugs(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	games, _ := minimaxValues(lex, randomEndgames(lex, 120, 7))
	for _, c := range []struct {
		name string
		bug  int
	}{
		{"out bonus once", bugOutOnce},
		{"scoreless turn late", bugScoreless},
	} {
		t.Run(c.name, func(t *testing.T) {
			plantedBug = c.bug
			defer func() { plantedBug = bugNone }()
			bad := disagreements(t, lex, games, Options{TTMB: 4})
			t.Logf("%s: %d of %d endgames disagree", c.name, len(bad), len(games))
			if len(bad) == 0 {
				t.Errorf("bug %q planted, but the solver agrees with the minimax on all %d endgames", c.name, len(games))
			}
		})
	}
}

// TestTableGrowth: a solve of its own table begins with a small one and
// moves to the full size between iterations (shared.grow). With the move
// made after a few dozen nodes, the small endgames still agree with the
// plain minimax, on one thread and on two; a shared position that searches
// more nodes than the threshold moves, and one that searches a few hundred
// does not.
func TestTableGrowth(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	games, _ := minimaxValues(lex, randomEndgames(lex, 150, 61))
	testGrowAt = 1
	defer func() { testGrowAt = 0 }()
	grown := 0
	for _, threads := range []int{1, 2} {
		for _, e := range games {
			res := solveSmall(t, lex, e, Options{TTMB: 2 * firstTTMB, Threads: threads})
			if !res.Proven || res.Value != e.want {
				t.Errorf("%s, %d threads: solver %d (proven %v, grown %v), minimax %d", e.name, threads, res.Value, res.Proven, res.grown, e.want)
			}
			if res.grown {
				grown++
			}
		}
	}
	t.Logf("%d of %d solves moved to the bigger table", grown, 2*len(games))
	if grown < len(games)/2 {
		t.Errorf("only %d of %d solves moved to the bigger table", grown, 2*len(games))
	}
	// A shared Table: the solves after its move use the big table, the
	// values unchanged, and both tables go back to the pool.
	testGrowAt = 2000
	shared := NewTable(2 * firstTTMB)
	small := shared.cur.Load()
	moved := -1
	for i, e := range games {
		res := solveSmall(t, lex, e, Options{Threads: 1 + i%2, Table: shared, NoDeepening: i%3 == 0})
		if !res.Proven || res.Value != e.want {
			t.Errorf("%s, shared table: solver %d (proven %v), minimax %d", e.name, res.Value, res.Proven, e.want)
		}
		if moved < 0 && shared.grown() {
			moved = i
		}
	}
	big := shared.cur.Load()
	t.Logf("shared table: moved to %d MB after %d of %d solves", len(big.slots)*entryBytes>>20, moved+1, len(games))
	if moved < 0 || moved > len(games)/2 || len(big.slots) != int(tableSlots(2*firstTTMB)) || len(small.slots) != int(tableSlots(firstTTMB)) {
		t.Errorf("shared table: moved after solve %d to %d slots (small %d)", moved, len(big.slots), len(small.slots))
	}
	shared.Release()
	for _, mb := range []int{firstTTMB, 2 * firstTTMB} {
		tt := getTable(mb)
		if tt != small && tt != big {
			t.Errorf("a released table of %d MB was not reused", mb)
		}
		putTable(tt)
	}
	// The shared positions take at most 216,453 nodes (e040), fewer than
	// the small table's million slots: here the move comes after 20,000.
	testGrowAt = 20_000
	for _, c := range []struct {
		id   string
		grow bool
	}{{"e003", false}, {"e004", true}, {"e040", true}} {
		p, pos := sharedByID(t, c.id)
		res, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: 2, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Proven || res.Value != p.Value || res.grown != c.grow {
			t.Errorf("%s: value %d (proven %v), want %d; %d nodes, grown %v, want %v", c.id, res.Value, res.Proven, p.Value, res.Nodes, res.grown, c.grow)
		}
	}
}
