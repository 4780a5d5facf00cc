package peg

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"scrabble/internal/crash"
)

// stagedExact is how many of the best candidates by estimate a staged solve
// solves exactly, when Top asks for fewer.
const stagedExact = 4

// depthStage is a stage of a staged solve between the playouts and the
// exact endgames: the best cands candidates of the stage before, each
// valued over the draws by endgame searches cut at plies (the candidate's
// move the first), their leaves valued by greedy playouts.
type depthStage struct{ plies, cands, draws int }

// depthStages are a staged solve's depth-limited stages, shallow first.
// With the bag not empty an exact endgame takes millions of nodes (a
// three-tile position: 2.3 million a draw order); a search of a few plies
// sees the opponent's best reply and the mover's answer to it, and the draw
// that follows, at a small fraction of that.
var depthStages = []depthStage{{plies: 2, cands: 8, draws: 64}, {plies: 3, cands: 3, draws: 64}}

// DefaultEndgameNodes is the node budget of each endgame of a staged
// solve's depth-limited stages (Options.EndgameNodes): when it runs out
// the deepest iteration completed is the value.
const DefaultEndgameNodes = 200_000

// playoutStages are a staged solve's first stages: every candidate played
// out with one draw (cands 0: all), then the best of them over more draws.
// With three or four tiles in the bag a candidate has hundreds or
// thousands of draw orders, and a position with a blank thousands of
// candidates (12,506 in a four-tile position of a self-play game): 256
// draws each would be 3.2 million playouts. One draw, the same for every
// candidate, compares them on equal terms.
var playoutStages = []struct{ draws, cands int }{{1, 0}, {16, 400}, {maxPlayoutDraws, 48}}

// solveStagedThenExact solves a two-tile pre-endgame within its time
// limit: first in stages (solveStaged), and if they complete with time
// left, the exact race (solveOneExact) with the rest, whose answer, if it
// completes, is proven. A race stopped by the limit leaves the staged
// answer as it was, so the answer is never worse than the staged solve's
// at the same limit. The race starts from fresh candidates; the endgame
// table keeps what the stages learnt. (Racing first, for a share of the
// limit, cost the staged answer its depth at 3 s a move and proved none
// of 12 self-play positions there; see docs/peg.md.)
func (s *solver) solveStagedThenExact() error {
	if err := s.solveStaged(); err != nil || s.stopped != "" || !raceAfterStages {
		return err
	}
	staged, pruned := s.cands, s.pruned
	s.cands = nil
	if err := s.candidates(); err != nil {
		return err
	}
	outer := s.ctx
	ctx, cancel := context.WithCancel(outer)
	s.ctx, s.stopRace, s.raceStage = ctx, cancel, proofStage
	err := s.solveOneExact()
	cancel()
	s.ctx, s.stopRace = outer, nil
	if err != nil || s.proven {
		return err
	}
	// Stopped: the staged answer stands, and says why the race stopped.
	s.cands, s.pruned = staged, pruned
	s.stopped = s.stoppedBy()
	return nil
}

// proofStage is the Progress stage of the exact race after the stages.
const proofStage = "proof"

// raceAfterStages: solveStagedThenExact races when the stages complete (a
// variable: the tests of the stages turn it off).
var raceAfterStages = true

// stageOf is a candidate's stage (cand.stage) once stage i of the
// estimates (playoutStages, then depthStages) has valued it: exact
// records are 0, the estimates of later stages rank before earlier ones.
func stageOf(i int) int { return len(playoutStages) + len(depthStages) - i }

