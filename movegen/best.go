package movegen

import (
	"math/bits"
	"slices"

	"scrabble/move"
	"scrabble/rules"
)

// anchorBound is an anchor with an upper bound on the equity of any play
// generated from it.
type anchorBound struct {
	bound          rules.Equity
	dir, lane, pos int8
	leftLimit      int8
}

// Best returns the highest-equity move (ties broken by move.Compare): plays, plus
// the exchanges and pass that opts ask for and the bag allows. It does not
// list every play: each anchor first gets an upper bound on what it can
// score (a "shadow" play that fills the best squares with the best tiles,
// ignoring the dictionary); anchors are taken best bound first, their spans
// bounded again with a word check and put in line, and a span's plays are
// placed from the anagram index when it comes first (see direct.go). The
// search stops once no remaining bound can beat the best move found.
// A search with the rack and valuer of one of the last two reuses what they
// worked out: the rack's set-up, and the best play or a bound of each lane
// whose squares are unchanged (see laneBounds and Options.Repeat).
// docs/design/movegen.md describes it step by step.
func (g *Generator) Best(rack *rules.Rack, bagLen int, opts Options) (move.Move, bool) {
	best := &g.best
	*best = bestEquity{}
	if rack.Count() > rules.RackSize {
		// Outside the rules (the shadow's arrays hold a rack): no pruning.
		g.Generate(rack, bagLen, opts, best)
		return best.m, best.found
	}
	if opts.OpenCost > 0 {
		g.setOpenCost(opts.OpenCost)
		defer g.setOpenCost(0)
	}
	known := g.setRackCached(rack)
	if opts.Exchanges && rules.CanExchange(bagLen) {
		g.bestExchange(rack, best)
	}
	g.generateOthers(rack, bagLen, Options{Pass: opts.Pass}, best)
	if g.rackTiles == 0 {
		return best.m, best.found
	}
	g.rec = best
	if !known {
		g.analyzeRack(rack)
		ri := g.ri
		ri.rack, ri.valuer, ri.leaves, ri.valid = *rack, g.valuer, g.leaves, true
	}
	g.shadowStamp++
	// A lane's plays are kept for a later search only without the open
	// term: whether a play opens a square depends on the other lanes.
	g.shadowAll((known || opts.Repeat) && g.open.cost == 0)
	g.pruning = true
	g.spans = g.spans[:0]
	for g.queue.top != 0 {
		if best.found && g.queue.ceiling() < best.m.Equity {
			break
		}
		top := g.queue.pop()
		if best.found && rules.Equity(top>>queueShift) < best.m.Equity {
			continue
		}
		i := int(top&(1<<queueShift-1)) >> 2
		switch top & 3 {
		case anchorEntry:
			a := &g.anchors[i]
			g.laneBest = g.keptBest(a.dir, a.lane)
			g.refine(a)
		case spanEntry:
			sp := &g.spans[i]
			g.laneBest = g.keptBest(sp.dir, sp.lane)
			g.loadSquares(int(sp.dir), int(sp.lane), int(sp.start), int(sp.end))
			g.directSpan(int(sp.start), int(sp.end), int(sp.k))
			g.leaves.used = 0
		case laneEntry:
			// A lane kept from an earlier search whose plays may now
			// compete: search it after all.
			g.openLane(i)
		}
	}
	g.pruning = false
	g.laneBest = nil
	g.keepLaneBests()
	return best.m, best.found
}

// bestExchange hands rec the exchange keeping the most valuable leave, or
// every exchange when several keep leaves of the same value (rec breaks the
// tie), without listing them all.
func (g *Generator) bestExchange(rack *rules.Rack, rec Recorder) {
	top, ties := int32(0), 0
	for u := int32(1); u < g.leaves.subsets; u++ {
		switch v := g.leaves.value[u]; {
		case ties == 0 || v > g.leaves.value[top]:
			top, ties = u, 1
		case v == g.leaves.value[top]:
			ties++
		}
	}
	if ties == 0 {
		return
	}
	if ties > 1 {
		g.move = move.Move{Kind: move.Exchange}
		g.leaves.used = 0
		g.exchanges(rack, 0, rec)
		return
	}
	// Decode the subset number: how many of each letter go back.
	g.move = move.Move{Kind: move.Exchange, Equity: g.leaves.value[top]}
	for l := range rack {
		if r := g.leaves.radix[l]; r > 0 {
			for c := (top / r) % (int32(rack[l]) + 1); c > 0; c-- {
				g.move.Tiles[g.move.Len] = rules.Letter(l)
				g.move.Len++
			}
		}
	}
	g.move.NumTiles = g.move.Len
	rec.Record(&g.move)
}

