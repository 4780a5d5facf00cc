package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"scrabble/eval"
	"scrabble/gaddag"
	"scrabble/game"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// untimedSim drops the run-dependent fields of a result.
func untimedSim(r *Result) Result {
	c := *r
	c.Elapsed = 0
	return c
}

// TestSimulateDeterministic: the same seed and budget give the same table
// on any thread count, with or without the stopping rule, for both
// samplings and both rankings (every sum is an integer, and the pairwise
// sums are added in one order); another seed gives another table.
func TestSimulateDeterministic(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	pos := midgame(t)
	run := func(threads int, conf float64, seed uint64, sampling Sampling, rank Rank) Result {
		t.Helper()
		res, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), pos, Options{
			Leaves: leaves, WinPct: eval.DefaultWinPct(), Candidates: 6, Iterations: 48, Confidence: conf,
			Threads: threads, Seed: seed, Sampling: sampling, Rank: rank})
		if err != nil {
			t.Fatal(err)
		}
		return untimedSim(res)
	}
	type tc struct {
		name string
		a, b Result
		same bool
	}
	cases := []tc{{"another seed", run(1, 0, 7, SamplingPaired, RankWin), run(1, 0, 8, SamplingPaired, RankWin), false}}
	for _, sampling := range []Sampling{SamplingPaired, SamplingTopTwo} {
		for _, rank := range []Rank{RankWin, RankEquity} {
			for _, conf := range []float64{0, 0.95} {
				name := fmt.Sprintf("%v, %v, confidence %g", sampling, rank, conf)
				one := run(1, conf, 7, sampling, rank)
				cases = append(cases, tc{name + ", same seed", one, run(1, conf, 7, sampling, rank), true},
					tc{name + ", 1 and 2 threads", one, run(2, conf, 7, sampling, rank), true},
					tc{name + ", 1 and 3 threads", one, run(3, conf, 7, sampling, rank), true})
			}
		}
	}
	for _, c := range cases {
		if got := reflect.DeepEqual(c.a, c.b); got != c.same {
			t.Errorf("%s: identical = %v, want %v\n%+v\n%+v", c.name, got, c.same, c.a.Candidates[:2], c.b.Candidates[:2])
		}
	}
}

func TestSimulateCandidates(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	pos := midgame(t)
	res, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), pos, Options{
		Leaves: leaves, Candidates: 5, Iterations: 16, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// 5 plays, the best 3 exchanges (37 in the bag) and the pass.
	kinds := map[move.Kind]int{}
	var exchanges []move.Move
	for _, c := range res.Candidates {
		kinds[c.Move.Kind]++
		if c.Move.Kind == move.Exchange {
			exchanges = append(exchanges, c.Move)
		}
		if c.Iterations != 16 || c.Pruned || c.Added {
			t.Errorf("%s: %d iterations, pruned %v, added %v; want all 16 without a stopping rule, none added", c.Move.Notation(), c.Iterations, c.Pruned, c.Added)
		}
		if c.StdErr <= 0 {
			t.Errorf("%s: standard error %g", c.Move.Notation(), c.StdErr)
		}
	}
	if kinds[move.Play] != 5 || kinds[move.Exchange] != CandidateExchanges || kinds[move.Pass] != 1 {
		t.Errorf("candidates by kind %v, want 5 plays, %d exchanges, 1 pass", kinds, CandidateExchanges)
	}
	// The exchanges are the best by static equity: those of the full list.
	want := topByEquity(t, lex, leaves, pos, move.Exchange, CandidateExchanges)
	if !sameMoveSets(exchanges, want) {
		t.Errorf("exchanges simulated %v, want the best by static equity %v", exchanges, want)
	}
	if n := int64(len(res.Candidates)); res.Rollouts != n*16 || res.Generations != 2*n*16 || res.Stopped != "iterations" || res.Endgame {
		t.Errorf("rollouts %d, generations %d, stopped %q, endgame %v; want %d, %d, iterations, false",
			res.Rollouts, res.Generations, res.Stopped, res.Endgame, n*16, 2*n*16)
	}
	for i := 1; i < len(res.Candidates); i++ {
		if res.Candidates[i].Mean > res.Candidates[i-1].Mean {
			t.Errorf("candidate %d (%.2f) ranks below one with a lower mean (%.2f)", i+1, res.Candidates[i].Mean, res.Candidates[i-1].Mean)
		}
	}
}

