package peg

import (
	"sync"

	"scrabble/internal/crash"
)

// stagedExact is how many of the best candidates by estimate a staged solve
// solves exactly, when Top asks for fewer.
const stagedExact = 4

// solveStaged solves a pre-endgame with more than one tile in the bag, in
// stages, so that an answer comes within the time given. Each draw order
// is the game with perfect information after it (the bag's order known to
// both sides), weighted by how many ways of picking the unseen tiles give
// it.
//
//  1. Every candidate is valued by a greedy playout of every draw order
//     (orderByPlayouts): its record and mean spread are estimates.
//  2. The best max(Top, 4) by that estimate are solved exactly, draw order
//     by draw order, best first, as long as the context allows: a
//     candidate whose every endgame was proven has an exact record
//     (Candidate.Proven).
//
// A move the estimate ranks low is never solved exactly, so the answer is
// not proven even when stage 2 completes (Result.Proven is false); which
// records are exact is said candidate by candidate.
func (s *solver) solveStaged() error {
	if err := s.orderByPlayouts(); err != nil {
		return err
	}
	if s.stopped = s.stoppedBy(); s.stopped != "" {
		return nil
	}
	// Estimates of every candidate.
	for _, c := range s.cands {
		s.recordEstimate(c)
		c.done, c.stage = true, 1
	}
	ctx, cancel := s.endgameContext()
	defer cancel()
	k := min(max(s.opts.Top, stagedExact), len(s.cands))
	var first error
	var mu sync.Mutex
	for _, c := range s.cands[:k] {
		vals := make([]int, len(s.draws))
		var next int
		// A panic leaves the other workers nothing more to take.
		wg := crash.Group{OnPanic: func() { mu.Lock(); next = len(s.draws); mu.Unlock() }}
		stopped := false
		for w := 0; w < s.opts.Threads; w++ {
			wg.Go(func() {
				for {
					mu.Lock()
					i := next
					next++
					mu.Unlock()
					if i >= len(s.draws) {
						return
					}
					res, err := s.solveDraw(ctx, c, &s.draws[i], noWindow, 1, 0, 0)
					mu.Lock()
					switch {
					case err != nil:
						if first == nil {
							first = err
						}
					case !res.Proven:
						stopped = true
					default:
						vals[i] = s.spread0 + res.Value
					}
					mu.Unlock()
					if err != nil || !res.Proven {
						return
					}
				}
			})
		}
		if err := wg.Wait(); err != nil {
			return err
		}
		if first != nil {
			return first
		}
		if stopped {
			break
		}
		c.wins, c.ties, c.losses, c.spread = 0, 0, 0, 0
		for i, d := range s.draws {
			switch f := vals[i]; {
			case f > 0:
				c.wins += d.weight
			case f < 0:
				c.losses += d.weight
			default:
				c.ties += d.weight
			}
			c.spread += d.weight * vals[i]
		}
		c.spreadDone, c.stage = true, 0
		if f := s.opts.Progress; f != nil {
			f(Progress{Stage: "exact", Done: c.order + 1, Of: k, Best: c.notation, Endgames: s.endgames})
		}
	}
	s.stopped = s.stoppedBy()
	return nil
}

// recordEstimate gives c the record of its playouts (see orderByPlayouts).
// The playouts may have valued a sample of the draws: their counts are
// scaled to all of them.
func (s *solver) recordEstimate(c *cand) {
	total, sample := s.totalWeight(), s.sampleWeight
	scale := func(n int) int { return int(int64(n) * int64(total) / int64(sample)) }
	c.wins, c.ties = scale(c.estWins), scale(c.estTies)
	c.losses = total - c.wins - c.ties
	c.estimate /= float64(sample)
}
