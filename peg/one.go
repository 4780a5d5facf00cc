package peg

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"scrabble/endgame"
	"scrabble/internal/crash"
)

// solveOne solves a pre-endgame with one tile in the bag exactly (or two:
// see exactBag; each draw order is then a draw, and "bag tile" below means
// the draw order).
//
// The first Top candidates (in the estimate's order) are solved exactly:
// every bag tile's endgame to its value. They are the leaders, ranked by
// win percentage, then mean spread. A candidate valued so, with no leader
// to race, has a node budget (firstLeaderNodes): one whose endgames are
// costly is put off to the end of the queue, to be settled without a
// budget against the leaders found meanwhile. Every other candidate must
// beat the weakest leader, L, to enter: for each bag tile where the
// playouts see it below L it is first asked only whether it does better
// than L does with that tile, a search with the null window at L's final
// spread (much cheaper than the exact value). A no bounds the draw's
// spread by L's, and when L loses with that tile it settles the draw as a
// loss. The draws left open are then raced: the slack L leaves is shared
// among them, each asked about its playout plus an equal share, so that a
// no on each prunes the candidate (see plan). As soon as the bounds show
// the candidate can no longer beat L (on win percentage, or on spread at
// equal win percentage) it is pruned; one whose lower bounds beat L is
// solved exactly, draw by draw while it may, and if it does it becomes a
// leader and the weakest leader goes.
//
// A bound may depend on what the shared table held (the searches are
// fail-soft), so the work done may differ from run to run with several
// threads. The answer does not: a bound only ever prunes a candidate that
// cannot beat an exact leader, and every one that can is valued exactly;
// ties between equal records go by the estimate's order.
//
// With a time limit (and not Options.ExactOnly), the exact solve has
// exactShare of it; stopped then, the rest values the candidates it did not
// settle by estimates (estimateUnsettled), ranked after its leaders.
func (s *solver) solveOne() error {
	outer := s.ctx
	if dl, ok := outer.Deadline(); ok && !s.opts.ExactOnly {
		ctx, cancel := context.WithDeadline(outer, s.start.Add(time.Duration(float64(dl.Sub(s.start))*exactShare)))
		defer cancel()
		s.ctx = ctx
	}
	err := s.solveOneExact()
	s.ctx = outer
	if err != nil || s.proven || outer.Err() != nil || s.opts.ExactOnly {
		s.stopped = s.stoppedBy()
		return err
	}
	return s.estimateUnsettled()
}

// exactShare is the part of a one-tile solve's time limit the exact solve
// may take. Most positions are proven in a fraction of any limit, but in
// some every endgame is hard (vs_andy.gcg's 24th turn: the opponent holds
// seven of DEIINOQR, and one candidate's eight endgames take 38 million
// nodes), and the exact solve settles no candidate at all in minutes. The
// rest of the limit then values the candidates left by the staged solve's
// depth-limited searches (estimateUnsettled), so an answer comes in time.
var exactShare = 2.0 / 3 // a variable for the tests

// estimateUnsettled ranks the candidates an exact one-tile solve stopped
// by the clock did not settle (the leaders it settled keep their exact
// records and rank first): by the greedy playouts of every draw, then the
// best of them by the staged solve's depth-limited stages, as far as the
// solve's context allows. The answer is not proven.
func (s *solver) estimateUnsettled() error {
	var rest, missing []*cand
	for _, c := range s.cands {
		switch {
		case c.done || c.pruned:
		case c.estWeight == 0:
			missing = append(missing, c) // the clock stopped the first playouts
			fallthrough
		default:
			rest = append(rest, c)
		}
	}
	if err := s.playouts(missing, s.draws, nil); err != nil {
		return err
	}
	var ranked []*cand
	for _, c := range rest {
		if c.estWeight == 0 {
			continue
		}
		s.recordEstimate(c)
		c.stage, c.done = stageOf(len(playoutStages)-1), true
		ranked = append(ranked, c)
	}
	s.rank(ranked)
	s.mergeByTiles()
	if err := s.deepen(ranked); err != nil {
		return err
	}
	s.stopped = cmp.Or(s.stoppedBy(), "time") // the clock stopped the exact solve
	return nil
}