// bestEquity keeps the highest-equity move, ties broken by move.Compare so the
// answer does not depend on the order moves arrive in.
type bestEquity struct {
	m     move.Move
	found bool
}

func (b *bestEquity) Record(m *move.Move) {
	if !b.found || m.Equity > b.m.Equity || (m.Equity == b.m.Equity && move.Compare(m, &b.m) < 0) {
		b.m, b.found = *m, true
	}
}

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

// openLane searches a lane kept from an earlier search (i is its number
// d*n+lane, times two, plus the copy's): its anchors are bounded and put in
// line, and what it finds is kept for it.
func (g *Generator) openLane(i int) {
	id := i >> 1
	d, lane := id/n, id%n
	g.kept[id], g.keptAny = &g.ri.lanes[id][i&1], true
	g.shadowLaneAnchors(d, lane)
}

// Kinds of queue entries (queueKey).
const (
	anchorEntry = iota // an anchor to refine (index into g.anchors)
	spanEntry          // a span to place plays on (g.spans)
	laneEntry          // a lane kept from an earlier search (see openLane)
)

// queueKey orders queue entries by bound; the low bits hold the index and
// kind of the entry.
func queueKey(bound rules.Equity, i, kind int) int64 {
	return int64(bound)<<queueShift | int64(i)<<2 | int64(kind)
}

const queueShift = 24

// span is a span of a lane to place plays on, found competitive when its
// anchor was refined.
type span struct {
	dir, lane, start, end, k int8
}

// bucketQueue holds queue entries (queueKey) in buckets of 1024
// millipoints of bound, with a bit set of the buckets in use: an entry goes
// in and the highest bucket's last entry comes out in a few instructions,
// with no comparisons of entries to mispredict (a heap's sifting does).
// Entries of one bucket come out in no particular order; the search
// re-checks each entry's own bound.
type bucketQueue struct {
	head [numBuckets]int32 // each bucket's last entry (1-based, 0: none)
	used [numBuckets / 64]uint64
	top  uint64 // bit w: used[w] != 0
	keys []int64
	next []int32 // the entry below, in the same bucket
}

const (
	numBuckets   = 1024
	bucketShift  = 10
	bucketOffset = 256 // bucket of bound 0
)

func bucketOf(bound rules.Equity) int {
	return min(max(int(bound>>bucketShift)+bucketOffset, 0), numBuckets-1)
}

// reset empties the queue (the buckets still in use only).
func (q *bucketQueue) reset() {
	for w := q.top; w != 0; w &= w - 1 {
		i := bits.TrailingZeros64(w)
		for b := q.used[i]; b != 0; b &= b - 1 {
			q.head[i<<6|bits.TrailingZeros64(b)] = 0
		}
		q.used[i] = 0
	}
	q.top = 0
	q.keys, q.next = q.keys[:0], q.next[:0]
}

func (q *bucketQueue) push(key int64) {
	b := bucketOf(rules.Equity(key >> queueShift))
	q.keys = append(q.keys, key)
	q.next = append(q.next, q.head[b])
	q.head[b] = int32(len(q.keys))
	q.used[b>>6] |= 1 << (b & 63)
	q.top |= 1 << (b >> 6)
}

// highest is the highest bucket in use; the queue must not be empty.
func (q *bucketQueue) highest() int {
	w := 63 - bits.LeadingZeros64(q.top)
	return w<<6 | (63 - bits.LeadingZeros64(q.used[w]))
}

// ceiling bounds every entry's bound from above; the queue must not be
// empty.
func (q *bucketQueue) ceiling() rules.Equity {
	b := q.highest()
	if b == numBuckets-1 {
		return -minEquity
	}
	return rules.Equity((b-bucketOffset+1)<<bucketShift - 1)
}

