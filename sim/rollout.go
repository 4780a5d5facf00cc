package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"scrabble/eval"
	"scrabble/internal/splitmix"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// simWorker plays iterations on its own generator, summing into its own
// accumulator: the inner loop shares nothing writable, so it needs no
// locks, and it allocates nothing.
type simWorker struct {
	gen  *movegen.Generator
	acc  simAcc
	vals []int64 // this iteration's value per candidate, for the pairwise sums

	// One iteration's draws, the same for every candidate (common random
	// numbers): the other players' racks (opps[1] the next player's, and
	// so on in turn order; opps[0] unused) and the order of the bag.
	opps    [rules.MaxPlayers]rules.Rack
	pool    []rules.Letter // unseen tiles, shuffled; the bag follows the opponent's rack
	bagBase []rules.Letter // the bag in draw order
	rest    []rules.Letter // the bag's storage when the opponent's rack is sampled

	// One rollout's state.
	bag []rules.Letter // bag[top:] is still in the bag
	top int
	// Per player, in turn order from the player to move (side 0).
	racks  [rules.MaxPlayers]rules.Rack
	points [rules.MaxPlayers]int          // points scored in the rollout, end-of-game adjustments included
	leave  [rules.MaxPlayers]rules.Equity // each side's leave after its last move
	zero   int                            // consecutive scoreless turns
	over   bool
	last   int // the side that moved last
	// unplaced holds the tiles of the last play when it was left off the
	// generator's board (nothing needs the board after it).
	unplaced rules.Rack
	rng      rand.PCG // reshuffles the bag after an exchange

	// fresh makes every search start afresh (Generator.ForgetRacks), as a
	// reference for what the searches reuse from one another (tests).
	fresh bool
}

// reset sizes the worker's buffers for a run.
func (w *simWorker) reset(r *simRun) {
	k := len(r.cands)
	w.acc = *newSimAcc(k)
	w.vals = make([]int64, k)
	w.pool = make([]rules.Letter, len(r.pool))
	w.rest = make([]rules.Letter, 0, len(r.pool))
	w.bag = make([]rules.Letter, 0, len(r.pool)+rules.RackSize)
}

// iterSeed is iteration i's seed: a function of the run's seed and i alone,
// so no iteration depends on which worker plays it.
func iterSeed(seed uint64, i int) uint64 { return splitmix.Mix(seed ^ splitmix.Mix(uint64(i)+0x51D)) }

// iterate plays iteration i: one rollout of every live candidate against
// the same draws.
func (w *simWorker) iterate(r *simRun, i int) {
	seed := iterSeed(r.opts.Seed, i)
	w.rng.Seed(seed, 0x5EED_0F_B46)
	copy(w.pool, r.pool)
	for j := len(w.pool) - 1; j > 0; j-- { // Fisher-Yates
		k := w.intN(j + 1)
		w.pool[j], w.pool[k] = w.pool[k], w.pool[j]
	}
	if r.sampler != nil {
		w.drawSampled(r, seed)
	} else {
		// The next player's rack first (with two players the opponent's,
		// known tiles and all), then each other player's, from the front
		// of the shuffled pool; the rest is the bag.
		next := 0
		for k := 1; k < r.seats; k++ {
			w.opps[k] = rules.Rack{}
			if k == 1 {
				w.opps[k] = r.opp
			}
			for _, l := range w.pool[next : next+r.oppTiles] {
				w.opps[k].Add(l)
			}
			next += r.oppTiles
		}
		w.bagBase = w.pool[next:]
	}

	for _, c := range r.order {
		if r.hist != nil && (i < r.from[c] || i >= r.to[c]) {
			continue // a top-two round: c does not play iteration i
		}
		v, win := w.rollout(r, c, seed)
		w.vals[c] = v
		if r.hist != nil {
			r.hist[c][i-r.base[c]] = rolled{int32(v), int32(win)}
		}
		a := &w.acc
		a.n[c]++
		a.sum[c] += v
		a.sumSq[c] += v * v
		a.win[c] += win
		a.winSq[c] += win * win / winSqScale
		a.rollouts++
	}
}

// intN is a uniform integer in [0, n) from the worker's generator, by
// rejection (no bias).
func (w *simWorker) intN(n int) int {
	un := uint64(n)
	threshold := -un % un
	for {
		if x := w.rng.Uint64(); x >= threshold {
			return int(x % un)
		}
	}
}