// turnPositions replays a game and returns the position before each turn
// from the mover's side, with the bag's size and the opponent's rack.
func turnPositions(rec *game.Record) (pos []Position, bags []int, opps []rules.Rack) {
	var board rules.Board
	racks := rec.Racks
	var totals [rules.MaxPlayers]int
	onBoard := 0
	zero := 0
	for _, t := range rec.Turns {
		p := t.Player
		bag := rules.TileCount() - onBoard - racks[0].Count() - racks[1].Count()
		pos = append(pos, Position{Board: board, Rack: racks[p], OpponentTiles: racks[1-p].Count(),
			Scores: [rules.MaxPlayers]int{totals[p], totals[1-p]}, Scoreless: zero})
		bags = append(bags, bag)
		opps = append(opps, racks[1-p])
		if t.Move.Kind == move.Play {
			board.Apply(t.Move.Placed())
			onBoard += int(t.Move.NumTiles)
		}
		rk := racks[p]
		if t.Move.Kind != move.Pass {
			rk.Sub(t.Move.Used())
		}
		for l, n := range t.Drawn {
			rk[l] += n
		}
		racks[p] = rk
		totals = t.Totals
		if t.Score > 0 {
			zero = 0
		} else {
			zero++
		}
	}
	return pos, bags, opps
}

