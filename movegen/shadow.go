package movegen

import (
	"math/bits"
	"slices"

	"scrabble/rules"
)

// shadowAll fills g.anchors with every anchor and its bound, and the queue
// with them, best first. With reuse (the rack is one Best has seen just
// before), a lane whose squares are as they were when the rack last met
// them is not searched now: its best play, if kept, is recorded, else the
// lane goes in line on the bound kept for its plays (see laneBounds). The
// other lanes are kept from this search.
func (g *Generator) shadowAll(reuse bool) {
	g.anchors = g.anchors[:0]
	g.queue.reset()
	if g.keptAny {
		g.kept = [2 * n]*laneBounds{}
		g.keptAny = false
	}
	g.sortRackValues()
	for d := 0; d < g.directions(); d++ {
		for lane := 0; lane < n; lane++ {
			set := g.anchor[d][lane]
			if set == 0 {
				continue
			}
			if reuse {
				keys := &g.laneKeys
				for pos := range keys {
					keys[pos] = g.laneSquareKey(d, lane*n+pos)
				}
				if g.reuseLane(d, lane, set) {
					continue
				}
				g.keepLane(d, lane, set)
			}
			g.shadowLaneAnchors(d, lane)
		}
	}
}

// shadowLaneAnchors bounds the anchors of a lane (firstBound), adds them to
// g.anchors and puts them in line.
func (g *Generator) shadowLaneAnchors(d, lane int) {
	last := -1
	g.sumWindows(g.shadowLane(d, lane))
	w := &g.win
	for set := g.anchor[d][lane]; set != 0; set &= set - 1 {
		pos := bits.TrailingZeros16(set)
		a := anchorBound{dir: int8(d), lane: int8(lane), pos: int8(pos), leftLimit: int8(last)}
		if a.bound = g.firstBound(w, pos, last); a.bound != minEquity {
			g.anchors = append(g.anchors, a)
			g.queue.push(queueKey(a.bound, len(g.anchors)-1, anchorEntry))
		}
		last = pos
	}
}

// shadowWindows is a lane's shadow squares again, summed for the first
// pass: a span is a run of consecutive empty squares (the new tiles) with
// the board tiles next to and between them, so each of its sums is the
// difference of two prefix sums, without going through its squares.
type shadowWindows struct {
	m      int      // empty squares
	at     [n]int8  // the number of the empty square at a position
	pos    [16]int8 // the position of empty square t
	usable [16]bool // some rack tile may go on empty square t
	// Prefix sums over the empty squares (index t: squares 0 to t-1),
	// packed (see windowSums): shadowSquare's free share, the word
	// multipliers counted, hookMain and hookCross.
	sums [16]uint64
	// Prefix sums over the runs of board tiles (index r: runs 0 to r-1;
	// run r lies just before empty square r, run m after the last): face
	// values | tiles<<16, and fingerprints; and a letter of each run.
	// (Sized so that masked indexes need no bounds checks.)
	runs    [32]uint64
	prints  [32]uint64
	letters [32]rules.Letter
}

// windowSums packs an empty square's shares of the sums, each field wide
// enough for its total over a lane, so prefix sums subtract field by
// field: the free share (bits 0-11), the word multiplier counted as
// doubles | triples<<4 (bits 12-19), hookMain (bits 20-31: at most 30 a
// square) and hookCross (bits 32-63).
func windowSums(q *shadowSquare) uint64 {
	wms := uint64(0)
	switch q.wm {
	case 2:
		wms = 1
	case 3:
		wms = 1 << 4
	}
	return uint64(q.free) | wms<<12 | uint64(q.hookMain)<<20 | uint64(q.hookCross)<<32
}

// wordMulOf is the word multiplier of doubles | triples<<4 of them.
var wordMulOf = func() (t [256]int32) {
	for i := range t {
		m := int32(1)
		for range i & 15 {
			m *= 2
		}
		for range i >> 4 {
			m *= 3
		}
		t[i] = min(m, 1<<20)
	}
	return t
}()