// solveOneExact is solveOne's exact solve, stopped by s.ctx.
func (s *solver) solveOneExact() error {
	ctx, cancel := s.endgameContext()
	defer cancel()
	if err := s.orderByPlayouts(); err != nil {
		return err
	}
	for _, c := range s.cands {
		c.lo = make([]int, len(s.draws))
		c.hi = make([]int, len(s.draws))
		for i := range c.lo {
			c.lo[i], c.hi[i] = -inf, inf
		}
	}
	var (
		mu      sync.Mutex
		next    int
		queue   = slices.Clone(s.cands) // the candidates put off go last
		leaders []*cand                 // exact, best first
		first   error
		settled int
	)
	// weakest returns the leader a candidate must beat, nil while there are
	// fewer than Top.
	weakest := func() *cand {
		mu.Lock()
		defer mu.Unlock()
		if len(leaders) < s.opts.Top {
			return nil
		}
		return leaders[len(leaders)-1]
	}
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
	}
	// one settles c and records it; false when the solve must end (an
	// error, or stopped).
	one := func(c *cand) bool {
		// A first leader is valued with no leader to prune it: one whose
		// endgames are costly is put off (once), to the end of the
		// queue, and the next tried. On p001 the playouts put first
		// K13 (O)I, which keeps both blanks: its first test alone took
		// 63.7 million nodes, where against B10 WInzE (the answer,
		// valued in 3 million) it is settled in 14 million.
		if !c.deferred && weakest() == nil {
			c.budget = firstLeaderNodes
		}
		ok, err := s.settle(ctx, c, weakest)
		if errors.Is(err, errDeferred) {
			mu.Lock()
			c.budget, c.deferred = 0, true
			queue = append(queue, c)
			mu.Unlock()
			return true
		}
		c.budget = 0
		if err != nil {
			fail(err)
			return false
		}
		if !ok {
			return false // stopped
		}
		// Unlocked by defer: a panic here (in Progress, say) must
		// not leave the others waiting for the lock.
		func() {
			mu.Lock()
			defer mu.Unlock()
			settled++
			if raceStopForTest != nil && s.stopRace != nil && raceStopForTest(settled) {
				s.stopRace()
			}
			if c.pruned {
				s.pruned++
			} else {
				c.done = true
				at, _ := slices.BinarySearchFunc(leaders, c, func(a, c *cand) int { return rankExact(a, c) })
				leaders = slices.Insert(leaders, at, c)
				if len(leaders) > s.opts.Top {
					gone := leaders[len(leaders)-1]
					gone.done, gone.pruned = false, true
					s.pruned++
					leaders = leaders[:s.opts.Top]
				}
			}
			if f := s.opts.Progress; f != nil && len(leaders) > 0 {
				b := leaders[0]
				f(Progress{Stage: cmp.Or(s.raceStage, "exact"), Done: settled, Of: len(s.cands), Best: b.notation, BestWinPct: s.winPct(b)})
			}
		}()
		return true
	}
	// The first leaders are valued one after another (those put off
	// come back later), the threads taking each one's draws in turn: a thread
	// taking a candidate of its own before there is a leader would value
	// it exactly, with nothing to prune it against (on p008, 2 threads,
	// the second candidate's values took 66 million nodes, where probes
	// against the first leader settle it with 0.2 million).
	if s.opts.Threads > 1 {
		seed := crash.Group{}
		seed.Go(func() {
			s.wide = true
			defer func() { s.wide = false }()
			for weakest() == nil && next < len(queue) && ctx.Err() == nil {
				c := queue[next]
				next++
				if !one(c) {
					return
				}
			}
		})
		if err := seed.Wait(); err != nil {
			return err
		}
	}
	worker := func() {
		for {
			mu.Lock()
			if next >= len(queue) || first != nil || ctx.Err() != nil {
				mu.Unlock()
				return
			}
			c := queue[next]
			next++
			mu.Unlock()
			if !one(c) {
				return
			}
		}
	}
	// A panic leaves the other workers nothing more to take.
	wg := crash.Group{OnPanic: func() { mu.Lock(); next = len(queue); mu.Unlock() }}
	for i := 0; i < s.opts.Threads; i++ {
		wg.Go(worker)
	}
	if err := wg.Wait(); err != nil {
		return err
	}
	if first != nil {
		return first
	}
	s.stopped = s.stoppedBy()
	s.proven = s.stopped == ""
	return nil
}