// pop removes and returns an entry of the highest bucket; the queue must
// not be empty.
func (q *bucketQueue) pop() int64 {
	b := q.highest()
	e := q.head[b] - 1
	q.head[b] = q.next[e]
	if q.head[b] == 0 {
		q.used[b>>6] &^= 1 << (b & 63)
		if q.used[b>>6] == 0 {
			q.top &^= 1 << (b >> 6)
		}
	}
	return q.keys[e]
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

// laneBounds keeps what a search found of a lane's plays for a rack
// (rackInfo.lanes), with what they depend on: the lane's squares
// (laneSquareKey) and its anchors. A simulation searches the opponent's
// rack on every candidate's board, and a candidate changes only a few
// lanes: a later search needs to search an unchanged lane only if its plays
// can beat the best move found elsewhere.
//
// A search records every play that reaches its final best move's equity,
// so after it a lane either has its best play known (exact: one of its
// plays reached that equity, or the search cut nothing) or all its plays
// are below that equity (below).
type laneBounds struct {
	valid   bool
	anchors uint16
	squares [n]uint64
	exact   bool
	best    bestEquity   // its best play found (exact: its best play)
	below   rules.Equity // not exact: every play of the lane is below this
}

// laneSquareKey packs what the shadow reads of a square: its tile, the
// letters allowed there (with hasCross) and the cross-word's score.
func (g *Generator) laneSquareKey(d, sq int) uint64 {
	allowed := g.cross[d][sq] & (g.ext[d][sq] | hasCross)
	return uint64(allowed) | uint64(uint16(g.crossScore[d][sq]))<<32 | uint64(g.tiles[d][sq])<<48
}

// reuseLane takes what was kept of the lane (its squares' keys in
// g.laneKeys), if one of its two copies (the first kept, most often the
// position's own lane, which most candidates leave as it is, and the
// latest) matches it: its best play is recorded if known, else the lane
// goes in line on the bound of its plays.
func (g *Generator) reuseLane(d, lane int, anchors uint16) bool {
	id := d*n + lane
	for w := range g.ri.lanes[id] {
		lb := &g.ri.lanes[id][w]
		if !lb.valid || lb.anchors != anchors || lb.squares != g.laneKeys {
			continue
		}
		if lb.exact {
			if lb.best.found {
				g.best.Record(&lb.best.m)
			}
		} else {
			g.queue.push(queueKey(lb.below-1, id<<1|w, laneEntry))
		}
		return true
	}
	return false
}

// keepLane takes a copy of the lane (the first copy while it is free, else
// the latest) for its squares (g.laneKeys) and what this search finds of
// its plays.
func (g *Generator) keepLane(d, lane int, anchors uint16) {
	id := d*n + lane
	lb := &g.ri.lanes[id][0]
	if lb.valid {
		lb = &g.ri.lanes[id][1]
	}
	*lb = laneBounds{valid: true, anchors: anchors, squares: g.laneKeys, below: -minEquity}
	g.kept[id], g.keptAny = lb, true
}

// keptBest is where the best play found in the lane goes if the search
// keeps the lane, else nil.
func (g *Generator) keptBest(d, lane int8) *bestEquity {
	if lb := g.kept[int(d)*n+int(lane)]; lb != nil {
		return &lb.best
	}
	return nil
}

// keepLaneBests settles what the search found of the lanes kept or opened
// in it, now that its best move is known (see laneBounds).
func (g *Generator) keepLaneBests() {
	if !g.keptAny {
		return
	}
	for _, lb := range g.kept {
		switch {
		case lb == nil:
		case !g.best.found || lb.best.found && lb.best.m.Equity >= g.best.m.Equity:
			lb.exact = true
		default:
			lb.below = min(lb.below, g.best.m.Equity)
		}
	}
}

// rackInfo is what Best works out about a rack before searching, kept for
// the next searches with the same rack and leave valuer: a simulation asks
// about one rack on many boards. The memo stays valid too: its entries
// depend on the rack and the board letters a span holds, not on where.
type rackInfo struct {
	rack   rules.Rack
	valuer LeaveValuer
	valid  bool
	leaves rackLeaves
	// The rack's subsets (see spellSubsets), and by size, best leave
	// first.
	subsets    [128]rackSubset // the last, emptySubset, stays empty
	numSubsets int
	bySize     [rules.RackSize + 1][]uint8
	spell      rackWords
	// The rack's letters, highest value first (see analyzeRack).
	subsetSlots [rules.RackSlots]uint8
	numSlots    int
	rackPrint   uint64 // fingerprint of the rack (shadow)
	memo        throughMemo
	lanes       [2 * n][2]laneBounds // by lane (d*n+lane)
}

// setRackCached is setRack for Best, reusing the rack's leave values and
// the rest of its rackInfo (g.ri) when one of the last two searches had the
// same rack and valuer. known reports such a hit; otherwise g.ri is an
// entry to fill.
func (g *Generator) setRackCached(rack *rules.Rack) (known bool) {
	g.setRackTiles(rack)
	for i := range g.racks {
		ri := &g.racks[i]
		if ri.valid && ri.rack == *rack && sameValuer(ri.valuer, g.valuer) {
			g.ri, g.leaves = ri, ri.leaves
			g.leaves.used = 0
			g.riNext = 1 - i
			return true
		}
	}
	g.leaves.set(rack, g.valuer, &g.leaveScratch)
	g.ri = &g.racks[g.riNext]
	g.ri.valid = false
	for i := range g.ri.lanes {
		g.ri.lanes[i][0].valid, g.ri.lanes[i][1].valid = false, false
	}
	g.riNext = 1 - g.riNext
	return false
}

// ForgetRacks drops what Best kept about recent racks, so that the next
// search does all its own work. Benchmarks that search the same positions
// over and over call it before each search, to measure a search as a new
// position gets it.
func (g *Generator) ForgetRacks() {
	for i := range g.racks {
		g.racks[i].valid = false
	}
}

// sameValuer reports whether a and b value every leave the same, as far
// as their keys tell (see KeyedLeaveValuer).
func sameValuer(a, b LeaveValuer) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ka, ok := a.(KeyedLeaveValuer)
	if !ok {
		return false
	}
	kb, ok := b.(KeyedLeaveValuer)
	if !ok {
		return false
	}
	key := ka.LeaveKey()
	return key != 0 && key == kb.LeaveKey()
}