// firstBound is the first pass's bound of the anchor at pos of the lane w,
// whose spans reach left no further than leftLimit+1, right to the edge,
// with at most a rack of new tiles: the highest of its spans' bounds, each
// worked out from the prefix sums. Only plays of the whole rack or all but
// one tile get the word check (throughLeave); a span that cannot raise the
// bound gets none. minEquity: no play.
func (g *Generator) firstBound(w *shadowWindows, pos, leftLimit int) rules.Equity {
	t0 := int(w.at[pos])
	if !w.usable[t0&15] {
		return minEquity
	}
	tiles := g.rackTiles
	first := t0
	for first > 0 && w.usable[(first-1)&15] && int(w.pos[(first-1)&15]) > leftLimit && t0-first+1 < tiles {
		first--
	}
	last := t0
	for last+1 < w.m && w.usable[(last+1)&15] && last+2-t0 <= tiles {
		last++
	}
	bound := minEquity
	var s shadowSpan
	for i := t0; i >= first; i-- {
		runsBefore, sumsBefore := w.runs[i&31], w.sums[i&15]
		for j := t0; j <= min(last, i+tiles-1); j++ {
			k := j - i + 1
			runs := w.runs[(j+2)&31] - runsBefore
			board := int(runs >> 16)
			length := k + board
			if length < 2 {
				continue
			}
			sums := w.sums[(j+1)&15] - sumsBefore
			free := int32(sums & 0xfff)
			wm := wordMulOf[sums>>12&255]
			main := int32(runs&0xffff) + int32(sums>>20&0xfff)
			cross := int32(sums >> 32)
			if k == rules.RackSize {
				cross += rules.BingoBonus
			}
			if board == 0 {
				// New tiles only: a word the rack spells.
				if g.ri.spell.formable[k&7] {
					score := (main+bestOnFree(&g.ri.spell.top[k&7], free))*wm + cross
					bound = max(bound, rules.FromPoints(score)+g.ri.spell.leave[k&7])
				}
				continue
			}
			score := (main+bestOnFree(&g.tileTop, free))*wm + cross
			leave := g.leaves.best[k&7]
			if rules.FromPoints(score)+leave <= bound {
				continue
			}
			need := minEquity
			if g.best.found {
				need = g.best.m.Equity - rules.FromPoints(score)
			}
			if tiles-k <= 1 {
				s.k, s.length, s.board = k, length, w.prints[(j+2)&31]-w.prints[i&31]
				if s.length == rules.RackSize+1 {
					for r := i; r <= j+1; r++ {
						if w.letters[r&31] != 0 {
							s.through = w.letters[r&31]
						}
					}
				}
				leave = g.throughLeave(&s, need)
			}
			if leave != minEquity && leave >= need {
				bound = max(bound, rules.FromPoints(score)+leave)
			}
		}
	}
	return bound
}

// sortRackValues lists the rack's tile values, highest first.
func (g *Generator) sortRackValues() {
	k := 0
	for l := rules.RackSlots - 1; l >= 0; l-- {
		for c := 0; c < int(g.rack[l]); c++ {
			g.tileValues[k] = int32(rules.Letter(l).Value())
			k++
		}
	}
	vals := g.tileValues[:k]
	slices.SortFunc(vals, func(a, b int32) int { return int(b - a) })
	for ; k < len(g.tileValues); k++ {
		g.tileValues[k] = 0
	}
	prefixSums(&g.tileTop, &g.tileValues)
}