// settle values candidate c against the weakest leader: it ends pruned, or
// exact. ok is false when the solve was stopped.
func (s *solver) settle(ctx context.Context, c *cand, weakest func() *cand) (ok bool, err error) {
	L := weakest()
	if L != nil {
		// Probe each draw against L's spread with it, the draws where
		// the playouts see c doing worst against L first (those L wins
		// and c is seen losing or tying before all: a no there may
		// settle the win count at once). The table holds bounds at L's
		// spreads from the other candidates' probes, and a higher
		// threshold reuses fewer (on p009 a pass's probe took 1.6 million
		// nodes at the threshold that settles the race, 0.4 million at
		// L's). Where the playouts see c above L, the draw is left to
		// the race below once c can at best tie L's win percentage
		// (spreadRace); before that, the last draw open is probed at the
		// spread that settles the race (pruneAt) when that is above L's.
		order := s.probeOrder(c, L)
		for _, i := range order {
			if c.lo[i] == c.hi[i] {
				continue
			}
			t := L.lo[i]
			if c.guess == nil || c.guess[i] > t {
				if s.spreadRace(c, L) {
					break // the draws where c is seen above L: the race below
				}
				if T, ok := s.pruneAt(c, i, L); ok && T > t {
					t = T
				}
			}
			if err := s.speculate(ctx, c, i, t, L); err != nil {
				return false, err
			}
			if c.hi[i] > t && c.lo[i] <= t { // a twin's test may have answered
				if ok, err := s.test(ctx, c, i, t); !ok {
					return false, err
				}
			}
			if L = weakest(); !s.mayBeat(c, L) {
				c.pruned = true
				return true, nil
			}
		}
		// Then the race on spread: the slack L leaves c is shared among
		// the draws still open, each tested at its playout plus an
		// equal share (plan), so that a no on each prunes c. Proving c
		// above L's spread on a draw where it is above settles nothing,
		// and near its value it is the costly kind of search; a no at
		// the share is what pruning needs. Each answer narrows a draw's
		// bounds, and the next test is planned from them. On p001, where
		// the candidates keeping a blank beat B10 WInzE by 60 points
		// with the E drawn, K13 (O)I is settled in 14 million nodes
		// (over 225 million before). Only on spread: where c may still
		// win more draws than L, thresholds at L's spreads decide the
		// wins, and shared slack tested near the values made p002 and
		// p007 7 and 3 times as costly.
		for s.mayBeat(c, L) && s.spreadRace(c, L) {
			lam, ok := s.plan(c, L)
			if !ok {
				break // c's lower bounds beat L: it is valued exactly
			}
			i := s.pick(c, lam, order)
			proven, ok, err := s.pruneTest(ctx, c, i, s.target(c, i, lam))
			if !ok {
				return false, err
			}
			if !proven {
				break // too costly to prune this way: c is valued exactly
			}
			L = weakest()
		}
		if !s.mayBeat(c, L) {
			c.pruned = true
			return true, nil
		}
	}
	// A first leader (wide) has no leader to race: its draws are
	// independent, valued at once, a thread each (see solveOne).
	if L == nil && s.wide {
		if ok, err := s.exactDraws(ctx, c); !ok {
			return false, err
		}
	}
	// Then exact values, the draws without an upper bound first; every
	// step of the search may show that c cannot beat L after all.
	cannot := func() bool { return !s.mayBeat(c, weakest()) }
	for _, unbounded := range []bool{true, false} {
		for i := range s.draws {
			if c.lo[i] == c.hi[i] || (c.hi[i] >= inf) != unbounded {
				continue
			}
			done, err := s.exact(ctx, c, i, weakest)
			if err != nil || !done {
				return false, err
			}
			if cannot() {
				c.pruned = true
				return true, nil
			}
		}
	}
	c.wins, c.ties, c.losses, c.spread = 0, 0, 0, 0
	for i, d := range s.draws {
		f := c.lo[i]
		switch {
		case f > 0:
			c.wins += d.weight
		case f < 0:
			c.losses += d.weight
		default:
			c.ties += d.weight
		}
		c.spread += d.weight * f
	}
	c.spreadDone = true
	return true, nil
}