func equityGame(t *testing.T, lex *gaddag.GADDAG, leaves *eval.LeaveTable, seed uint64) *game.Record {
	t.Helper()
	ps := [2]game.Player{game.NewEquityPlayer(leaves, eval.Terms{}), game.NewEquityPlayer(leaves, eval.Terms{})}
	rec, err := game.Play(context.Background(), testgen.Tables(lex), ps, seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestSimulateEndgame: with the bag empty nothing is random; one iteration
// plays every candidate to the end of the game, whatever the seed or the
// plies, and its value is a whole spread change.
func TestSimulateEndgame(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for seed := uint64(1); found < 2 && seed < 20; seed++ {
		rec := equityGame(t, lex, leaves, seed)
		pos, bags, _ := turnPositions(rec)
		for i := range pos {
			if bags[i] != 0 || pos[i].Rack.Count() == 0 {
				continue
			}
			found++
			s := NewSimulator(testgen.Tables(lex))
			var first *Result
			for _, o := range []Options{
				{Leaves: leaves, Iterations: 50, Seed: 1},
				{Leaves: leaves, Iterations: 50, Seed: 2, Plies: 1, Confidence: 0.99, Threads: 2},
			} {
				res, err := s.Simulate(context.Background(), &pos[i], o)
				if err != nil {
					t.Fatal(err)
				}
				if !res.Endgame || res.Stopped != "endgame" && res.Stopped != "single" || res.Iterations > 1 {
					t.Fatalf("game %d turn %d: endgame %v, stopped %q, %d iterations", seed, i+1, res.Endgame, res.Stopped, res.Iterations)
				}
				for _, c := range res.Candidates {
					if c.StdErr != 0 || c.Mean*1000 != math.Round(c.Mean*1000) || math.Mod(c.Mean, 1) != 0 {
						t.Errorf("%s: mean %g ± %g, want a whole number of points, exact", c.Move.Notation(), c.Mean, c.StdErr)
					}
					if c.WinProb != 0 && c.WinProb != 0.5 && c.WinProb != 1 {
						t.Errorf("%s: win %g, want 0, 0.5 or 1 (the game is played out)", c.Move.Notation(), c.WinProb)
					}
				}
				untimed := untimedSim(res)
				untimed.Rollouts, untimed.Generations, untimed.Stopped = 0, 0, ""
				if first == nil {
					first = &untimed
				} else if !reflect.DeepEqual(first.Candidates, untimed.Candidates) {
					t.Errorf("game %d turn %d: another seed or plies changed the endgame's table", seed, i+1)
				}
			}
			break
		}
	}
	if found == 0 {
		t.Fatal("no endgame position found")
	}
}

// TestSimulateOpponentRack: a known opponent rack is the one every
// iteration uses; an unknown one is drawn from the unseen tiles, and
// differs between iterations.
func TestSimulateOpponentRack(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	pos := midgame(t)
	unseen, err := rules.Unseen(&pos.Board, pos.Rack)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSimulator(testgen.Tables(lex))
	known := *pos
	known.Opponent, _ = rules.ParseRack("EEIORTU")
	for _, c := range []struct {
		name string
		pos  *Position
	}{{"unknown", pos}, {"known", &known}} {
		opts := Options{Iterations: 1}
		r, bag, err := s.prepare(c.pos, &opts)
		if err != nil {
			t.Fatal(err)
		}
		if bag != unseen.Count()-7 {
			t.Errorf("%s: bag %d, want %d", c.name, bag, unseen.Count()-7)
		}
		w := &simWorker{gen: movegen.New(testgen.Tables(lex))}
		w.reset(r)
		seen := map[rules.Rack]bool{}
		for i := range 20 {
			w.iterate(r, i)
			if w.opps[1].Count() != 7 || !unseen.Contains(w.opps[1]) {
				t.Fatalf("%s: iteration %d: opponent's rack %s", c.name, i, w.opps[1])
			}
			if c.pos.Opponent.Count() > 0 && w.opps[1] != c.pos.Opponent {
				t.Fatalf("%s: iteration %d: opponent's rack %s, want the known %s", c.name, i, w.opps[1], c.pos.Opponent)
			}
			seen[w.opps[1]] = true
			rest := unseen
			rest.Sub(w.opps[1])
			var bagTiles rules.Rack
			for _, l := range w.bagBase {
				bagTiles.Add(l)
			}
			if bagTiles != rest {
				t.Fatalf("%s: iteration %d: the bag holds %s, want the unseen tiles less the opponent's rack", c.name, i, bagTiles)
			}
		}
		if want := c.pos.Opponent.Count() == 0; (len(seen) > 10) != want {
			t.Errorf("%s: %d different opponent racks in 20 iterations", c.name, len(seen))
		}
	}
}

// TestSimulateStops: with a stopping rule, hopeless candidates are pruned
// early and the run ends once the leader is alone or the budget is spent.
func TestSimulateStops(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	pos := midgame(t)
	var progress []Progress
	res, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), pos, Options{
		Leaves: leaves, Candidates: 10, Iterations: 400, Confidence: 0.95, Seed: 3,
		Progress: func(p Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	lead := res.Candidates[0]
	if lead.Pruned || lead.Iterations != res.Iterations {
		t.Fatalf("the leader was pruned (%v) or played %d of %d iterations", lead.Pruned, lead.Iterations, res.Iterations)
	}
	pruned := 0
	for _, c := range res.Candidates[1:] {
		if c.Pruned {
			pruned++
			if c.Iterations > res.Iterations || c.Iterations < minPruneIterations {
				t.Errorf("%s pruned after %d iterations (the run did %d)", c.Move.Notation(), c.Iterations, res.Iterations)
			}
		}
	}
	if pruned < len(res.Candidates)/2 {
		t.Errorf("only %d of %d candidates pruned", pruned, len(res.Candidates))
	}
	if max := int64(len(res.Candidates) * res.Iterations); res.Rollouts >= max {
		t.Errorf("%d rollouts: pruning saved nothing (%d without it)", res.Rollouts, max)
	}
	if res.Stopped == "confident" && len(res.Candidates) > 1 && !res.Candidates[1].Pruned {
		t.Error("stopped as confident with a second candidate still in the race")
	}
	if len(progress) == 0 || progress[len(progress)-1].Iterations != res.Iterations || progress[len(progress)-1].Leader != lead.Move {
		t.Errorf("progress %+v does not end at the result (%d iterations, leader %s)", progress[len(progress)-1], res.Iterations, lead.Move.Notation())
	}

	// A time budget alone.
	budget := 150 * time.Millisecond
	res, err = NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), pos, Options{Leaves: leaves, Time: budget, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped != "time" || res.Elapsed < budget || res.Iterations == 0 {
		t.Errorf("time budget %v: stopped %q after %v and %d iterations", budget, res.Stopped, res.Elapsed, res.Iterations)
	}

	// Cancelled: the result so far, and the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = NewSimulator(testgen.Tables(lex)).Simulate(ctx, pos, Options{Leaves: leaves, Iterations: 100})
	if !errors.Is(err, context.Canceled) || res == nil || res.Stopped != "cancelled" {
		t.Errorf("cancelled: result %v, error %v", res, err)
	}
}

func TestSimulateErrors(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	pos := midgame(t)
	bad := func(f func(p *Position)) *Position {
		p := *pos
		f(&p)
		return &p
	}
	rack := func(s string) rules.Rack {
		r, err := rules.ParseRack(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	ok := Options{Iterations: 10}
	for _, c := range []struct {
		name string
		pos  *Position
		opts Options
		msg  string
	}{
		{"no budget", pos, Options{}, "no budget"},
		{"negative iterations", pos, Options{Iterations: -1}, "-1 iterations"},
		{"too many candidates", pos, Options{Iterations: 1, Candidates: MaxCandidates + 1}, "candidates"},
		{"plies", pos, Options{Iterations: 1, Plies: -2}, "plies"},
		{"confidence", pos, Options{Iterations: 1, Confidence: 1}, "confidence"},
		{"confidence NaN", pos, Options{Iterations: 1, Confidence: math.NaN()}, "confidence NaN"},
		{"confidence -Inf", pos, Options{Iterations: 1, Confidence: math.Inf(-1)}, "confidence -Inf"},
		{"threads", pos, Options{Iterations: 1, Threads: -1}, "threads"},
		{"empty rack", bad(func(p *Position) { p.Rack = rules.Rack{} }), ok, "0 tiles"},
		{"eight tiles", bad(func(p *Position) { p.Rack = rack("AEINRSTT") }), ok, "8 tiles"},
		{"rack off the set", bad(func(p *Position) { p.Rack = rack("ZZ") }), ok, "too many Zs"},
		{"opponent off the set", bad(func(p *Position) { p.Opponent = rack("QQ") }), ok, "does not fit the unseen tiles"},
		{"opponent tiles", bad(func(p *Position) { p.OpponentTiles = 9 }), ok, "holds 9 tiles"},
	} {
		_, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), c.pos, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.msg)
		}
	}
}

// TestSimPlayer plays games between the sim player on a tiny budget and the
// equity player: every move is legal (game.Play checks), and the same seed
// gives the same game.
func TestSimPlayer(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	play := func() *game.Record {
		sp, err := NewPlayer(Options{Leaves: leaves, Iterations: 6, Candidates: 4})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := game.Play(context.Background(), testgen.Tables(lex), [2]game.Player{sp, game.NewEquityPlayer(leaves, eval.Terms{})}, 11, 0)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	a, b := play(), play()
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave two different games")
	}
	if a.Players[0] != "sim" || a.End == 0 {
		t.Errorf("players %v, end %v", a.Players, a.End)
	}
	if _, err := NewPlayer(Options{Plies: -1}); err == nil {
		t.Error("a sim player with -1 plies: no error")
	}
}

// TestSimulateAllocations: the rollouts allocate nothing, so a run's
// allocations (setting up candidates and workers) do not grow with the
// iterations.
func TestSimulateAllocations(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	pos := midgame(t)
	s := NewSimulator(testgen.Tables(lex))
	allocs := func(iterations int) float64 {
		return testing.AllocsPerRun(2, func() {
			if _, err := s.Simulate(context.Background(), pos, Options{Leaves: leaves, Candidates: 4,
				Iterations: iterations, WinPct: eval.DefaultWinPct()}); err != nil {
				t.Fatal(err)
			}
		})
	}
	if few, many := allocs(8), allocs(72); many > few {
		t.Errorf("%v allocations for 8 iterations, %v for 72: the rollouts allocate", few, many)
	}
}

// TestSimulateExchangeFirst simulates a rack whose best static move is an
// exchange, so a non-play comes before the plays among the candidates (each
// play gets a board of its own; they once ran past the boards made).
func TestSimulateExchangeFirst(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	pos := midgame(t)
	pos.Rack, err = rules.ParseRack("IIIUUVV")
	if err != nil {
		t.Fatal(err)
	}
	unseen, err := rules.Unseen(&pos.Board, pos.Rack)
	if err != nil {
		t.Fatal(err)
	}
	bag := unseen.Count() - rules.RackSize
	g := movegen.New(testgen.Tables(lex))
	g.SetBoard(&pos.Board)
	g.SetLeaves(eval.Equity(leaves, bag, unseen))
	if best, _ := g.Best(&pos.Rack, bag, movegen.Options{Exchanges: true, Pass: true}); best.Kind != move.Exchange {
		t.Fatalf("the rack's best static move is %s, not an exchange: the test needs another rack", best.Notation())
	}
	res, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), pos, Options{
		Leaves: leaves, Candidates: 5, Iterations: 8, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	plays := 0
	for _, c := range res.Candidates {
		if c.Move.Kind == move.Play {
			plays++
		}
		if c.Iterations != 8 {
			t.Errorf("%s: %d iterations, want 8", c.Move.Notation(), c.Iterations)
		}
	}
	if want := 5 + CandidateExchanges + 1; plays != 5 || len(res.Candidates) != want {
		t.Errorf("%d candidates, %d plays; want %d and 5", len(res.Candidates), plays, want)
	}
}

// allByEquity lists every move of pos (exchanges and the pass included),
// valued as a static player values them, best first.
func allByEquity(t *testing.T, lex *gaddag.GADDAG, leaves movegen.LeaveValuer, pos *Position) []move.Move {
	t.Helper()
	unseen, err := rules.Unseen(&pos.Board, pos.Rack)
	if err != nil {
		t.Fatal(err)
	}
	bag := max(0, unseen.Count()-rules.RackSize)
	g := movegen.New(testgen.Tables(lex))
	g.SetBoard(&pos.Board)
	g.SetLeaves(eval.Equity(leaves, bag, unseen))
	var all movegen.AllMoves
	g.Generate(&pos.Rack, bag, movegen.Options{Exchanges: true, Pass: true}, &all)
	slices.SortFunc(all.Moves, func(a, b move.Move) int { return move.ByEquity(&a, &b) })
	return all.Moves
}

// topByEquity returns the best n moves of kind k by static equity.
func topByEquity(t *testing.T, lex *gaddag.GADDAG, leaves movegen.LeaveValuer, pos *Position, k move.Kind, n int) []move.Move {
	t.Helper()
	var out []move.Move
	for _, m := range allByEquity(t, lex, leaves, pos) {
		if m.Kind == k && len(out) < n {
			out = append(out, m)
		}
	}
	return out
}

func sameMoveSets(a, b []move.Move) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !slices.ContainsFunc(b, func(m move.Move) bool { return move.Same(&m, &a[i]) }) {
			return false
		}
	}
	return true
}