// emptySubset is the place in rackInfo.subsets of the empty subset: at
// most 127 are listed, so it is never written.
const emptySubset = 127

// rackSubset is a sub-multiset of the rack: its size, blanks, fingerprint
// and the leave value of playing it.
type rackSubset struct {
	// Its tile values, highest first, packed for packedDot.
	packed [2]uint64
	fp     uint64
	// counts holds how many of the rack's i-th letter (see
	// rackInfo.subsetSlots) it has in bits 4i to 4i+3.
	counts    uint32
	letters   uint32 // its letters (bit l), blanks aside
	leave     rules.Equity
	idx       int32  // its number in rackLeaves
	rank      uint32 // its rank among multisets of k tiles (see spellSet)
	k, blanks int8
	spells    bool // it spells a word on its own
}

// throughMemo remembers throughLeave's answers for the current rack: many
// anchors share spans' board letters. Entries of earlier racks are told
// apart by their stamp, so nothing needs clearing.
type throughMemo struct {
	entries [1 << memoBits]memoEntry
	stamp   uint32
}

const memoBits = 8

// slot returns the entry for spans whose board letters have fingerprint
// board, left tiles kept, its key, and whether it holds them (else it is
// the slot to fill).
func (m *throughMemo) slot(board uint64, left int) (e *memoEntry, key uint64, found bool) {
	key = board + uint64(left)*0x9e3779b97f4a7c15
	e = &m.entries[key>>(64-memoBits)]
	return e, key, e.stamp == m.stamp && e.key == key
}

type memoEntry struct {
	key   uint64
	leave rules.Equity // minEquity: no play found
	// floor: every subset keeping at least this much was checked (no play
	// found keeps less than leave, or anything when leave is minEquity).
	floor rules.Equity
	stamp uint32
}