// solveStaged solves a pre-endgame with more than one tile in the bag, in
// stages, so that an answer comes within the time given. Each draw order
// is the game with perfect information after it (the bag's order known to
// both sides), weighted by how many ways of picking the unseen tiles give
// it.
//
//  1. Every candidate is valued by greedy playouts of a sample of the
//     draws, then the best of them over larger samples (playoutStages).
//  2. The best by that estimate are valued again by depth-limited
//     endgame searches (depthStages), each stage taking the best of the
//     one before, over the draws merged per tiles drawn (mergeDraws).
//  3. The best max(Top, 4) by the last estimate are solved exactly, as
//     long as the context allows: a candidate whose every endgame was
//     proven has an exact record (Candidate.Proven).
//
// A stage stopped by the context keeps the candidates it finished; the
// others keep the estimate of the stage before. The ranking puts exact
// records first, then the deeper estimates: a candidate valued deeper was
// among the best of the shallower stage. A move the estimates rank low is
// never solved exactly, so the answer is not proven even when stage 3
// completes (Result.Proven is false).
func (s *solver) solveStaged() error {
	ranked := slices.Clone(s.cands)
	for i, st := range playoutStages {
		n := len(ranked)
		if st.cands > 0 {
			n = min(max(st.cands, s.opts.Top), n)
		}
		err := s.playouts(ranked[:n], s.sampleDraws(st.draws), func(c *cand) {
			s.recordEstimate(c)
			c.stage = stageOf(i)
			// A first stage cut short ranks none: the candidates it
			// valued are not the best of anything.
			c.done = i > 0
		})
		if err != nil {
			return err
		}
		if s.stopped = s.stoppedBy(); s.stopped != "" {
			return nil
		}
		for _, c := range ranked[:n] {
			c.done = true
		}
		s.rank(ranked)
		if f := s.opts.Progress; f != nil {
			f(Progress{Stage: fmt.Sprintf("playouts of %d draws", st.draws), Done: n, Of: n, Best: ranked[0].notation, BestWinPct: s.winPct(ranked[0])})
		}
	}
	s.mergeByTiles()
	if err := s.deepen(ranked); err != nil || s.stopped != "" {
		return err
	}
	ctx, cancel := s.endgameContext()
	defer cancel()
	k := min(max(s.opts.Top, stagedExact), len(ranked))
	var best *cand
	for done, c := range ranked[:k] {
		ds := s.byTiles[s.tilesDrawn(c)]
		vals, ok, err := s.valueDraws(ctx, c, ds, 0)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		c.spread, c.spreadDone = s.record(c, ds, vals), true
		c.stage, c.plies = 0, 0
		if best == nil || rank(c, best) < 0 {
			best = c
		}
		if f := s.opts.Progress; f != nil {
			f(Progress{Stage: "exact", Done: done + 1, Of: k, Best: best.notation, BestWinPct: s.winPct(best), Endgames: s.endgames})
		}
	}
	s.stopped = s.stoppedBy()
	return nil
}

// mergeByTiles sets s.byTiles: a draw order and another that differs only
// in the tiles a first move draws are the same game after it, one endgame
// for both.
func (s *solver) mergeByTiles() {
	s.byTiles = make([][]draw, s.bagLen+1)
	for k := range s.byTiles {
		s.byTiles[k] = mergeDraws(s.draws, k)
	}
}

// deepen values the best of ranked (ranked by the estimates so far) by the
// depth-limited stages, each taking the best of the one before, and ranks
// them again. A stage goes round by round (depthRound draws of every
// candidate a round, the draws in spreadOrder), and after each round every
// candidate's record is that of the rounds done: a stop of the context
// sets s.stopped and leaves the stage's candidates valued on the rounds
// completed (the estimate they had before when none was).
func (s *solver) deepen(ranked []*cand) error {
	ctx, cancel := s.endgameContext()
	defer cancel()
	for i, st := range depthStages {
		i += len(playoutStages)
		n := min(st.cands, len(ranked))
		cs := ranked[:n] // not reordered until the stage ends or stops
		draws := make([][]draw, n)
		vals := make([][]int, n)
		rounds := 0
		for k, c := range cs {
			draws[k] = s.stageDraws(c, st.draws)
			rounds = max(rounds, (len(draws[k])+depthRound-1)/depthRound)
		}
		for r := range rounds {
			for k, c := range cs {
				ds := draws[k][min(r*depthRound, len(draws[k])):min((r+1)*depthRound, len(draws[k]))]
				if len(ds) == 0 {
					continue
				}
				v, ok, err := s.valueDraws(ctx, c, ds, st.plies)
				if err != nil {
					return err
				}
				if !ok {
					s.stopped = s.stoppedBy()
					s.rank(ranked)
					return nil
				}
				vals[k] = append(vals[k], v...)
			}
			// The round is complete: every candidate's record is that
			// of its draws valued so far.
			var best *cand
			for k, c := range cs {
				s.record(c, draws[k][:len(vals[k])], vals[k])
				c.stage, c.plies = stageOf(i), st.plies
				if best == nil || rank(c, best) < 0 {
					best = c
				}
			}
			if f := s.opts.Progress; f != nil {
				f(Progress{Stage: fmt.Sprintf("%d plies", st.plies), Done: r + 1, Of: rounds, Rounds: true, Best: best.notation, BestWinPct: s.winPct(best), Endgames: s.endgames})
			}
		}
		s.rank(ranked)
	}
	return nil
}

// depthRound is how many draws of each candidate a round of a
// depth-limited stage values: the stage's answer, stopped by the clock,
// is that of the rounds done.
const depthRound = 8

// rank sorts cs as the answer ranks them (see rank).
func (s *solver) rank(cs []*cand) {
	slices.SortStableFunc(cs, rank)
}

// tilesDrawn is how many bag tiles c's move draws.
func (s *solver) tilesDrawn(c *cand) int { return min(int(c.m.NumTiles), s.bagLen) }