// TestSimulateAdd: added moves are simulated whatever their static rank,
// valued (score, equity) as the move generator values them, once each when
// they are candidates anyway, and a move the player cannot make is an error
// naming it.
func TestSimulateAdd(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	pos := midgame(t)
	all := allByEquity(t, lex, leaves, pos)
	var worstPlay, worstExch move.Move
	for _, m := range all {
		switch m.Kind {
		case move.Play:
			if m.NumTiles < 2 {
				continue // the moves off the rack below need two tiles
			}
			worstPlay = m
		case move.Exchange:
			worstExch = m
		}
	}
	// As a user names them: parsed, without score or equity.
	parse := func(m move.Move) move.Move {
		t.Helper()
		p, err := move.Parse(m.NotationOn(&pos.Board), &pos.Board)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	add := []move.Move{parse(worstPlay), parse(worstExch), parse(all[0]), {Kind: move.Pass}}
	opts := Options{Leaves: leaves, Candidates: 5, Iterations: 8, Seed: 3, Add: add}
	res, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), pos, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := 5 + CandidateExchanges + 1 + 2; len(res.Candidates) != want {
		t.Fatalf("%d candidates, want %d: 5 plays, %d exchanges, the pass and the 2 added outside them", len(res.Candidates), want, CandidateExchanges)
	}
	for _, want := range []move.Move{worstPlay, worstExch, all[0]} {
		i := slices.IndexFunc(res.Candidates, func(c Candidate) bool { return move.Same(&c.Move, &want) })
		if i < 0 {
			t.Errorf("added %s is not simulated", want.NotationOn(&pos.Board))
			continue
		}
		c := res.Candidates[i]
		if !c.Added || c.Iterations != 8 || c.Move.Score != want.Score || c.Move.Equity != want.Equity {
			t.Errorf("added %s: added %v, %d iterations, score %d equity %d; want true, 8, %d, %d (the generator's)",
				want.NotationOn(&pos.Board), c.Added, c.Iterations, c.Move.Score, c.Move.Equity, want.Score, want.Equity)
		}
	}
	added := 0
	for _, c := range res.Candidates {
		if c.Added {
			added++
		}
	}
	if added != len(add) {
		t.Errorf("%d candidates marked added, want %d", added, len(add))
	}
	// The same seed gives the same table at any thread count.
	opts.Threads = 2
	two, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), pos, opts)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := untimedSim(res), untimedSim(two); !reflect.DeepEqual(a, b) {
		t.Errorf("1 and 2 threads differ with added moves:\n%+v\n%+v", a.Candidates, b.Candidates)
	}

	// Moves the player cannot make.
	const z = rules.Letter(26)
	offRack := worstPlay // its new tiles all Zs: the set has one
	for i, l := range offRack.Tiles[:offRack.Len] {
		if l != rules.PlayedThrough {
			offRack.Tiles[i] = z
		}
	}
	if offRack.NumTiles < 2 {
		t.Fatalf("%s places one tile: the test needs another play", worstPlay.NotationOn(&pos.Board))
	}
	for _, c := range []struct {
		name string
		m    move.Move
		msg  string
	}{
		{"tiles off the rack", offRack, "added move"},
		{"exchange off the rack", move.Move{Kind: move.Exchange, Len: 2, NumTiles: 2, Tiles: [rules.Size]rules.Letter{z, z}}, "added move -ZZ"},
		{"unconnected play", move.Move{Kind: move.Play, Row: 0, Col: 0, Len: 2, NumTiles: 2, Tiles: [rules.Size]rules.Letter{pos.Rack.Tiles()[0], pos.Rack.Tiles()[1]}}, "added move 1A"},
	} {
		_, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), pos, Options{Iterations: 1, Add: []move.Move{c.m}})
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.msg)
		}
	}
}