// rackWords is what the current rack can spell on its own, by number of
// tiles: whether any subset of that size spells a word; for each rank, the
// highest tile value at that rank among such subsets (sorted high to low);
// and the best leave such a subset keeps.
type rackWords struct {
	formable [rules.RackSize + 1]bool
	values   [rules.RackSize + 1][rules.RackSize]int32
	top      [rules.RackSize + 1][rules.RackSize + 1]int32 // prefix sums of values
	leave    [rules.RackSize + 1]rules.Equity
	// eights holds the board letters a full rack spells an 8-letter word
	// through, once eightsKnown (worked out only when asked: with two
	// blanks it takes hundreds of look-ups).
	eights      uint32
	eightsKnown bool
}

// lettersByValue lists the letters, highest value first, then the blank.
var lettersByValue = func() (ls [rules.RackSlots]rules.Letter) {
	for i := range ls {
		ls[i] = rules.Letter(i)
	}
	slices.SortStableFunc(ls[:], func(a, b rules.Letter) int { return b.Value() - a.Value() })
	return ls
}()

// analyzeRack fills g.ri.spell for the rack (at most 7 tiles) from the anagram
// index: every subset of the rack is one look-up. Subsets are enumerated
// letter by letter, so each one's fingerprint, letters and values are built
// by adding to its parent's.
func (g *Generator) analyzeRack(rack *rules.Rack) {
	if g.anagrams == nil {
		g.anagrams = anagramIndexFor(g.lex)
	}
	sp := &g.ri.spell
	*sp = rackWords{}
	for k := range sp.leave {
		sp.leave[k] = minEquity
	}
	// The rack's letters, highest value first (blanks, worth 0, last).
	n := 0
	for _, l := range lettersByValue {
		if rack[l] > 0 {
			g.ri.subsetSlots[n] = uint8(l)
			n++
		}
	}
	g.ri.numSlots, g.ri.numSubsets = n, 0
	g.spellSubsets(rack, g.ri.subsetSlots[:n])
	g.spellWords()
	// Index the subsets by size, best leave first.
	for k := range g.ri.bySize {
		g.ri.bySize[k] = g.ri.bySize[k][:0]
	}
	// Sorted by key (leave, then the subset's number) with a sorting
	// network: its compare-exchanges are branch-free min and max, where
	// insertion's loop exits mispredicted (3 us a rack).
	keys := &g.sortKeys
	var lens [rules.RackSize + 1]int
	for i := range g.ri.numSubsets {
		sub := &g.ri.subsets[i]
		k := sub.k & 7
		keys[k][lens[k]&63] = int64(sub.leave)<<8 | int64(255-i)
		lens[k]++
	}
	for k := range g.ri.bySize {
		list := &keys[k]
		for _, c := range sortNetworks[lens[k]&63] {
			a, b := list[c[0]&63], list[c[1]&63]
			list[c[0]&63], list[c[1]&63] = max(a, b), min(a, b)
		}
		out := g.ri.bySize[k][:lens[k]]
		for j := range out {
			out[j] = uint8(255 - list[j&63]&255)
		}
		g.ri.bySize[k] = out
		g.leaves.best[k] = minEquity
		if len(out) > 0 {
			g.leaves.best[k] = rules.Equity(list[0] >> 8)
		}
	}
	g.leaves.best[0] = g.leaves.value[0]
	counts := [rules.RackSlots]uint8(*rack)
	g.ri.rackPrint = fingerprint(&counts)
	g.ri.memo.stamp++
	// Read the memo through once, in order: the search reads it at
	// random, and a generator that has been idle (one of many) has it out
	// of the cache; in order, the loads stream.
	var touch uint32
	for i := 0; i < len(g.ri.memo.entries); i += 2 {
		touch ^= g.ri.memo.entries[i].stamp
	}
	g.sink ^= uint64(touch)
}

