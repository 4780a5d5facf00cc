package endgame

import (
	"slices"

	"scrabble/move"
	"scrabble/rules"
)

// result builds the answer from s's last iteration.
func (s *searcher) result() *Result {
	res := &Result{
		Value:  s.lastValue,
		Proven: s.lastComplete,
		Depth:  s.lastDepth,
	}
	w := s.sh.opts.Window
	if !s.sh.opts.ValueOnly && (!w.set() || (res.Value > w.Lo && res.Value < w.Hi)) {
		res.PV = s.principal(res.Value, res.Proven, res.Depth)
	}
	res.Best = s.rootMoves[0].m
	if res.Proven && len(res.PV) > 0 {
		res.Best = res.PV[0].Move // the first of the equal moves (canonicalRoot)
	}
	res.Best.Equity = 0 // the search's ordering key
	res.Notation = res.Best.NotationOn(&s.sh.root.board)
	return res
}

// principal returns a principal variation. For a proven value each move is
// the first, in the order the position alone sets (no table move), that
// keeps the value (a null-window search on a warm table, cheap): so the
// line is right even where the table lost entries, and it is the same
// line for any number of threads, whose tables differ in which of equal
// moves they hold. Otherwise it follows the table's moves for the depth
// searched.
func (s *searcher) principal(value int, proven bool, depth int) []Step {
	s.aborted = false
	s.ignoreStop = proven
	defer func() { s.ignoreStop = false }()
	s.onlyComplete = proven
	s.racks = s.sh.root.racks
	key, scoreless := s.sh.rootKey, s.sh.root.scoreless
	v := value
	var steps []Step
	for ply := 0; ply < s.sh.maxPl; ply++ {
		if !proven && ply >= depth {
			break
		}
		var m *move.Move
		switch {
		case ply == 0 && proven:
			m = s.canonicalRoot(v)
		case ply == 0:
			m = &s.rootMoves[0].m
		default:
			var ttMove uint32
			if d, ok := s.tt.probe(key); ok && !proven {
				ttMove = d.move
			}
			moves := s.generate(ply)
			s.order(moves, ttMove, ply)
			for i := range moves {
				s.pick(moves, i)
				c := &moves[i]
				if proven {
					if cv, _, _ := s.child(ply, s.sh.maxPl-ply, c, v-1, v, key, scoreless, false); cv >= v && !s.aborted {
						m = c
						break
					}
				} else if ttMove != 0 && moveID(c) == ttMove {
					m = c
					break
				}
			}
		}
		if m == nil {
			break
		}
		step, next, ns, over := s.advance(ply, m, key, scoreless)
		steps = append(steps, step)
		if over {
			break
		}
		v = int(m.Score) - v
		key, scoreless = next, ns
	}
	s.racks = s.sh.root.racks
	return steps
}

// canonicalRoot returns the first move of the root, by idx, whose value is
// v, the proven value of the root: which of several equal moves the search
// put first depends on how the threads shared the work, this does not.
func (s *searcher) canonicalRoot(v int) *move.Move {
	byIdx := make([]*rootMove, len(s.rootMoves))
	for i := range s.rootMoves {
		byIdx[s.rootMoves[i].idx] = &s.rootMoves[i]
	}
	for _, rm := range byIdx {
		switch {
		case rm == &s.rootMoves[0]:
			return &rm.m // the move that set v: no need to search it again
		case rm.value < v:
			// Below v in the last iteration, which searched every move
			// to the end of the game: its true value is at most that.
			continue
		}
		cv, _, _ := s.child(0, s.sh.maxPl, &rm.m, v-1, v, s.sh.rootKey, s.sh.root.scoreless, false)
		if cv >= v && !s.aborted {
			return &rm.m
		}
	}
	return &s.rootMoves[0].m
}

// advance makes move m at ply for good (the principal variation): it
// returns the step, the child's key and scoreless count, and whether the
// move ends the game.
func (s *searcher) advance(ply int, m *move.Move, key uint64, scoreless int) (Step, uint64, int, bool) {
	side := ply & 1
	mover, opp := &s.racks[side], &s.racks[1-side]
	st := Step{Player: side, Rack: *mover, Move: *m, Notation: m.NotationOn(s.cur[ply].Board()), Score: int(m.Score)}
	st.Move.Equity = 0
	sign := 1 - 2*side
	score := int(m.Score)
	drawn := int(s.bagAt[ply])
	left := len(s.sh.root.bag) - drawn
	if m.Kind == move.Play && int(m.NumTiles) == mover.Count() && left == 0 {
		st.End, st.Adjustment = "out", sign*outBonus(opp)
		return st, 0, 0, true
	}
	ns := scoreless + 1
	if score > 0 {
		ns = 0
	}
	next := key ^ zSide ^ zScoreless[scoreless] ^ zScoreless[ns]
	if m.Kind == move.Play {
		for _, t := range m.Tiles[:m.Len] {
			if t == rules.PlayedThrough {
				continue
			}
			i := t.RackIndex()
			next ^= zRack[side][i][mover[i]] ^ zRack[side][i][mover[i]-1]
			mover[i]--
		}
		if left > 0 {
			d := min(int(m.NumTiles), left)
			for _, t := range s.sh.root.bag[drawn : drawn+d] {
				st.Drew.Add(t)
			}
			next ^= s.draw(side, drawn, d)
			drawn += d
		}
	}
	s.bagAt[ply+1] = uint8(drawn)
	if s.ends(ns) {
		st.End, st.Adjustment = "scoreless", sign*(opp.Value()-mover.Value())
		return st, 0, 0, true
	}
	if m.Kind == move.Play {
		next ^= playDelta(m)
		g := s.genAt(ply + 1)
		g.CopyBoard(s.cur[ply])
		g.Apply(m)
		s.cur[ply+1] = g
	} else {
		s.cur[ply+1] = s.cur[ply]
	}
	s.pend[ply+1] = nil
	return st, next, ns, false
}

// rank values the first moves and returns the best top of them. A move is
// searched with its window's floor at the top-th value found so far, so
// moves that cannot enter the list cost a null-window search. Equal values
// go by the moves' idx when proven (as the answer does, canonicalRoot: the
// same list for any number of threads), else by the search's order.
func (s *searcher) rank(top int, proven bool, depth int) []Ranked {
	s.aborted = false
	s.onlyComplete = proven
	d := depth
	if proven {
		d = s.sh.maxPl
	}
	s.racks = s.sh.root.racks
	s.cur[0], s.pend[0] = s.gens[0], nil
	var kept []Ranked
	var order []int // each kept move's place among equal values
	for i := range s.rootMoves {
		m := &s.rootMoves[i].m
		o := i
		if proven {
			o = s.rootMoves[i].idx
		}
		floor := -infinity
		full := len(kept) >= top
		if full {
			// A move that would come before the last kept one at an
			// equal value must learn whether it reaches it.
			floor = kept[top-1].Value
			if o < order[top-1] {
				floor--
			}
		}
		v, _, _ := s.child(0, d, m, floor, infinity, s.sh.rootKey, s.sh.root.scoreless, false)
		if s.aborted {
			break
		}
		if full && v <= floor {
			continue
		}
		r := Ranked{Move: *m, Notation: m.NotationOn(&s.sh.root.board), Value: v}
		r.Move.Equity = 0
		at := 0
		for at < len(kept) && (kept[at].Value > v || kept[at].Value == v && order[at] < o) {
			at++
		}
		kept, order = slices.Insert(kept, at, r), slices.Insert(order, at, o)
		if len(kept) > top {
			kept, order = kept[:top], order[:top]
		}
	}
	return kept
}