// rollout plays candidate c and the plies after it, and returns its value
// in millipoints and the player's chance of winning in millionths.
func (w *simWorker) rollout(r *simRun, c int, seed uint64) (value, win int64) {
	g := w.gen
	g.CopyBoard(r.after[c]) // the candidate is on the board already
	w.bag = append(w.bag[:0], w.bagBase...)
	w.top = 0
	w.racks = w.opps
	w.racks[0] = r.rack
	w.points = [rules.MaxPlayers]int{}
	w.leave = [rules.MaxPlayers]rules.Equity{}
	w.zero = r.zero
	w.over = false
	w.unplaced = rules.Rack{}
	// Exchanges in the rollout reshuffle the bag from the candidate's own
	// stream, so the other candidates' draws stay as they were.
	w.rng.Seed(seed, uint64(c)+1)

	m := r.cands[c]
	w.apply(r, &m, 0)
	for ply, side := 1, 1; w.another(r, ply); ply, side = ply+1, w.nextSide(r, side) {
		bagLen := len(w.bag) - w.top
		// With the bag empty each side knows the other's rack (the
		// others' racks together, with more players).
		if r.seats == 2 {
			g.SetLeaves(eval.Equity(r.opts.Leaves, bagLen, w.racks[1-side]))
		} else {
			g.SetLeaves(eval.EquityAmong(r.opts.Leaves, bagLen, w.othersRack(r, side, bagLen), r.seats))
		}
		if w.fresh {
			g.ForgetRacks()
		}
		// The opponent's rack is the same on every candidate's board.
		m, _ = g.Best(&w.racks[side], bagLen, movegen.Options{Exchanges: true, Pass: true, Repeat: side == 1 && ply == 1})
		w.acc.gens++
		w.apply(r, &m, side)
		if m.Kind == move.Play {
			if w.another(r, ply+1) {
				g.Apply(&m)
			} else {
				w.unplaced = m.Used() // the board is only needed for another ply
			}
		}
	}

	if r.seats > 2 {
		return w.fieldValue(r)
	}
	spread := w.points[0] - w.points[1]
	value = int64(rules.FromPoints(spread))
	final := r.scores[0] - r.scores[1] + spread
	switch {
	case w.over && final > 0:
		win = 1e6
	case w.over && final == 0:
		win = 5e5
	case w.over:
		win = 0
	default:
		lv := w.leave[0] - w.leave[1]
		value += int64(lv)
		if wp := r.opts.WinPct; wp != nil {
			// The table is for the player to move, who sees the bag and
			// the other player's rack as unseen.
			lead := float64(final) + lv.Points()
			bag := len(w.bag) - w.top
			var p float64
			if w.last == 1 {
				p = wp.ProbToMove(lead, bag+w.racks[1].Count())
			} else {
				p = 1 - wp.ProbToMove(-lead, bag+w.racks[0].Count())
			}
			win = int64(p*1e6 + 0.5)
		}
	}
	return value, win
}

// nextSide is the side that moves after side: the next in turn order.
func (w *simWorker) nextSide(r *simRun, side int) int {
	if side++; side == r.seats {
		return 0
	}
	return side
}

// othersRack is the tiles of every side but side together, needed only
// with the bag empty (the end-of-game term; otherwise empty).
func (w *simWorker) othersRack(r *simRun, side, bagLen int) rules.Rack {
	var o rules.Rack
	if bagLen > 0 {
		return o
	}
	for s := range r.seats {
		if s != side {
			o = addRack(o, w.racks[s])
		}
	}
	return o
}

// fieldValue is the value of a rollout of more than two players, in
// millipoints, and the player's share of first place in millionths (see
// Candidate): the player's points less the mean of the others', plus,
// when the game goes on, the player's leave less the mean of the others'.
func (w *simWorker) fieldValue(r *simRun) (value, win int64) {
	n := int64(r.seats - 1)
	var others int64 // the others' points and leaves, millipoints
	for s := 1; s < r.seats; s++ {
		others += int64(rules.FromPoints(int32(w.points[s])))
		if !w.over {
			others += int64(w.leave[s])
		}
	}
	value = int64(rules.FromPoints(int32(w.points[0])))
	if !w.over {
		value += int64(w.leave[0])
	}
	value -= divRound(others, n)
	// First place, by final scores, or score and leave while the game
	// goes on.
	standing := func(s int) int64 {
		v := int64(rules.FromPoints(int32(r.scores[s] + w.points[s])))
		if !w.over {
			v += int64(w.leave[s])
		}
		return v
	}
	mine, shared := standing(0), int64(1)
	for s := 1; s < r.seats; s++ {
		switch v := standing(s); {
		case v > mine:
			return value, 0
		case v == mine:
			shared++
		}
	}
	return value, 1e6 / shared
}

