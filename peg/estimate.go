package peg

import (
	"cmp"
	"slices"
	"sync"

	"scrabble/internal/crash"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// orderByPlayouts orders the candidates by a quick estimate, as MAGPIE's
// first stage does: each draw played out greedily (both sides play their
// highest-scoring move to the end), the record and mean spread of those
// playouts ranking the moves. The exact stage then meets the strong
// candidates first, and their records prune the rest sooner. The estimate
// is the same for any number of threads. A worker's panic is the error.
func (s *solver) orderByPlayouts() error {
	type est struct{ key, sum int }
	draws := s.sampleDraws()
	ests := make([]est, len(s.cands))
	var next int
	var mu sync.Mutex
	// A panic leaves the other workers nothing more to take.
	wg := crash.Group{OnPanic: func() { mu.Lock(); next = len(s.cands); mu.Unlock() }}
	base := movegen.New(s.tables)
	base.SetBoard(&s.pos.Board)
	for w := 0; w < s.opts.Threads; w++ {
		wg.Go(func() {
			g := movegen.New(s.tables)
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(s.cands) || s.ctx.Err() != nil {
					return
				}
				c := s.cands[i]
				var e est
				if len(draws) == len(s.draws) {
					c.guess = make([]int, len(draws))
				}
				for k, d := range draws {
					f := s.spread0 + s.playout(g, base, &c.m, &d)
					if c.guess != nil {
						c.guess[k] = f
					}
					switch {
					case f > 0:
						e.key += 2 * d.weight
						c.estWins += d.weight
					case f == 0:
						e.key += d.weight
						c.estTies += d.weight
					}
					e.sum += d.weight * f
				}
				ests[i] = e
				c.estimate = float64(e.sum)
			}
		})
	}
	if err := wg.Wait(); err != nil {
		return err
	}
	idx := make([]int, len(s.cands))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(ests[b].key, ests[a].key); c != 0 {
			return c
		}
		return cmp.Compare(ests[b].sum, ests[a].sum)
	})
	sorted := make([]*cand, len(idx))
	for k, i := range idx {
		sorted[k] = s.cands[i]
		sorted[k].order = k
	}
	s.cands = sorted
	return nil
}

// playout plays first move m with draw d, then both sides' highest-scoring
// moves to the end of the game, and returns the spread the player to move
// gains.
func (s *solver) playout(g, base *movegen.Generator, first *move.Move, d *draw) int {
	g.CopyBoard(base)
	racks := [2]rules.Rack{s.pos.Racks[0], d.opp}
	bag := d.bag
	n := s.opts.ScorelessTurns
	if n == 0 {
		n = rules.MaxScorelessTurns
	}
	scoreless := s.pos.ZeroTurns
	if n < rules.MaxScorelessTurns {
		scoreless = 0
	}
	v, sign, side := 0, 1, 0
	for turn := 0; ; turn++ {
		mover, opp := &racks[side], &racks[1-side]
		var m move.Move
		ok := true
		if turn == 0 {
			m = *first
		} else {
			m, ok = g.Best(mover, 0, movegen.Options{})
		}
		score := 0
		if ok && m.Kind == move.Play {
			score = int(m.Score)
			mover.Sub(m.Used())
			g.Apply(&m)
			k := min(int(m.NumTiles), len(bag))
			for _, t := range bag[:k] {
				mover.Add(t)
			}
			bag = bag[k:]
			if mover.Count() == 0 {
				return v + sign*(score+2*opp.Value())
			}
		}
		v += sign * score
		if score > 0 {
			scoreless = 0
		} else {
			scoreless++
		}
		if scoreless >= n {
			return v + sign*(opp.Value()-mover.Value())
		}
		side, sign = 1-side, -sign
	}
}

// maxPlayoutDraws bounds the draws the playouts value per candidate: with
// three or more tiles in the bag the draw orders number in the thousands.
const maxPlayoutDraws = 256

// sampleDraws returns the draws the playouts value: all of them, or past
// maxPlayoutDraws an evenly spaced sample of the enumeration (the same on
// every run). sampleWeight is their total weight.
func (s *solver) sampleDraws() []draw {
	if len(s.draws) <= maxPlayoutDraws {
		s.sampleWeight = s.totalWeight()
		return s.draws
	}
	out := make([]draw, 0, maxPlayoutDraws)
	s.sampleWeight = 0
	for i := 0; i < maxPlayoutDraws; i++ {
		d := s.draws[i*len(s.draws)/maxPlayoutDraws]
		out = append(out, d)
		s.sampleWeight += d.weight
	}
	return out
}

// totalWeight is the weight of every draw.
func (s *solver) totalWeight() int {
	total := 0
	for _, d := range s.draws {
		total += d.weight
	}
	return total
}
