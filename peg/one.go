package peg

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"scrabble/endgame"
	"scrabble/internal/crash"
)

// solveOne solves a pre-endgame with one tile in the bag exactly.
//
// The first Top candidates (in the estimate's order) are solved exactly:
// every bag tile's endgame to its value. They are the leaders, ranked by
// win percentage, then mean spread. Every other candidate must beat the
// weakest leader, L, to enter: for each bag tile it is first asked only
// whether it does better than L does with that tile, a search with the
// null window at L's final spread (much cheaper than the exact value). A
// no bounds the draw's spread by L's, and when L loses with that tile it
// settles the draw as a loss. The last draw left open is asked instead
// whether it does better than the spread that would settle the race, when
// the other draws' bounds leave L some slack there and the playouts see the
// candidate beating L on it. As soon as the bounds show the candidate can
// no longer beat L (on win percentage, or on spread at equal win
// percentage) it is pruned; one that may still beat L is solved exactly,
// draw by draw while it may, and if it does it becomes a leader and the
// weakest leader goes.
//
// A bound may depend on what the shared table held (the searches are
// fail-soft), so the work done may differ from run to run with several
// threads. The answer does not: a bound only ever prunes a candidate that
// cannot beat an exact leader, and every one that can is valued exactly;
// ties between equal records go by the estimate's order.
func (s *solver) solveOne() error {
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
		leaders []*cand // exact, best first
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
		ok, err := s.settle(ctx, c, weakest)
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
				f(Progress{Stage: "exact", Done: settled, Of: len(s.cands), Best: b.notation, BestWinPct: s.winPct(b)})
			}
		}()
		return true
	}
	// The first Top candidates, the first leaders, are valued one after
	// another, the threads taking each one's draws in turn: a thread
	// taking a candidate of its own before there is a leader would value
	// it exactly, with nothing to prune it against (on p008, 2 threads,
	// the second candidate's values took 66 million nodes, where probes
	// against the first leader settle it with 0.2 million).
	if s.opts.Threads > 1 {
		seed := crash.Group{}
		seed.Go(func() {
			s.wide = true
			defer func() { s.wide = false }()
			for next < min(s.opts.Top, len(s.cands)) && ctx.Err() == nil {
				c := s.cands[next]
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
			if next >= len(s.cands) || first != nil || ctx.Err() != nil {
				mu.Unlock()
				return
			}
			c := s.cands[next]
			next++
			mu.Unlock()
			if !one(c) {
				return
			}
		}
	}
	// A panic leaves the other workers nothing more to take.
	wg := crash.Group{OnPanic: func() { mu.Lock(); next = len(s.cands); mu.Unlock() }}
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
		// the playouts see c doing worst against L first. The last one
		// open, if the playouts see c beating L there, is probed at the
		// spread that settles the race (pruneAt) when that is above
		// L's: proving c above L's spread is the costly kind of search
		// (every reply refuted), and needless when c loses the race
		// anyway. Where c is expected below L, L's spread it is: the
		// table holds bounds at that threshold from the other
		// candidates' probes, and a higher one reuses fewer (on p009 a
		// pass's last probe took 1.6 million nodes at the threshold
		// that settles the race, 0.4 million at L's).
		for _, i := range s.probeOrder(c, L) {
			if c.lo[i] == c.hi[i] {
				continue
			}
			t := L.lo[i]
			if c.guess == nil || c.guess[i] > t {
				if T, ok := s.pruneAt(c, i, L); ok && T > t {
					t = T
				}
			}
			if ok, err := s.test(ctx, c, i, t); !ok {
				return false, err
			}
			if L = weakest(); !s.mayBeat(c, L) {
				c.pruned = true
				return true, nil
			}
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
	g := crash.Group{OnPanic: func() { stopped.Store(true) }}
	for range min(s.opts.Threads, len(s.draws)) {
		g.Go(func() {
			for !stopped.Load() {
				i := int(next.Add(1)) - 1
				if i >= len(s.draws) {
					return
				}
				done, err := s.exact(ctx, c, i, none)
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
	w := endgame.Window{Lo: t - s.spread0, Hi: t + 1 - s.spread0}
	res, err := s.solveDraw(ctx, c, &s.draws[i], w, s.perSolve(), 0, 0)
	if err != nil || !res.Proven {
		return false, err
	}
	if f := s.spread0 + res.Value; f <= t {
		c.hi[i] = min(c.hi[i], f)
	} else {
		c.lo[i] = max(c.lo[i], f)
	}
	return true, nil
}

// exact narrows draw i's bounds of c to its exact final spread by
// null-window tests (MTD(f)): the first at the playouts' guess (0 without
// one), each next one at the bound the last returned, until the bounds
// meet. With the table the endgames share, the tests near the value cost
// about what one search with the window between the bounds would, and the
// ones far from it little. While c races a leader, the first test is at
// the spread that would settle the race instead (pruneAt), when there is
// one: a single test then prunes c, where the steps from the guess would
// have narrowed the bounds to the value first. It stops early, with ok,
// when c cannot beat the weakest leader; ok is false when the solve was
// stopped.
func (s *solver) exact(ctx context.Context, c *cand, i int, weakest func() *cand) (ok bool, err error) {
	g := 0
	if c.guess != nil {
		g = c.guess[i]
	}
	for c.lo[i] < c.hi[i] {
		L := weakest()
		if !s.mayBeat(c, L) {
			break
		}
		// Test "above t" with t = g in the bounds, one below the upper
		// bound at most, so that either answer narrows them.
		t := max(min(g, c.hi[i]-1), c.lo[i])
		if T, ok := s.pruneAt(c, i, L); ok {
			t = T
		}
		if ok, err := s.test(ctx, c, i, t); !ok {
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
	h := c.hi[i]
	defer func() { c.hi[i] = h }()
	lo, hi := c.lo[i], h-1
	if c.hi[i] = lo; lo > hi || s.mayBeat(c, L) {
		return 0, false
	}
	for lo < hi { // mayBeat is false at lo: find the last t where it is
		mid := lo + (hi-lo+1)/2
		if c.hi[i] = mid; s.mayBeat(c, L) {
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
		switch h := c.hi[i]; {
		case h > 0:
			key += 2 * d.weight
		case h == 0:
			key += d.weight
		}
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
	total := 0
	for _, d := range s.draws {
		total += d.weight
	}
	return 100 * float64(c.winKey()) / float64(2*total)
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
