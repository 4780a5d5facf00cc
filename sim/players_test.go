package sim

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// fieldGame plays a game of n equity players (seed fixed) and returns the
// position before each turn from the mover's side (Seats n, scores in turn
// order from the mover) and the bag's size then.
func fieldGame(t *testing.T, tables *movegen.Tables, leaves movegen.LeaveValuer, n int, seed uint64) ([]Position, []int) {
	t.Helper()
	players := make([]game.Player, n)
	for i := range players {
		players[i] = game.NewEquityPlayer(leaves, eval.Terms{})
	}
	rec, err := game.NewTable(tables).PlaySeats(context.Background(), players, seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	var (
		pos   []Position
		bags  []int
		board rules.Board
	)
	racks := rec.Racks
	var totals [rules.MaxPlayers]int
	onBoard, zero := 0, 0
	for _, tu := range rec.Turns {
		p := tu.Player
		bag := rules.TileCount() - onBoard
		for s := range n {
			bag -= racks[s].Count()
		}
		ps := Position{Board: board, Rack: racks[p], Seats: n, Scoreless: zero}
		for k := range n {
			ps.Scores[k] = totals[(p+k)%n]
		}
		pos = append(pos, ps)
		bags = append(bags, bag)
		if tu.Move.Kind == move.Play {
			board.Apply(tu.Move.Placed())
			onBoard += int(tu.Move.NumTiles)
		}
		rk := racks[p]
		if tu.Move.Kind != move.Pass {
			rk.Sub(tu.Move.Used())
		}
		for l, c := range tu.Drawn {
			rk[l] += c
		}
		racks[p] = rk
		totals = tu.Totals
		if tu.Score > 0 {
			zero = 0
		} else {
			zero++
		}
	}
	return pos, bags
}

// naiveRollout plays candidate c of r from pos the plain way, on the draws
// of the worker's iteration (the other racks opps[1:], the bag bagBase in
// draw order): a fresh generator, sides taking turns by ply number modulo
// the players, the bag a slice drawn from the front, rules.EndAdjustments
// at the end. It returns the value in points (the mover's points less the
// mean of the others', leaves likewise while the game goes on) and the
// mover's share of first place. With playOut it plays on to the end of the
// game whatever the plies. It does not reshuffle the bag after an
// exchange: exchanged reports one, after which later draws may differ.
func naiveRollout(tables *movegen.Tables, leaves movegen.LeaveValuer, r *simRun, pos *Position, opps [rules.MaxPlayers]rules.Rack, bagBase []rules.Letter, c int, playOut bool) (value, first float64, exchanged bool) {
	n := r.seats
	g := movegen.New(tables)
	g.SetBoard(&pos.Board)
	racks := opps
	racks[0] = pos.Rack
	bag := append([]rules.Letter(nil), bagBase...)
	points := make([]int, n)
	leave := make([]float64, n)
	zero := pos.Scoreless
	over := false
	play := func(side int, m move.Move) {
		leave[side] = rules.MilliToPoints(float64(m.Equity - rules.FromPoints(m.Score)))
		if m.Kind != move.Pass {
			racks[side].Sub(m.Used())
		}
		for racks[side].Count() < rules.RackSize && len(bag) > 0 {
			racks[side].Add(bag[0])
			bag = bag[1:]
		}
		switch m.Kind {
		case move.Play:
			g.Apply(&m)
		case move.Exchange:
			u := m.Used()
			bag = append(bag, u.Tiles()...)
			exchanged = true
		}
		points[side] += int(m.Score)
		if m.Score > 0 {
			zero = 0
		} else {
			zero++
		}
		out := -1
		if len(bag) == 0 && racks[side].Count() == 0 {
			out = side
		}
		if out >= 0 || zero >= rules.MaxScorelessTurns {
			for s, a := range rules.EndAdjustments(racks[:n], out) {
				points[s] += a
			}
			over = true
		}
	}
	play(0, r.cands[c])
	for ply := 1; !over && ply < maxRolloutPlies && (ply <= r.opts.Plies || playOut || len(bag) == 0); ply++ {
		side := ply % n
		var others rules.Rack
		for s := range n {
			if s != side {
				others = addRack(others, racks[s])
			}
		}
		g.SetLeaves(eval.EquityAmong(leaves, len(bag), others, n))
		m, _ := g.Best(&racks[side], len(bag), movegen.Options{Exchanges: true, Pass: true})
		play(side, m)
	}
	standing := make([]float64, n)
	for s := range n {
		standing[s] = float64(r.scores[s] + points[s])
		if !over {
			standing[s] += leave[s]
		}
		if s == 0 {
			value += standing[s] - float64(r.scores[s])
		} else {
			value -= (standing[s] - float64(r.scores[s])) / float64(n-1)
		}
	}
	shared := 1
	for s := 1; s < n; s++ {
		if standing[s] > standing[0] {
			return value, 0, exchanged
		}
		if standing[s] == standing[0] {
			shared++
		}
	}
	return value, 1 / float64(shared), exchanged
}

// rolloutRig is what the comparisons with naiveRollout need: the test
// lexicon's tables, the built-in leaves, a simulator and a worker.
func rolloutRig(t *testing.T) (*movegen.Tables, movegen.LeaveValuer, *Simulator, *simWorker) {
	t.Helper()
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	return tables, leaves, NewSimulator(tables), &simWorker{gen: movegen.New(tables)}
}

// TestFieldRolloutsMatchNaive: the rollouts of 3- and 4-player positions
// (from the opening to the end of real games, both plies that stop short
// and rollouts played to the end of the game) give the values and shares
// of first place of a plain loop written here, on the same draws.
func TestFieldRolloutsMatchNaive(t *testing.T) {
	tables, leaves, s, w := rolloutRig(t)
	compared, ended := 0, 0
	for _, n := range []int{3, 4} {
		pos, bags := fieldGame(t, tables, leaves, n, uint64(10+n))
		for ti := range pos {
			if bags[ti] == 0 || (ti%3 != 0 && bags[ti] > 7) {
				continue // every third turn, and every one near the end
			}
			// Plies: the others' replies, then one more to make
			// the mover move again; near the end every rollout
			// plays to the end of the game anyway.
			for _, plies := range []int{n - 1, n + 1} {
				opts := Options{Leaves: leaves, Candidates: 5, Iterations: 3, Plies: plies, Seed: 7}
				r, _, err := s.prepare(&pos[ti], &opts)
				if err != nil {
					t.Fatalf("%d players, turn %d: %v", n, ti+1, err)
				}
				w.reset(r)
				for i := range opts.Iterations {
					w.iterate(r, i)
					for c := range r.cands {
						v, win := w.rollout(r, c, iterSeed(opts.Seed, i))
						nv, nfirst, exch := naiveRollout(tables, leaves, r, &pos[ti], w.opps, w.bagBase, c, false)
						if exch && (plies > n-1 || bags[ti] < 3*rules.RackSize) {
							continue // the bag was reshuffled, and later draws may count
						}
						if d := float64(v) - 1000*nv; d > 1 || d < -1 {
							t.Fatalf("%d players, turn %d (bag %d), %d plies, iteration %d, candidate %s: value %d millipoints, naive %.3f points",
								n, ti+1, bags[ti], plies, i, r.cands[c].Notation(), v, nv)
						}
						if want := int64(nfirst*1e6 + 0.5); win != want && win != want-1 {
							t.Fatalf("%d players, turn %d, candidate %s: first-place share %d millionths, naive %d",
								n, ti+1, r.cands[c].Notation(), win, want)
						}
						compared++
						if w.over {
							ended++
						}
					}
				}
			}
		}
	}
	if compared < 500 || ended < 50 {
		t.Fatalf("only %d rollouts compared, %d reaching the end of the game", compared, ended)
	}
	t.Logf("%d rollouts agree, %d of them to the end of the game", compared, ended)
}

// TestPlayOutRolloutsMatchNaive: with Options.PlayOut, a two-player
// simulation with at most that many tiles in the bag plays every rollout to
// the end of the game, as a plain loop that plays on to the end does on the
// same draws (the same spread, and a win, tie or loss by the final
// scores); with more tiles in the bag its rollouts stop after Plies, as
// without it.
func TestPlayOutRolloutsMatchNaive(t *testing.T) {
	tables, leaves, s, w := rolloutRig(t)
	const playOut = 14
	compared, ended, stopped := 0, 0, 0
	for seed := uint64(30); seed < 42; seed++ {
		pos, bags := fieldGame(t, tables, leaves, 2, seed)
		for ti := range pos {
			if bags[ti] == 0 || bags[ti] > playOut+10 {
				continue
			}
			opts := Options{Leaves: leaves, Candidates: 5, Iterations: 3, Plies: 2, PlayOut: playOut, Seed: 7}
			r, _, err := s.prepare(&pos[ti], &opts)
			if err != nil {
				t.Fatalf("game %d, turn %d: %v", seed, ti+1, err)
			}
			out := bags[ti] <= playOut
			w.reset(r)
			for i := range opts.Iterations {
				w.iterate(r, i)
				for c := range r.cands {
					v, win := w.rollout(r, c, iterSeed(opts.Seed, i))
					nv, nfirst, exch := naiveRollout(tables, leaves, r, &pos[ti], w.opps, w.bagBase, c, out)
					if exch {
						continue // the bag was reshuffled, and later draws may count
					}
					if d := float64(v) - 1000*nv; d > 1 || d < -1 {
						t.Fatalf("game %d, turn %d (bag %d), iteration %d, candidate %s: value %d millipoints, naive %.3f points",
							seed, ti+1, bags[ti], i, r.cands[c].Notation(), v, nv)
					}
					switch {
					case out && !w.over:
						t.Fatalf("game %d, turn %d (bag %d), candidate %s: the rollout stopped before the end of the game", seed, ti+1, bags[ti], r.cands[c].Notation())
					case w.over && win != int64(nfirst*1e6):
						t.Fatalf("game %d, turn %d, candidate %s: win %d millionths, naive %g", seed, ti+1, r.cands[c].Notation(), win, nfirst)
					}
					compared++
					if w.over {
						ended++
					} else {
						stopped++
					}
				}
			}
		}
	}
	if compared < 1000 || ended < 400 || stopped < 200 {
		t.Fatalf("%d rollouts compared, %d to the end of the game, %d stopped after the plies", compared, ended, stopped)
	}
	t.Logf("%d rollouts agree: %d to the end of the game, %d stopped after the plies", compared, ended, stopped)
}

// TestSimulateFieldDeterministic: a simulation of 3 or 4 players gives the
// same result for the same seed on 1 or 3 threads, another for another
// seed; it ranks by equity whatever was asked (no two-player table), and
// counts rollouts and move searches as plies of every player.
func TestSimulateFieldDeterministic(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	tables := testgen.Tables(lex)
	for _, n := range []int{3, 4} {
		pos, bags := fieldGame(t, tables, leaves, n, uint64(20+n))
		ti := len(pos) / 3
		if bags[ti] < rules.RackSize {
			t.Fatalf("%d players: turn %d has %d in the bag", n, ti+1, bags[ti])
		}
		run := func(threads int, seed uint64) Result {
			opts := Options{Leaves: leaves, Candidates: 4, Plies: n, Iterations: 10, Threads: threads, Seed: seed,
				Rank: RankWin, WinPct: eval.DefaultWinPct()}
			res, err := NewSimulator(tables).Simulate(context.Background(), &pos[ti], opts)
			if err != nil {
				t.Fatalf("%d players: %v", n, err)
			}
			return untimedSim(res)
		}
		one := run(1, 5)
		if three := run(3, 5); !reflect.DeepEqual(one, three) {
			t.Errorf("%d players: 1 and 3 threads differ:\n%+v\n%+v", n, one, three)
		}
		if other := run(1, 6); reflect.DeepEqual(one.Candidates, other.Candidates) {
			t.Errorf("%d players: seeds 5 and 6 gave the same result", n)
		}
		k := int64(len(one.Candidates))
		if one.Rank != RankEquity || one.Endgame || one.BagLen != bags[ti] || one.Rollouts != 10*k || one.Generations > int64(n)*10*k || one.Generations < 10*k {
			t.Errorf("%d players: rank %v, endgame %v, bag %d (want %d), %d rollouts, %d searches", n, one.Rank, one.Endgame, one.BagLen, bags[ti], one.Rollouts, one.Generations)
		}
		for _, c := range one.Candidates {
			if c.WinProb < 0 || c.WinProb > 1 || c.StdErr <= 0 {
				t.Errorf("%d players, %s: first-place share %g, standard error %g", n, c.Move.Notation(), c.WinProb, c.StdErr)
			}
		}
	}
}

// TestSimulateFieldErrors: what a simulation of more than two players does
// not take is an error saying so.
func TestSimulateFieldErrors(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	tables := testgen.Tables(lex)
	pos, bags := fieldGame(t, tables, nil, 3, 31)
	mid := pos[len(pos)/3]
	end := -1
	for i, b := range bags {
		if b == 0 && pos[i].Rack.Count() > 0 {
			end = i
			break
		}
	}
	if end < 0 {
		t.Fatal("the game has no turn with the bag empty")
	}
	rack, _ := rules.ParseRack("E")
	for _, tc := range []struct {
		name string
		edit func(p *Position)
		want string
	}{
		{"five players", func(p *Position) { p.Seats = 5 }, "5 players: a game has 2 to 4"},
		{"one player", func(p *Position) { p.Seats = 1 }, "1 players: a game has 2 to 4"},
		{"a known rack", func(p *Position) { p.Opponent = rack }, "3-player position: the other players' racks are drawn at random"},
		{"tiles held", func(p *Position) { p.OpponentTiles = 7 }, "3-player position"},
		{"bag empty", func(p *Position) { *p = pos[end] }, "the bag is empty"},
	} {
		p := mid
		tc.edit(&p)
		_, err := NewSimulator(tables).Simulate(context.Background(), &p, Options{Iterations: 1})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestSimPlayerField: the sim player plays whole games of 3 and 4 players
// (with the bag empty it plays the static end-of-game valuation).
func TestSimPlayerField(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	tables := testgen.Tables(lex)
	for _, n := range []int{3, 4} {
		sp, err := NewPlayer(Options{Leaves: leaves, Candidates: 3, Iterations: 4, Plies: 2})
		if err != nil {
			t.Fatal(err)
		}
		players := []game.Player{sp}
		for len(players) < n {
			players = append(players, game.NewEquityPlayer(leaves, eval.Terms{}))
		}
		rec, err := game.NewTable(tables).PlaySeats(context.Background(), players, 3, 0)
		if err != nil {
			t.Fatalf("%d players: %v", n, err)
		}
		if rec.Seats != n || rec.End == 0 || len(rec.Turns) < 10 {
			t.Errorf("%d players: %d seats, end %v, %d turns", n, rec.Seats, rec.End, len(rec.Turns))
		}
	}
}