// spellSubsets lists the rack's non-empty subsets (every field but
// spells). The rack's letters (slots, highest value first) are the wheels
// of an odometer of the tiles taken, the last turning fastest: the order
// in which they come is a recursion's, each subset's values are appended
// in order, and each is one step from another, its parent, found by index.
// Which wheel turns at each step, and which subset it extends, depend only
// on how many tiles of each letter the rack has (its shape), so they are
// worked out once per shape (subsetSteps): the loop has no branches on the
// wheels, whose exits mispredicted about once a subset. Each field is
// stored once, from the parent's field: a copy of the parent made whole
// and then changed loaded 16 bytes at a time, which waits on the parent's
// field stores when it was made just before. The shapes are those of racks
// of at most RackSize tiles, the only ones Best analyzes (it hands larger
// racks to Generate).
func (g *Generator) spellSubsets(rack *rules.Rack, slots []uint8) {
	subs := &g.ri.subsets
	shape := 0
	tiles := 0
	for _, l := range slots {
		tiles += int(rack[l])
		shape |= 1 << (tiles - 1)
	}
	steps := subsetSteps[shape&127]
	for num, step := range steps {
		p, st := &subs[step.parent&127], &subs[num&127]
		l := rules.Letter(slots[step.wheel&7])
		k := p.k
		st.packed[0], st.packed[1] = p.packed[0], p.packed[1]
		packValue(&st.packed, int(k), int8(valueOf[l]))
		st.rank = p.rank + rankStep[k&7][symbolOf[l]]
		st.k = k + 1
		st.fp = p.fp + subsetPrint[l]
		st.blanks = p.blanks + int8(blankCount[l])
		st.letters = p.letters | letterBit[l]
		st.idx = p.idx + g.leaves.radix[l]
		st.counts = p.counts + 1<<(4*step.wheel)
		st.leave = g.leaves.value[st.idx&127]
		st.spells = false
	}
	g.ri.numSubsets = len(steps)
}

// subsetStep is a step of spellSubsets: the subset made by adding a tile of
// the rack's wheel-th letter to the subset at parent.
type subsetStep struct{ wheel, parent uint8 }

// subsetSteps[shape] are spellSubsets' steps for the racks of a shape: bit
// t-1 is set when the letters up to some one hold t tiles in all (so a
// rack of 7 different letters is 127 and AAB is 0b110).
var subsetSteps = func() (all [128][]subsetStep) {
	for shape := 1; shape < 128; shape++ {
		var counts []uint8
		prev := 0
		for t := 1; t <= rules.RackSize; t++ {
			if shape&(1<<(t-1)) != 0 {
				counts = append(counts, uint8(t-prev))
				prev = t
			}
		}
		n := len(counts)
		var taken [rules.RackSize]uint8
		var from [rules.RackSize]uint8
		for i := range from {
			from[i] = emptySubset
		}
		var steps []subsetStep
		for {
			i := n - 1
			for ; i >= 0 && taken[i] == counts[i]; i-- {
				taken[i] = 0
			}
			if i < 0 {
				break
			}
			taken[i]++
			steps = append(steps, subsetStep{wheel: uint8(i), parent: from[i]})
			for j := i; j < n; j++ {
				from[j] = uint8(len(steps) - 1)
			}
		}
		all[shape] = steps
	}
	return all
}()

// Per letter: its fingerprint in a subset (a blank's is the wildcard's),
// the blanks it adds and its bit among the subset's letters (none for a
// blank), so a step needs no branch on blanks.
var subsetPrint, blankCount, letterBit = func() (prints [rules.RackSlots]uint64, blanks [rules.RackSlots]uint8, bits [rules.RackSlots]uint32) {
	for l := range rules.RackSlots {
		if rules.Letter(l) == rules.Blank {
			prints[l], blanks[l] = fingerprints[wildcard], 1
			continue
		}
		prints[l], bits[l] = fingerprints[l], 1<<l
	}
	return prints, blanks, bits
}()

// spellWords fills g.ri.spell from the rack's subsets.
func (g *Generator) spellWords() {
	words := &g.anagrams.words
	sp := &g.ri.spell
	for i := range g.ri.numSubsets {
		sub := &g.ri.subsets[i]
		k := int(sub.k)
		if k < 2 || !words.has(k, sub.rank, sub.fp) {
			continue
		}
		sub.spells = true
		sp.formable[k] = true
		sp.leave[k] = max(sp.leave[k], sub.leave)
		for i := 0; i < k; i++ {
			sp.values[k][i] = max(sp.values[k][i], int32(sub.packed[i>>2]>>(16*(i&3))&0xffff))
		}
	}
	for k := range sp.values {
		prefixSums(&sp.top[k], &sp.values[k])
	}
}

// prefixSums sets top[i] to the sum of the first i values.
func prefixSums(top *[rules.RackSize + 1]int32, values *[rules.RackSize]int32) {
	top[0] = 0
	for i, v := range values {
		top[i+1] = top[i] + v
	}
}