// shadowSpan is a span of squares in a lane being shadow-played: what the
// board tiles in it are worth, and the multipliers of its empty squares.
//
// Squares under a cross-word take only the letters that form it, so each
// such square is bounded by its best possible letter on its own; the free
// squares get the rack's best tiles, the best tile where it counts most.
type shadowSpan struct {
	k         int   // new tiles
	length    int   // squares
	fixed     int32 // face value of board tiles in the main word
	wordMul   int32
	hookMain  int32        // best letter x letter multiplier on restricted squares
	hookCross int32        // cross-words' bounds, word multipliers included
	crossBase int32        // cross-words' board tiles, word multipliers included
	through   rules.Letter // a board letter in the span (unblanked)
	board     uint64       // fingerprint of the board letters in the span
	// New tiles on free squares (squares without a cross-word), packed:
	// all of them | those on double letters<<4 | on triple letters<<8 (the
	// others count once). Packed, a square adds its share in one add.
	free int32
	// Every new tile's square: its letter multiplier, and that times its
	// word multiplier where it also makes a cross-word (else 0). Indexed
	// by k&7 (k < 8), so with no bounds checks.
	tileLM, tileX [8]int32
}

// freeCounts unpacks shadowSpan.free.
func freeCounts(free int32) (all, double, triple int32) {
	return free & 15, free >> 4 & 15, free >> 8 & 15
}

// bestOnFree bounds what the best tiles earn on the free squares counted
// in free (shadowSpan.free), triple letters first, then double: with
// top[i] the sum of the i best values, that is
// 3*top[t] + 2*(top[t+d]-top[t]) + (top[all]-top[t+d]).
func bestOnFree(top *[rules.RackSize + 1]int32, free int32) int32 {
	all, double, triple := freeCounts(free)
	return top[triple&7] + top[(triple+double)&7] + top[all&7]
}

// shadowSquare is what the shadow needs of one square of a lane, worked out
// once per lane and rack (each square is visited by many spans).
type shadowSquare struct {
	tile   rules.Letter // board tile (Empty: none)
	usable bool         // some rack tile may go here
	lm, wm int8
	// free: no cross-word and no restriction by the runs beside it, so it
	// takes the rack's best tiles: its share of shadowSpan.free (0: not
	// free).
	free      int16
	value     int8  // board tile's face value
	hookMain  int16 // restricted: its best letter x letter multiplier
	hookCross int16 // with a cross-word: that word's bound, word multiplier included
	crossBase int16 // the cross-word's board tiles, word multiplier included
	crossX    int16 // with a cross-word: letter x word multiplier
}

// shadowLane returns the shadow squares of lane in direction d for the
// rack, working them out the first time it is asked for since the rack was
// set (shadowStamp).
func (g *Generator) shadowLane(d, lane int) *[n]shadowSquare {
	id := d*n + lane
	sqs := &g.shadowSq[id]
	if g.shadowStamps[id] == g.shadowStamp {
		return sqs
	}
	g.shadowStamps[id] = g.shadowStamp
	playable := g.letterMask | g.blankMask
	// The lane's row of each board table, so the loop needs no bounds
	// checks.
	d &= 1
	row := lane * n
	tiles, crosses, exts := g.tiles[d][row:row+n], g.cross[d][row:row+n], g.ext[d][row:row+n]
	lms, wms, crossScores := letterMul[d][row:row+n], wordMul[d][row:row+n], g.crossScore[d][row:row+n]
	for pos := 0; pos < n; pos++ {
		q := &sqs[pos]
		*q = shadowSquare{tile: tiles[pos], lm: int8(lms[pos]), wm: int8(wms[pos])}
		if q.tile != rules.Empty {
			q.value = int8(q.tile.Value())
			continue
		}
		cross := crosses[pos]
		allowed := cross & (exts[pos] | hasCross)
		possible := allowed & playable
		q.usable = possible != 0
		if cross&hasCross == 0 && allowed&allLetters == allLetters {
			q.free = 1
			switch q.lm {
			case 2:
				q.free |= 1 << 4
			case 3:
				q.free |= 1 << 8
			}
			continue
		}
		// Restricted by a cross-word or by the runs beside it: bounded by
		// its best possible letter (a blank is worth 0 anyway).
		best := int32(0)
		for p := possible & g.letterMask; p != 0; p &= p - 1 {
			best = max(best, int32(rules.Letter(bits.TrailingZeros32(p)).Value()))
		}
		lm, wm := int32(q.lm), int32(q.wm)
		q.hookMain = int16(best * lm)
		if cross&hasCross != 0 {
			q.crossBase = int16(crossScores[pos] * wm)
			q.hookCross = int16(best*lm*wm) + q.crossBase
			q.crossX = int16(lm * wm)
		}
	}
	return sqs
}