// divRound is a/b rounded to the nearest integer, halves away from zero
// (b > 0).
func divRound(a, b int64) int64 {
	if a < 0 {
		return -((-a + b/2) / b)
	}
	return (a + b/2) / b
}

// another reports whether the rollout plays a ply numbered ply (the
// candidate is ply 0): the game goes on, and either the plies asked for are
// not all played, the rollouts play out (Options.PlayOut) or the bag is
// empty (then play goes on to the end).
func (w *simWorker) another(r *simRun, ply int) bool {
	return !w.over && ply < maxRolloutPlies && (ply <= r.opts.Plies || r.playOut || w.top == len(w.bag))
}

// apply makes side's move m, except on the generator's board: tiles off the
// rack, the draw, the score, and the end of the game if it comes (with
// its adjustments for r.seats players, as rules.EndAdjustments gives them).
func (w *simWorker) apply(r *simRun, m *move.Move, side int) {
	rack := &w.racks[side]
	w.last = side
	// Equity is score plus leave while tiles remain to be
	// drawn, which is when the leave is used.
	w.leave[side] = m.Equity - rules.FromPoints(m.Score)
	switch m.Kind {
	case move.Play:
		rack.Sub(m.Used())
		w.draw(rack)
	case move.Exchange:
		used := m.Used()
		rack.Sub(used)
		w.draw(rack)
		for l, n := range used {
			for range n {
				w.bag = append(w.bag, rules.Letter(l))
			}
		}
		rest := w.bag[w.top:]
		for j := len(rest) - 1; j > 0; j-- {
			k := w.intN(j + 1)
			rest[j], rest[k] = rest[k], rest[j]
		}
	}
	w.points[side] += int(m.Score)
	if m.Score > 0 {
		w.zero = 0
	} else {
		w.zero++
	}
	switch {
	case w.top == len(w.bag) && rack.Count() == 0 && r.seats == 2:
		w.points[side] += rules.OutBonus(w.racks[1-side])
		w.over = true
	case w.top == len(w.bag) && rack.Count() == 0:
		// Each other player loses their tiles' value, and the player who
		// went out gains their sum.
		for s := range r.seats {
			if s != side {
				v := w.racks[s].Value()
				w.points[s] -= v
				w.points[side] += v
			}
		}
		w.over = true
	case rules.GameOverByScoreless(w.zero):
		for s := range r.seats {
			w.points[s] += rules.EndByScorelessAdjustment(w.racks[s])
		}
		w.over = true
	}
}

// draw refills rack from the front of the bag.
func (w *simWorker) draw(rack *rules.Rack) {
	for n := rules.RackSize - rack.Count(); n > 0 && w.top < len(w.bag); n-- {
		rack.Add(w.bag[w.top])
		w.top++
	}
}

// RackSampler draws the opponent's whole rack for one iteration from the
// iteration's seed (see Position.OpponentRacks): the same seed must give
// the same rack, of the tiles the opponent holds, all among the unseen
// ones. It is called from every worker at once.
type RackSampler interface {
	SampleRack(seed uint64) rules.Rack
}

// setSampler checks s against the unseen tiles and sets it for the run
// (nothing with the bag empty: the opponent's rack is known).
func (r *simRun) setSampler(s RackSampler, unseen rules.Rack) error {
	if s == nil || r.oppTiles == 0 {
		return nil
	}
	if r.opp.Count() > 0 {
		return errors.New("sim: a known opponent rack and a sampled one together")
	}
	for seed := range uint64(4) {
		if got := s.SampleRack(seed); got.Count() != r.oppTiles || !unseen.Contains(got) {
			return fmt.Errorf("sim: the opponent's rack sampler drew %s: want %d of the unseen tiles %s", got, r.oppTiles, unseen)
		}
	}
	r.sampler = s
	return nil
}

// drawSampled takes the opponent's rack from the run's sampler and the bag
// from the shuffled pool less that rack, in the pool's order (a uniform
// order of the rest).
func (w *simWorker) drawSampled(r *simRun, seed uint64) {
	w.opps[1] = r.sampler.SampleRack(seed)
	take := w.opps[1]
	w.rest = w.rest[:0]
	for _, l := range w.pool {
		if take[l] > 0 {
			take[l]--
			continue
		}
		w.rest = append(w.rest, l)
	}
	w.bagBase = w.rest
}