// exactDraws values every draw of c exactly, the threads taking draws in
// turn. It is for a candidate with no leader to race (a first leader):
// each draw's search then reads and narrows that draw's bounds only. ok is
// false when the solve was stopped.
func (s *solver) exactDraws(ctx context.Context, c *cand) (ok bool, err error) {
	none := func() *cand { return nil }
	var (
		next    atomic.Int32
		stopped atomic.Bool
		mu      sync.Mutex
		first   error
	)
	// A draw whose twin comes first is left to it (see twinOf), its
	// bounds copied once all are done.
	var draws []int
	for i := range s.draws {
		if j := s.twinOf(c, i); j < 0 || j > i {
			draws = append(draws, i)
		}
	}
	g := crash.Group{OnPanic: func() { stopped.Store(true) }}
	for range min(s.opts.Threads, len(draws)) {
		g.Go(func() {
			for !stopped.Load() {
				k := int(next.Add(1)) - 1
				if k >= len(draws) {
					return
				}
				done, err := s.exact(ctx, c, draws[k], none)
				if err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
				}
				if err != nil || !done {
					stopped.Store(true)
					return
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return false, err
	}
	if first != nil {
		return false, first
	}
	for _, i := range draws {
		if j := s.twinOf(c, i); j >= 0 {
			c.lo[j], c.hi[j] = c.lo[i], c.hi[i]
		}
	}
	return !stopped.Load(), nil
}

// test asks whether c's final spread with draw i is above t, by an
// endgame searched with the null window there, and narrows the draw's
// bounds by the answer. The bound kept is the fail-soft one the search
// returned, at or past t: it may depend on what the table held, but a
// bound only ever prunes a candidate that cannot beat the leader, and every
// one that can is valued exactly, so the answer does not depend on it. ok
// is false when the solve was stopped.
func (s *solver) test(ctx context.Context, c *cand, i, t int) (ok bool, err error) {
	var budget uint64
	if c.budget > 0 {
		s.mu.Lock()
		spent := c.spent
		s.mu.Unlock()
		if spent >= c.budget {
			return false, errDeferred
		}
		budget = c.budget - spent
		if s.wide {
			// The threads value this candidate's draws at once: each
			// takes its share of what is left, so that together they
			// stop near the budget (on p001, 2 threads, K13 (O)I
			// spent 15.6 million of its 8 before it was put off).
			budget = max(1, budget/uint64(s.opts.Threads))
		}
	}
	proven, err := s.nullTest(ctx, c, i, t, budget)
	if err == nil && !proven && budget > 0 && ctx.Err() == nil {
		return false, errDeferred // the budget ran out
	}
	return proven, err
}

// nullTest searches draw i of c with the null window at t, within nodes
// (0: no limit), and when the search finishes narrows the draw's bounds by
// the fail-soft bound it returned: an upper one when at or below t, else a
// lower one. proven says it finished.
func (s *solver) nullTest(ctx context.Context, c *cand, i, t int, nodes uint64) (proven bool, err error) {
	w := endgame.Window{Lo: t - s.spread0, Hi: t + 1 - s.spread0}
	res, err := s.solveDraw(ctx, c, &s.draws[i], w, s.perSolve(), 0, nodes)
	if err != nil || !res.Proven {
		return false, err
	}
	if f := s.spread0 + res.Value; f <= t {
		c.hi[i] = min(c.hi[i], f)
	} else {
		c.lo[i] = max(c.lo[i], f)
	}
	// The twin's game is this one (while the threads take the draws of
	// one candidate, wide, exactDraws copies the bounds once they are done).
	if j := s.twinOf(c, i); j >= 0 && !s.wide {
		c.lo[j], c.hi[j] = c.lo[i], c.hi[i]
	}
	return true, nil
}

// pruneTest is test for a threshold chosen to prune c (a race's share, or
// pruneAt's spread), within pruneTestNodes nodes unless c has a budget of
// its own. proven is false, with ok, when the test ran out of nodes: the
// bounds are as they were, and the caller values the draw from its playout
// instead. ok is false when the solve was stopped (or c's budget ran out,
// errDeferred).
//
// Such a threshold can be far below the candidate's value (one better than
// the leader it races), and a fail-high test there can cost thousands of
// times the exact value: in a one-tile position of the pre-endgame
// measurement (docs/benchmarks.md), F1 EVEN(L)Y with the C drawn is worth
// 46; asking whether it beats 0 took 28 million nodes, 45 took 0.02
// million, the full window 0.07. Weighted by inference, the playouts put
// a weaker first leader there, and the solve took 34.3 million nodes where
// the uniform one took 0.19; with the budget, 3.5 million. A fail-low
// test, the kind that prunes, is cheap there.
func (s *solver) pruneTest(ctx context.Context, c *cand, i, t int) (proven, ok bool, err error) {
	if c.budget > 0 {
		ok, err := s.test(ctx, c, i, t)
		return ok, ok, err
	}
	if overrunForTest != nil && overrunForTest() {
		return false, true, nil
	}
	proven, err = s.nullTest(ctx, c, i, t, pruneTestNodes)
	if err != nil || (!proven && ctx.Err() != nil) {
		return false, false, err
	}
	return proven, true, nil
}

// speculate, before draw i of c is probed at t (leader L's spread, or
// above it), tests it first just above the playout's value, within a small
// node budget (specNodes), when t is far above that value and the playouts
// see c close to L in all (specSlack). A fail-low test is cheap when the
// search meets the opponent's real refutation first, and can be very
// costly at a high threshold, where a weaker first move already suffices
// and every reply to it must then be refuted: on p001, 15N W(E) with the N
// drawn took 15.8 million nodes at 113 (WInzE's spread) and 0.01 million
// at 93, which returned 83. Near the playout the search may fail high
// instead, and then costs a great deal (a race run at such thresholds took
// over 200 million nodes on one p008 candidate): the budget bounds that
// loss. Its answer, when it comes, narrows the bounds, and the probe at t
// is needed only if it did not bound the draw at t or below.
func (s *solver) speculate(ctx context.Context, c *cand, i, t int, L *cand) error {
	if c.guess == nil || c.budget > 0 || t <= c.guess[i]+specAbove {
		return nil
	}
	g := c.guess[i] + specAbove
	if g < c.lo[i] || g >= c.hi[i] {
		return nil
	}
	total, w := 0, 0
	for j, d := range s.draws {
		total += d.weight * c.guess[j]
		w += d.weight
	}
	if L.spread-total >= specSlack*w {
		return nil // far below L: probes at L's spread are cheap
	}
	_, err := s.nullTest(ctx, c, i, g, specNodes)
	return err
}

// exact narrows draw i's bounds of c to its exact final spread by
// null-window tests (MTD(f)): the first at the playouts' guess (0 without
// one), each next one at the bound the last returned, until the bounds
// meet. With the table the endgames share, the tests near the value cost
// about what one search with the window between the bounds would, and the
// ones far from it little. While c races a leader, the first test is at
// the spread that would settle the race instead (pruneAt), when there is
// one: a single test then prunes c, where the steps from the guess would
// have narrowed the bounds to the value first (unless that test runs out
// of pruneTestNodes: then from the guess). It stops early, with ok,
// when c cannot beat the weakest leader; ok is false when the solve was
// stopped.
func (s *solver) exact(ctx context.Context, c *cand, i int, weakest func() *cand) (ok bool, err error) {
	g := 0
	if c.guess != nil {
		g = c.guess[i]
	}
	overran := false // a test at pruneAt's spread overran pruneTestNodes
	for c.lo[i] < c.hi[i] {
		L := weakest()
		if !s.mayBeat(c, L) {
			break
		}
		// Test "above t" with t = g in the bounds, one below the upper
		// bound at most, so that either answer narrows them.
		t := max(min(g, c.hi[i]-1), c.lo[i])
		if T, prune := s.pruneAt(c, i, L); prune && !overran {
			t = T
			proven, ok, err := s.pruneTest(ctx, c, i, t)
			if !ok {
				return false, err
			}
			if !proven {
				overran = true
				continue
			}
		} else if ok, err := s.test(ctx, c, i, t); !ok {
			return false, err
		}
		if c.hi[i] <= t {
			g = c.hi[i]
		} else {
			g = c.lo[i]
		}
	}
	return true, nil
}

// probeOrder is the order settle probes c's draws against leader L in:
// by how much the playouts' guess for c falls short of L's exact spread,
// most first (the draw order without guesses).
func (s *solver) probeOrder(c *cand, L *cand) []int {
	idx := make([]int, len(s.draws))
	for i := range idx {
		idx[i] = i
	}
	if c.guess != nil {
		slices.SortStableFunc(idx, func(a, b int) int {
			// A draw L wins and c is seen losing or tying first: a no
			// there may settle the race on the win count.
			ka, kb := c.guess[a] <= 0 && L.lo[a] > 0, c.guess[b] <= 0 && L.lo[b] > 0
			if ka != kb {
				if ka {
					return -1
				}
				return 1
			}
			return cmp.Compare(c.guess[a]-L.lo[a], c.guess[b]-L.lo[b])
		})
	}
	return idx
}

// pruneAt returns the largest t in draw i's open bounds of c (lo <= t <
// hi) at which an upper bound of t would show that c cannot beat leader L,
// if there is one: the single test that can settle the race on this draw.
func (s *solver) pruneAt(c *cand, i int, L *cand) (t int, ok bool) {
	if L == nil {
		return 0, false
	}
	// A test of draw i bounds its twin too (see twinOf).
	j := s.twinOf(c, i)
	set := func(h int) {
		c.hi[i] = h
		if j >= 0 {
			c.hi[j] = h
		}
	}
	h := c.hi[i]
	defer set(h)
	lo, hi := c.lo[i], h-1
	if set(lo); lo > hi || s.mayBeat(c, L) {
		return 0, false
	}
	for lo < hi { // mayBeat is false at lo: find the last t where it is
		mid := lo + (hi-lo+1)/2
		if set(mid); s.mayBeat(c, L) {
			hi = mid - 1
		} else {
			lo = mid
		}
	}
	return lo, true
}

// perSolve is the threads each endgame gets: one, as the threads take
// candidates in turn, unless there are fewer candidates than threads
// (valuing one move, say): then the endgame's own threads share them.
// While the first leaders are valued (wide) the threads take draws in turn:
// one each.
func (s *solver) perSolve() int {
	if s.wide {
		return 1
	}
	return max(1, s.opts.Threads/min(len(s.cands), s.opts.Threads))
}

// mayBeat says whether c, given its bounds, may still rank above the exact
// leader L (always, without one).
func (s *solver) mayBeat(c, L *cand) bool {
	if L == nil {
		return true
	}
	key, sum := 0, 0
	for i, d := range s.draws {
		key += drawWinKey(c.hi[i], d.weight)
		if sum < inf {
			if c.hi[i] >= inf {
				sum = inf
			} else {
				sum += d.weight * c.hi[i]
			}
		}
	}
	// At equal records the estimate's order decides, as in rankExact, so
	// the leaders do not depend on which thread settled what first.
	lk := L.winKey()
	if plantedBug {
		return key > lk
	}
	return key > lk || (key == lk && (sum > L.spread || (sum == L.spread && c.order < L.order)))
}

// rankExact orders exact candidates: win percentage, mean spread, then the
// estimate's order.
func rankExact(a, b *cand) int {
	if c := cmp.Compare(b.winKey(), a.winKey()); c != 0 {
		return c
	}
	if c := cmp.Compare(b.spread, a.spread); c != 0 {
		return c
	}
	return cmp.Compare(a.order, b.order)
}

// winPct is an exact candidate's win percentage.
func (s *solver) winPct(c *cand) float64 {
	return 100 * float64(c.winKey()) / float64(2*s.total)
}

// endgameContext is the context the endgames run under: cancelled when the
// solve's is done, but without its deadline, which would make the endgame
// solver value its leaves by playouts (see endgame.Options.Plies) instead
// of proving them.
func (s *solver) endgameContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(s.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// plantedBug, set by a test only, leaves the spread out of the pruning, to
// show that the comparison with the brute force catches a wrong ranking.
var plantedBug = false

// endgameInf is a window edge beyond any value.
const endgameInf = 10000

// firstLeaderNodes is the node budget of a candidate valued with no leader
// to race (a variable: the tests make it small so that candidates are put
// off and come back).
var firstLeaderNodes uint64 = 8_000_000

// The speculative tests (see speculate): a candidate whose playouts total
// less than specSlack points a draw below the leader's spread (or above
// it) has a draw it is probed on at more than specAbove points over its
// playout tested at specAbove over it first, within specNodes nodes.
// Variables: the tests change them to speculate on every probe.
var (
	specSlack        = 4
	specAbove        = 4
	specNodes uint64 = 50_000
)

// pruneTestNodes bounds a test made only to prune (see pruneTest).
var pruneTestNodes uint64 = 1_000_000

// overrunForTest, set by a test only, makes pruneTest answer that its test
// ran out of nodes when it returns true: the small positions the brute
// force can check never reach the endgame's node check (every 1,024
// nodes), so the tests need it to take that path.
var overrunForTest func() bool

// raceStopForTest, set by a test only, is asked as the exact race of a
// two-tile solve with a time limit settles each candidate whether to stop
// the race there, as the end of the time would (see
// solveStagedThenExact).
var raceStopForTest func(settled int) bool

// errDeferred says a candidate's node budget ran out: it is settled later.
var errDeferred = errors.New("peg: put off")

// spreadRace says whether c, given its bounds, can at best tie L's win
// percentage, so that only the spread may still rank it above L.
func (s *solver) spreadRace(c, L *cand) bool {
	key := 0
	for i, d := range s.draws {
		key += drawWinKey(c.hi[i], d.weight)
	}
	return key <= L.winKey()
}

// drawWinKey is a draw's part of a record's win key (see cand.winKey) when
// its final spread is at most h: weight twice for a win, once for a tie.
func drawWinKey(h, weight int) int {
	switch {
	case h > 0:
		return 2 * weight
	case h == 0:
		return weight
	}
	return 0
}

// planRange bounds the share of slack plan looks for: past any spread.
const planRange = 4096

// target is the threshold draw i of c is tested at under a plan giving
// each open draw lam above its playout (clamped into the draw's bounds).
func (s *solver) target(c *cand, i, lam int) int {
	g := 0
	if c.guess != nil {
		g = c.guess[i]
	}
	return max(min(g+lam, c.hi[i]-1), c.lo[i])
}

// mayBeatAt is mayBeat with every open draw's upper bound at its target
// for lam.
func (s *solver) mayBeatAt(c, L *cand, lam int) bool {
	key, sum := 0, 0
	for i, d := range s.draws {
		h := c.hi[i]
		if c.lo[i] < h {
			h = s.target(c, i, lam)
		}
		key += drawWinKey(h, d.weight)
		sum += d.weight * h // finite: an open draw's target is
	}
	lk := L.winKey()
	return key > lk || (key == lk && (sum > L.spread || (sum == L.spread && c.order < L.order)))
}

// plan returns the largest share lam at which every open draw of c
// bounded at its target would show that c cannot beat L; ok is false when
// none does (c's lower bounds already beat L).
func (s *solver) plan(c, L *cand) (lam int, ok bool) {
	lo, hi := -planRange, planRange
	if s.mayBeatAt(c, L, lo) {
		return 0, false
	}
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if s.mayBeatAt(c, L, mid) {
			hi = mid - 1
		} else {
			lo = mid
		}
	}
	return lo, true
}

// pick is the open draw of c to test next under plan lam: the first one
// without an upper bound in order, else the one whose bound must fall most.
func (s *solver) pick(c *cand, lam int, order []int) int {
	best, gap := -1, -1
	for _, i := range order {
		if c.lo[i] == c.hi[i] {
			continue
		}
		if c.hi[i] >= inf {
			return i
		}
		if g := s.draws[i].weight * (c.hi[i] - s.target(c, i, lam)); g > gap {
			best, gap = i, g
		}
	}
	return best
}