// sumWindows fills g.win from the shadow squares of a lane.
func (g *Generator) sumWindows(sqs *[n]shadowSquare) {
	w := &g.win
	t := 0
	var runs, print uint64
	var letter rules.Letter
	for pos := range sqs {
		q := &sqs[pos]
		if q.tile != rules.Empty {
			runs += uint64(q.value) | 1<<16
			letter = q.tile.Unblanked()
			print += fingerprints[letter]
			continue
		}
		w.at[pos], w.pos[t&15] = int8(t), int8(pos)
		w.usable[t&15] = q.usable
		w.runs[(t+1)&15] = w.runs[t&15] + runs
		w.prints[(t+1)&15] = w.prints[t&15] + print
		w.letters[t&15] = letter
		runs, print, letter = 0, 0, 0
		w.sums[(t+1)&15] = w.sums[t&15] + windowSums(q)
		t++
	}
	w.m = t
	w.usable[t&15] = false
	w.runs[(t+1)&31] = w.runs[t&15] + runs
	w.prints[(t+1)&31] = w.prints[t&15] + print
	w.letters[t&15] = letter
}

// shadowAdd puts a new tile on square p of the shadow lane sqs, if any
// rack tile may go there.
func (g *Generator) shadowAdd(s *shadowSpan, sqs *[n]shadowSquare, p int) bool {
	q := &sqs[p]
	if !q.usable || s.k == g.rackTiles {
		return false
	}
	// No branch on the kind of square (it would be mispredicted often): a
	// free square's hook fields are 0, a restricted one's free share.
	s.free += int32(q.free)
	s.hookMain += int32(q.hookMain)
	s.hookCross += int32(q.hookCross)
	s.crossBase += int32(q.crossBase)
	s.tileLM[s.k&7], s.tileX[s.k&7] = int32(q.lm), int32(q.crossX)
	s.wordMul *= int32(q.wm)
	s.k++
	s.length++
	return true
}

// shadowScore bounds the score of a play covering exactly the span: the
// best tiles go where they count most. With a leave bound, the refined
// bound also tries the tighter bound of shadowOnce where the span could
// compete.
func (g *Generator) shadowScore(s *shadowSpan, tileValues *[rules.RackSize]int32, top *[rules.RackSize + 1]int32, leave rules.Equity) int32 {
	free, _, _ := freeCounts(s.free)
	main := s.fixed + s.hookMain + bestOnFree(top, s.free)
	total := main*s.wordMul + s.hookCross
	if s.k == rules.RackSize {
		total += rules.BingoBonus
	}
	if s.k > int(free) && (!g.best.found || rules.FromPoints(total)+leave >= g.best.m.Equity) {
		total = min(total, g.shadowOnce(s, tileValues))
	}
	return total
}