// refine bounds again every span of the anchor at (d, lane, pos), now that
// the anchor's first-pass bound (firstBound) comes first in line: spans
// reaching left no further than leftLimit+1, right to the edge, with at most
// a rack of new tiles, each with the word check for its number of tiles
// (throughLeave) and the tile-once bound (shadowOnce). Each span that could
// beat the best move goes in line (queueSpan).
func (g *Generator) refine(a *anchorBound) {
	pos, leftLimit := int(a.pos), int(a.leftLimit)
	sqs := g.shadowLane(int(a.dir), int(a.lane))
	left := shadowSpan{wordMul: 1}
	if !g.shadowAdd(&left, sqs, pos) {
		return
	}
	for l := pos; ; {
		if l == 0 || sqs[l-1].tile == rules.Empty {
			g.refineRight(left, sqs, l, pos, a)
		}
		if l == 0 {
			break
		}
		l--
		if q := &sqs[l]; q.tile != rules.Empty {
			left.fixed += int32(q.value)
			left.through = q.tile.Unblanked()
			left.board += fingerprints[left.through]
			left.length++
			continue
		}
		if l <= leftLimit || !g.shadowAdd(&left, sqs, l) {
			break
		}
	}
}

// refineRight extends a copy of the span, which starts at start, rightwards
// from the anchor, and puts each span that ends where a word may end and
// could beat the best move in line.
func (g *Generator) refineRight(s shadowSpan, sqs *[n]shadowSquare, start, anchor int, a *anchorBound) {
	r := anchor
	for {
		for r+1 < n && sqs[r+1].tile != rules.Empty {
			r++
			q := &sqs[r]
			s.fixed += int32(q.value)
			s.through = q.tile.Unblanked()
			s.board += fingerprints[s.through]
			s.length++
		}
		switch {
		case s.length < 2:
		case s.length == s.k: // new tiles only: a word the rack spells
			if g.ri.spell.formable[s.k] {
				score := g.shadowScore(&s, &g.ri.spell.values[s.k], &g.ri.spell.top[s.k], g.ri.spell.leave[s.k])
				g.queueSpan(a, start, r, s.k, rules.FromPoints(score)+g.ri.spell.leave[s.k])
			}
		default:
			score := g.shadowScore(&s, &g.tileValues, &g.tileTop, g.leaves.best[s.k])
			need := minEquity
			if g.best.found {
				need = g.best.m.Equity - rules.FromPoints(score)
			}
			if leave := g.throughLeave(&s, need); leave != minEquity && leave >= need {
				g.queueSpan(a, start, r, s.k, rules.FromPoints(score)+leave)
			}
		}
		if r+1 >= n || !g.shadowAdd(&s, sqs, r+1) {
			return
		}
		r++
	}
}

// queueSpan puts a span of the anchor being refined in line for placing,
// if it could beat the best move found.
func (g *Generator) queueSpan(a *anchorBound, start, end, k int, bound rules.Equity) {
	if g.best.found && bound < g.best.m.Equity {
		return
	}
	g.spans = append(g.spans, span{dir: a.dir, lane: a.lane, start: int8(start), end: int8(end), k: int8(k)})
	g.queue.push(queueKey(bound, len(g.spans)-1, spanEntry))
}

// sortNetworks[n] is a sorting network for n keys: Batcher's odd-even
// merge sort for 64, without the comparators that reach past n (those keys
// would be the lowest and stay last).
var sortNetworks = func() (nets [64][][2]uint8) {
	var all [][2]uint8
	const size = 64
	for p := 1; p < size; p *= 2 {
		for k := p; k >= 1; k /= 2 {
			for j := k % p; j+k < size; j += 2 * k {
				for i := 0; i < k && i+j+k < size; i++ {
					if (i+j)/(2*p) == (i+j+k)/(2*p) {
						all = append(all, [2]uint8{uint8(i + j), uint8(i + j + k)})
					}
				}
			}
		}
	}
	for n := range nets {
		for _, c := range all {
			if int(c[1]) < n {
				nets[n] = append(nets[n], c)
			}
		}
	}
	return nets
}()