// stageDraws returns the draws a depth-limited stage values c over: every
// distinct draw after c's move, or past n an evenly spaced sample of them,
// in spreadOrder, so that the first rounds of a stage are spread over the
// enumeration too (whose first draws all start with the blank, say).
func (s *solver) stageDraws(c *cand, n int) []draw {
	all := s.byTiles[s.tilesDrawn(c)]
	m := min(n, len(all))
	ds := make([]draw, m)
	for i, j := range spreadOrder(m) {
		ds[i] = all[j*len(all)/m]
	}
	return ds
}

// spreadOrder returns 0 to n-1 in bit-reversed order (0, n/2, n/4, 3n/4,
// ... for a power of two): each prefix is spread over the whole range.
func spreadOrder(n int) []int {
	bits := 0
	for 1<<bits < n {
		bits++
	}
	out := make([]int, 0, n)
	for i := range 1 << bits {
		r := 0
		for b := range bits {
			if i&(1<<b) != 0 {
				r |= 1 << (bits - 1 - b)
			}
		}
		if r < n {
			out = append(out, r)
		}
	}
	return out
}

// valueDraws solves the endgame after c's move with each of the draws ds,
// the threads taking them in turn: exactly with plies 0, else cut at that
// depth within Options.EndgameNodes. vals holds each draw's final spread;
// ok is false when the context stopped the work first.
func (s *solver) valueDraws(ctx context.Context, c *cand, ds []draw, plies int) (vals []int, ok bool, err error) {
	vals = make([]int, len(ds))
	var nodes uint64
	if plies > 0 {
		nodes = s.opts.EndgameNodes
	}
	var next int
	var mu sync.Mutex
	var first error
	stopped := false
	// A panic leaves the other workers nothing more to take.
	wg := crash.Group{OnPanic: func() { mu.Lock(); next = len(ds); mu.Unlock() }}
	for w := 0; w < s.opts.Threads; w++ {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(ds) {
					return
				}
				if s.ctx.Err() != nil {
					mu.Lock()
					stopped, next = true, len(ds)
					mu.Unlock()
					return
				}
				res, err := s.solveDraw(ctx, c, &ds[i], noWindow, 1, plies, nodes)
				mu.Lock()
				switch {
				case err != nil:
					if first == nil {
						first = err
					}
				// A stop leaves an exact search unproven, a cut one
				// valued at a shallower iteration. (The solve's context,
				// not ctx: ctx follows it a moment later.)
				case s.ctx.Err() != nil || (plies == 0 && !res.Proven):
					stopped = true
				default:
					vals[i] = s.spread0 + res.Value
				}
				quit := first != nil || stopped
				if quit {
					next = len(ds)
				}
				mu.Unlock()
				if quit {
					return
				}
			}
		})
	}
	if err := wg.Wait(); err != nil {
		return nil, false, err
	}
	if first != nil {
		return nil, false, first
	}
	return vals, !stopped, nil
}

// record gives c the record of its draws ds valued vals (see setRecord)
// and returns the sum of weight x final spread over ds (exact when ds are
// all the draws).
func (s *solver) record(c *cand, ds []draw, vals []int) (sum int) {
	wins, ties, weight := 0, 0, 0
	for i, d := range ds {
		switch f := vals[i]; {
		case f > 0:
			wins += d.weight
		case f == 0:
			ties += d.weight
		}
		sum += d.weight * vals[i]
		weight += d.weight
	}
	s.setRecord(c, wins, ties, sum, weight)
	return sum
}

// setRecord gives c the record of draws of the given weight with wins and
// ties of those weights and sum of weight x final spread, the counts
// scaled to every draw's weight when the draws were a sample.
func (s *solver) setRecord(c *cand, wins, ties, sum, weight int) {
	scale := func(n int) int { return int(int64(n) * int64(s.total) / int64(weight)) }
	c.wins, c.ties = scale(wins), scale(ties)
	c.losses = s.total - c.wins - c.ties
	c.estimate = float64(sum) / float64(weight)
}

// mergeDraws returns the draws as a first move drawing k tiles meets them:
// the k tiles go to a rack, so orders that differ only in those tiles'
// order lead to the same game and are one draw here, their weights added.
// The order of first appearance is kept.
func mergeDraws(draws []draw, k int) []draw {
	at := make(map[string]int, len(draws))
	out := make([]draw, 0, len(draws))
	key := make([]byte, 0, MaxBag)
	for _, d := range draws {
		key = key[:0]
		for _, l := range d.bag {
			key = append(key, byte(l))
		}
		slices.Sort(key[:k])
		if i, ok := at[string(key)]; ok {
			out[i].weight += d.weight
			continue
		}
		at[string(key)] = len(out)
		out = append(out, d)
	}
	return out
}

// recordEstimate gives c the record of its playouts (see playouts).
func (s *solver) recordEstimate(c *cand) {
	s.setRecord(c, c.estWins, c.estTies, int(c.estimate), c.estWeight)
}