// TestSimulatePartlyKnownOpponent: an opponent rack of fewer tiles than a
// full rack while tiles remain to be drawn is partly known (as CGP defines
// it): every iteration the opponent holds the known tiles plus draws from
// the unseen tiles less the known ones, to a full rack; near the end, to
// every unseen tile, which makes an endgame.
func TestSimulatePartlyKnownOpponent(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	pos := midgame(t)
	unseen, err := rules.Unseen(&pos.Board, pos.Rack)
	if err != nil {
		t.Fatal(err)
	}
	known := unseen.Tiles()[:3]
	part := *pos
	for _, l := range known {
		part.Opponent.Add(l)
	}
	s := NewSimulator(testgen.Tables(lex))
	opts := Options{Iterations: 1}
	r, bag, err := s.prepare(&part, &opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := unseen.Count() - rules.RackSize; bag != want {
		t.Errorf("bag %d, want %d (the opponent holds a full rack)", bag, want)
	}
	w := &simWorker{gen: movegen.New(testgen.Tables(lex))}
	w.reset(r)
	seen := map[rules.Rack]bool{}
	for i := range 20 {
		w.iterate(r, i)
		if w.opps[1].Count() != rules.RackSize || !unseen.Contains(w.opps[1]) || !w.opps[1].Contains(part.Opponent) {
			t.Fatalf("iteration %d: opponent's rack %s, want 7 unseen tiles holding %s", i, w.opps[1], part.Opponent)
		}
		rest := unseen
		rest.Sub(w.opps[1])
		var bagTiles rules.Rack
		for _, l := range w.bagBase {
			bagTiles.Add(l)
		}
		if bagTiles != rest {
			t.Fatalf("iteration %d: the bag holds %s, want the unseen tiles less the opponent's rack", i, bagTiles)
		}
		seen[w.opps[1]] = true
	}
	if len(seen) < 10 {
		t.Errorf("%d different opponent racks in 20 iterations: the unknown tiles are not drawn", len(seen))
	}
	// The draws depend on the seed alone: 1 and 2 threads agree.
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	run := func(threads int) Result {
		res, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), &part, Options{Leaves: leaves, Candidates: 4, Iterations: 16, Threads: threads, Seed: 9})
		if err != nil {
			t.Fatal(err)
		}
		return untimedSim(res)
	}
	if a, b := run(1), run(2); !reflect.DeepEqual(a, b) {
		t.Errorf("a partly known opponent rack: 1 and 2 threads differ")
	}

	// With too few unseen tiles to fill the rest of the rack, the opponent
	// holds them all: the bag is empty.
	end := findEndgame(t, lex)
	endUnseen, err := rules.Unseen(&end.Board, end.Rack)
	if err != nil {
		t.Fatal(err)
	}
	end.OpponentTiles = 0
	end.Opponent = rules.Rack{}
	end.Opponent.Add(endUnseen.Tiles()[0])
	r, bag, err = s.prepare(end, &Options{Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if bag != 0 || r.opp != endUnseen || len(r.pool) != 0 {
		t.Errorf("partly known rack %s near the end: bag %d, opponent %s; want 0 and every unseen tile %s", end.Opponent, bag, r.opp, endUnseen)
	}
	// A known part larger than the tiles the opponent holds is an error.
	bad := part
	bad.OpponentTiles = 2
	if _, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), &bad, Options{Iterations: 1}); err == nil || !strings.Contains(err.Error(), "but the opponent holds 2") {
		t.Errorf("known tiles beyond the opponent's count: error %v", err)
	}
}

// findEndgame returns a position of a self-played game with the bag empty
// and the opponent holding more than one tile.
func findEndgame(t *testing.T, lex *gaddag.GADDAG) *Position {
	t.Helper()
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed < 20; seed++ {
		pos, bags, _ := turnPositions(equityGame(t, lex, leaves, seed))
		for i := range pos {
			if bags[i] == 0 && pos[i].Rack.Count() > 0 && pos[i].OpponentTiles > 1 {
				return &pos[i]
			}
		}
	}
	t.Fatal("no endgame position found")
	return nil
}