// shadowOnce is a second bound for a span with restricted squares. Those
// each count their own best letter, so a tile may count on several of them;
// this one counts every tile once, ignoring the restrictions: a tile on
// square i earns its value times letterMul*wordMul (main word) plus
// letterMul times its word multiplier (its cross-word), so the highest
// values go where that counts most. It costs a sort, hence only where it
// may matter.
func (g *Generator) shadowOnce(s *shadowSpan, tileValues *[rules.RackSize]int32) int32 {
	// The coefficients of the squares past the span's tiles are 0, and
	// they are sorted, highest first, by an optimal network of 16
	// compare-exchanges, each a branch-free max and min in registers:
	// insertion's loop exits mispredicted.
	k := min(s.k, rules.RackSize)
	wm := s.wordMul
	coef := func(i int) int32 {
		c := s.tileLM[i]*wm + s.tileX[i]
		return c & int32((i-k)>>63) // 0 from the k-th on
	}
	c0, c1, c2, c3, c4, c5, c6 := coef(0), coef(1), coef(2), coef(3), coef(4), coef(5), coef(6)
	c0, c6 = max(c0, c6), min(c0, c6)
	c2, c3 = max(c2, c3), min(c2, c3)
	c4, c5 = max(c4, c5), min(c4, c5)
	c0, c2 = max(c0, c2), min(c0, c2)
	c1, c4 = max(c1, c4), min(c1, c4)
	c3, c6 = max(c3, c6), min(c3, c6)
	c0, c1 = max(c0, c1), min(c0, c1)
	c2, c5 = max(c2, c5), min(c2, c5)
	c3, c4 = max(c3, c4), min(c3, c4)
	c1, c2 = max(c1, c2), min(c1, c2)
	c4, c6 = max(c4, c6), min(c4, c6)
	c2, c3 = max(c2, c3), min(c2, c3)
	c4, c5 = max(c4, c5), min(c4, c5)
	c1, c2 = max(c1, c2), min(c1, c2)
	c3, c4 = max(c3, c4), min(c3, c4)
	c5, c6 = max(c5, c6), min(c5, c6)
	v := tileValues
	once := s.fixed*wm + s.crossBase +
		c0*v[0] + c1*v[1] + c2*v[2] + c3*v[3] + c4*v[4] + c5*v[5] + c6*v[6]
	if s.k == rules.RackSize {
		once += rules.BingoBonus
	}
	return once
}

// throughLeave bounds the leave of a play covering exactly the span, which
// holds board tiles: the best leave such a play of s.k tiles keeps, or
// minEquity when no such play can spell a word keeping a leave of at least
// need (the least that could make it competitive).
// The play's tiles plus the span's board letters must be some word's
// letters (the word fingerprints). The first pass asks only about plays of
// the whole rack or all but one tile (see firstBound); refining asks about
// every tile count, since their many subsets cost more than most anchors
// save. The memo serves both: its entries depend on the board letters and
// the tiles kept, not on the pass.
func (g *Generator) throughLeave(s *shadowSpan, need rules.Equity) rules.Equity {
	left := g.rackTiles - s.k
	e, key, found := g.ri.memo.slot(s.board, left)
	if !found {
		*e = memoEntry{key: key, leave: minEquity, floor: -minEquity, stamp: g.ri.memo.stamp}
	} else if e.leave != minEquity || e.floor <= need {
		return e.leave
	}
	if left == 0 {
		var ok bool
		switch blanks := g.rack[rules.Blank]; {
		case blanks < 2:
			ok = g.anagrams.spells(g.ri.rackPrint+s.board, int8(blanks))
		case s.length == rules.RackSize+1 && s.k == rules.RackSize:
			if !g.ri.spell.eightsKnown {
				g.ri.spell.eights = g.anagrams.eightsThrough(&g.rack)
				g.ri.spell.eightsKnown = true
			}
			ok = g.ri.spell.eights&(1<<s.through) != 0
		default:
			ok = true // two blanks: not in the index
		}
		if ok {
			e.leave = g.leaves.value[g.leaves.subsets-1]
		}
		e.floor = minEquity
		return e.leave
	}
	// Subsets of s.k tiles, best leave first: the first that spells a word
	// through the span gives the bound. Those keeping less than need are
	// not looked up; e.floor records how far down the check went.
	// spells is too big to inline: a call a probe cost the search about
	// 4% more instructions (cachegrind) and 1.02-1.035 of the time, so the
	// exact filter, which blank-free subsets use, is probed inline.
	prints := g.anagrams.prints
	for _, i := range g.ri.bySize[s.k&7] {
		sub := &g.ri.subsets[i&127] // no bounds check: there are at most 127
		if sub.leave >= e.floor {
			continue // checked before
		}
		if sub.leave < need {
			e.floor = need
			return e.leave
		}
		f := sub.fp + s.board
		if sub.blanks == 0 && prints.has(f) || sub.blanks != 0 && g.anagrams.spells(f, sub.blanks) {
			e.leave = sub.leave
			return e.leave
		}
	}
	e.floor = minEquity
	return e.leave
}
