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
	if err := s.playouts(s.cands, s.sampleDraws(maxPlayoutDraws), nil); err != nil {
		return err
	}
	key := func(c *cand) int { return 2*c.estWins + c.estTies }
	slices.SortStableFunc(s.cands, func(a, b *cand) int {
		if c := cmp.Compare(key(b), key(a)); c != 0 {
			return c
		}
		return cmp.Compare(b.estimate, a.estimate)
	})
	for k, c := range s.cands {
		c.order = k
	}
	return nil
}

// playouts values each of cs by a greedy playout of each of draws (every
// draw, or a sample): the weights won and tied (c.estWins, c.estTies) and
// the sum of weight x final spread (c.estimate), draws' weight in
// c.estWeight. When draws are every draw, c.guess keeps each one's
// playout. done, if set, is called (one call at a time) as each
// candidate is valued; a stop of the context leaves the rest as they were.
func (s *solver) playouts(cs []*cand, draws []draw, done func(*cand)) error {
	weight := 0
	for _, d := range draws {
		weight += d.weight
	}
	var next int
	var mu sync.Mutex
	// A panic leaves the other workers nothing more to take.
	wg := crash.Group{OnPanic: func() { mu.Lock(); next = len(cs); mu.Unlock() }}
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
				if i >= len(cs) || s.ctx.Err() != nil {
					return
				}
				c := cs[i]
				var guess []int
				if len(draws) == len(s.draws) {
					guess = make([]int, len(draws))
				}
				wins, ties, sum := 0, 0, 0
				for k, d := range draws {
					f := s.spread0 + s.playout(g, base, &c.m, &d)
					if guess != nil {
						guess[k] = f
					}
					switch {
					case f > 0:
						wins += d.weight
					case f == 0:
						ties += d.weight
					}
					sum += d.weight * f
				}
				mu.Lock()
				c.estWins, c.estTies, c.estimate, c.estWeight, c.guess = wins, ties, float64(sum), weight, guess
				if done != nil {
					done(c)
				}
				mu.Unlock()
			}
		})
	}
	return wg.Wait()
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

// sampleDraws returns at most n of the draws: all of them, or an evenly
// spaced sample of the enumeration (the same on every run).
func (s *solver) sampleDraws(n int) []draw {
	if len(s.draws) <= n {
		return s.draws
	}
	out := make([]draw, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, s.draws[i*len(s.draws)/n])
	}
	return out
}
