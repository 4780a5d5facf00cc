package endgame

import (
	"cmp"
	"slices"

	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// infinity is beyond any spread a game can change by.
const infinity = 30000

// Planted bugs, switched on by tests only, to show that the comparison with
// the plain minimax catches a wrong rule.
const (
	bugNone      = iota
	bugOutOnce   // going out earns the opponent's rack once, not twice
	bugScoreless // the game ends one scoreless turn late
	bugDrawOne   // a play draws one tile from a known bag, whatever it used
	bugZone      // a reply's zone is only the squares it covers (see outReply)
)

// plantedBug is bugNone except in the test that plants one.
var plantedBug = bugNone

// outBonus is what going out earns: twice the opponent's rack.
func outBonus(opp *rules.Rack) int { return outBonusOf(opp.Value()) }

// outBonusOf is outBonus of a rack of face value v.
func outBonusOf(v int) int {
	if plantedBug == bugOutOnce {
		return v
	}
	return rules.OutBonusOfValue(v)
}

// moveList is a Recorder keeping every move in a buffer reused from node to
// node (one per ply), so the search allocates nothing once warm.
type moveList struct {
	moves []move.Move
}

// Record implements movegen.Recorder.
func (l *moveList) Record(m *move.Move) { l.moves = append(l.moves, *m) }

// rootMove is a first move with what the last iteration found about it.
type rootMove struct {
	m     move.Move
	value int
	// idx is the move's place in the first ordering of the root's moves,
	// which depends on the position alone: among moves of equal value
	// the answer is the one with the lowest idx, whatever the threads did
	// (see canonicalRoot).
	idx int
}

// searcher is one thread's search. Everything it changes is its own but the
// table.
type searcher struct {
	sh *shared
	// tt is the solve's table as this thread last read it (shared.tt: a
	// one-shot solve may move to a bigger table between iterations).
	tt *table
	id int
	n  int // scoreless turns that end the game
	// gens[ply] is a generator for the board at ply, made when first
	// reached; cur[ply] is the one holding ply's board (a pass shares its
	// parent's).
	gens []*movegen.Generator
	cur  []*movegen.Generator
	// pend[ply], when set, is the move leading to ply whose board is not
	// made yet: a node settled by the table or valued as a leaf needs no
	// board, so the copy and the move's placement wait until asked for
	// (see ready).
	pend  []*move.Move
	lists []moveList
	defs  [][]int32 // by ply: the moves deferred (see search)
	// mcache holds the best moves this thread found, by position key, and
	// ttm[ply] the one tried first at ply (see search).
	mcache []cachedMove
	ttm    []move.Move
	// killer[ply] is the last move that went out and cut a node at ply,
	// and killm[ply] that move found again on the board of the node
	// searched now (see search).
	killer []move.Move
	killm  []move.Move
	// killSeq[ply] counts the killer moves kept at ply; outs[ply] is the
	// killer of ply+1 found on ply's board (see outReply).
	killSeq []uint32
	outs    []outReply
	play    *movegen.Generator // for greedy playouts
	// racks by player: 0 is the root's mover (ply even), 1 the opponent.
	racks [2]rules.Rack
	// bagAt[ply] is how many tiles of a known bag (Options.Bag) were drawn
	// before ply.
	bagAt []uint8
	nodes uint64
	// outSet and leaveSums: the multiset sums of the tiles the plays of
	// the node being ordered put down and of what they leave (see twoOuts).
	outSet    sumSet
	leaveSums []uint64
	// sortKeys and sortTmp are sortByKey's room.
	sortKeys []uint64
	sortTmp  []move.Move
	// aborted: the stop flag was seen; results since are meaningless.
	aborted bool
	// onlyComplete: take only complete table entries (see iterate).
	onlyComplete bool
	// ignoreStop: the main thread's first iteration, and the principal
	// variation of a proven value, run to their end whatever the stop flag
	// says, so that there is always an answer.
	ignoreStop bool

	rootMoves []rootMove
	// The last iteration completed.
	iterDone     bool
	lastDepth    int
	lastValue    int
	lastComplete bool
}

func newSearcher(sh *shared, id int) *searcher {
	s := &searcher{mcache: make([]cachedMove, moveCacheSlots)}
	s.reset(sh, id)
	return s
}

// reset makes s a fresh searcher of thread id of sh's solve, keeping its
// buffers, generators and move cache from an earlier solve on the same
// tables (see Table.searcher): a pre-endgame solves thousands of small
// endgames, and making a searcher (its generators, its move cache) cost
// more than searching some of them. A kept cache entry still holds: it is
// a best move of the position its key names, legal wherever that position
// is reached, and used only when the table names the same move.
func (s *searcher) reset(sh *shared, id int) {
	plies := sh.maxPl + 2
	if len(s.gens) < plies {
		s.gens = append(s.gens, make([]*movegen.Generator, plies-len(s.gens))...)
		s.cur = make([]*movegen.Generator, plies)
		s.pend = make([]*move.Move, plies)
		s.lists = append(s.lists, make([]moveList, plies-len(s.lists))...)
		s.defs = append(s.defs, make([][]int32, plies-len(s.defs))...)
		s.ttm = make([]move.Move, plies)
		s.killer = append(s.killer, make([]move.Move, plies-len(s.killer))...)
		s.killm = make([]move.Move, plies)
		s.killSeq = make([]uint32, plies)
		s.outs = make([]outReply, plies)
		s.bagAt = make([]uint8, plies)
	}
	clear(s.cur)
	clear(s.pend)
	clear(s.bagAt)
	s.sh, s.id, s.n = sh, id, sh.opts.ScorelessTurns
	s.tt = sh.tt.Load()
	s.racks = sh.root.racks
	s.nodes = 0
	s.aborted, s.onlyComplete, s.ignoreStop = false, false, false
	s.rootMoves = nil
	s.iterDone, s.lastDepth, s.lastValue, s.lastComplete = false, 0, 0, false
	if s.gens[0] == nil {
		s.gens[0] = newGenerator(sh.tables)
	}
	s.gens[0].SetBoard(&sh.root.board)
	s.cur[0] = s.gens[0]
}

// genAt returns ply's own generator, making it when first needed.
func (s *searcher) genAt(ply int) *movegen.Generator {
	g := s.gens[ply]
	if g == nil {
		g = newGenerator(s.sh.tables)
		s.gens[ply] = g
	}
	return g
}

// ready makes ply's board if it waits for its move (see pend).
func (s *searcher) ready(ply int) {
	m := s.pend[ply]
	if m == nil {
		return
	}
	g := s.genAt(ply)
	g.CopyBoard(s.cur[ply-1])
	g.Apply(m)
	s.cur[ply], s.pend[ply] = g, nil
}

// generate lists the moves of the side to move at ply (every play and the
// pass) in ply's buffer.
func (s *searcher) generate(ply int) []move.Move {
	s.ready(ply)
	l := &s.lists[ply]
	l.moves = l.moves[:0]
	s.cur[ply].Generate(&s.racks[ply&1], 0, movegen.Options{Pass: true}, l)
	return l.moves
}

// Move ordering keys, kept in the moves' Equity field (the search has no
// use for equity): going out first, then the table's move, then by
// estimate, the pass last.
const (
	keyOut  = 1 << 30
	keyTT   = 1 << 24
	keyPass = -1 << 20
)

// order gives every move its key. The estimate is the score plus the
// value of the tiles played, which will not count against the mover at the
// end, and a little for each tile. Node counts over the shared set (one
// thread) for the estimates tried: score alone 7.65M; 4 score + 3 tiles
// 5.65M; score + value played 5.60M; 2 score + 3 tiles 5.45M; score + 2
// value 5.37M; 2 score + 3 value + 2 tiles 5.28M. Two killer moves a ply
// on top made it 6.32M; going out before or after the table's move makes
// no difference. Then a heavier weight on the tiles played (tileWeight,
// 2 before): 8 4.58M, 20 3.04M, 30 2.97M (this one), 40 3.00M, 60 3.00M,
// 100 3.15M. Playing more tiles shortens the game: a refutation that does
// so needs a smaller proof (each of the other side's moves must be
// answered only until the game ends). On the one-tile pre-endgames the
// gain is larger: p004 solved in full took 2.8 million nodes, 0.95 with
// 20, and one probe of p008 (G1 MA, the blank drawn) 16.4 million, 0.33.
// With the bag empty, a play that leaves a two-move out (other plays of
// the node put its leave down whole) gets twoOutPerSpot more for each such
// play, up to twoOutSpots: see twoOuts.
func (s *searcher) order(moves []move.Move, ttMove uint32, ply int) {
	side := ply & 1
	tiles := s.racks[side].Count()
	if int(s.bagAt[ply]) < len(s.sh.root.bag) {
		tiles = -1 // no one goes out while the bag holds tiles
	}
	oppVal := int32(s.racks[1-side].Value())
	outs := s.twoOuts(moves, side, tiles)
	for i := range moves {
		m := &moves[i]
		var k int32
		switch {
		case m.Kind != move.Play:
			k = keyPass
		case int(m.NumTiles) == tiles:
			k = keyOut + m.Score + 2*oppVal
		default:
			k = 2*m.Score + 3*int32(usedValue(m)) + tileWeight*int32(m.NumTiles)
			if outs {
				k += twoOutBonus(s.outSet.count(s.leaveSums[i]))
			}
		}
		if ttMove != 0 && k < keyOut && moveID(m) == ttMove {
			k = keyTT
		}
		m.Equity = rules.Equity(k) // the sort key (pick)
	}
}

// tileWeight is what each tile a play puts down adds to its ordering key
// (see order).
const tileWeight = 30

// usedValue is the face value of the rack tiles a play puts down.
func usedValue(m *move.Move) int {
	v := 0
	for _, t := range m.Tiles[:m.Len] {
		if t != rules.PlayedThrough {
			v += t.Value()
		}
	}
	return v
}

// sortedPrefix is how many moves pick finds by selection before sorting
// the rest: most nodes are cut after one or two moves.
const sortedPrefix = 3

// pick puts the i-th best move by key at moves[i]: by selection for the
// first few, then the rest sorted at once (sortByKey).
func (s *searcher) pick(moves []move.Move, i int) {
	if i < sortedPrefix {
		b := i
		for j := i + 1; j < len(moves); j++ {
			if moves[j].Equity > moves[b].Equity {
				b = j
			}
		}
		moves[i], moves[b] = moves[b], moves[i]
		return
	}
	if i == sortedPrefix {
		s.sortByKey(moves[i:])
	}
}

// sortByKey orders moves by key, best first, ties in their order: it
// sorts one integer a move (the key's complement above the move's index)
// and then moves each move once, where a comparison sort of the moves
// themselves called a comparison and swapped 32-byte moves at every step.
func (s *searcher) sortByKey(moves []move.Move) {
	keys := s.sortKeys[:0]
	for j := range moves {
		// The sign bit flipped orders equities as unsigned numbers; the
		// rest flipped too puts the highest first.
		keys = append(keys, uint64(uint32(moves[j].Equity)^0x7fffffff)<<32|uint64(j))
	}
	slices.Sort(keys)
	tmp := append(s.sortTmp[:0], moves...)
	for j, k := range keys {
		moves[j] = tmp[uint32(k)]
	}
	s.sortKeys, s.sortTmp = keys, tmp
}

// search is negamax with alpha-beta and principal-variation search. It
// returns the value of the position at ply for its side to move, within
// (alpha, beta) or a bound outside it (fail soft), and whether it is
// complete: every line under it reached the end of the game, so the value
// holds at any depth.
func (s *searcher) search(ply, depth, alpha, beta int, key uint64, scoreless int) (int, bool) {
	s.nodes++
	if s.nodes&1023 == 0 {
		if limit := s.sh.opts.MaxNodes; limit > 0 && s.nodes >= limit {
			s.sh.stop.Store(true)
		}
		if !s.ignoreStop && s.sh.stop.Load() {
			s.aborted = true
		}
	}
	if s.aborted {
		return 0, false
	}
	if depth <= 0 && !s.sh.playouts {
		// A static leaf costs less than the table's probe (a cache miss):
		// 4% of the time. (A complete entry there would do no better than
		// the next iteration.)
		return s.leaf(ply, scoreless), false
	}
	var ttMove uint32
	if d, ok := s.tt.probe(key); ok {
		ttMove = d.move
		if d.complete || (d.depth >= depth && !s.onlyComplete) {
			switch {
			case d.bound == boundExact,
				d.bound == boundLower && d.value >= beta,
				d.bound == boundUpper && d.value <= alpha:
				return d.value, d.complete
			}
		}
	}
	if depth <= 0 {
		return s.leaf(ply, scoreless), false
	}
	best, bestID, complete := -infinity, uint32(0), true
	alpha0 := alpha
	// The table's move, when this thread kept it, is tried before the
	// moves are listed: when it cuts, the node needs no generation (a
	// tenth of the time on the shared set).
	var pre uint32
	if ttMove != 0 {
		if c := &s.mcache[key&moveCacheMask]; c.key == key && moveID(&c.m) == ttMove {
			m := &s.ttm[ply]
			*m = c.m
			s.ready(ply)
			v, c, _ := s.tryMove(ply, depth, m, true, alpha, beta, key, scoreless, false)
			if s.aborted {
				return 0, false
			}
			pre, best, bestID, complete = ttMove, v, ttMove, c
			if v > alpha {
				alpha = v
			}
			if alpha >= beta {
				s.noteCut(ply, m)
				s.storeNode(key, m, ttData{move: bestID, value: best, depth: depth, bound: boundLower, complete: complete})
				return best, complete
			}
		}
	}
	// Then the killer move: the last move that went out and cut a node at
	// this ply (most often in a sibling of this one), found again on this
	// board if it goes out here too (see movegen.Generator.FindPlay).
	// Going out ends the game, so trying it costs no subtree, and when it
	// cuts the node needs no generation. (Any killer tried first, one that
	// does not go out as well, made the one-tile pre-endgames several
	// times as slow: a killer that fails to cut costs its whole subtree.)
	var killed *move.Move
	if k := &s.killer[ply]; k.Kind == move.Play && ttMove == 0 && int(k.NumTiles) == s.racks[ply&1].Count() && int(s.bagAt[ply]) == len(s.sh.root.bag) {
		m := &s.killm[ply]
		s.ready(ply)
		var ok bool
		if *m, ok = s.cur[ply].FindPlay(&s.racks[ply&1], k); ok {
			v, c, _ := s.tryMove(ply, depth, m, pre == 0, alpha, beta, key, scoreless, false)
			if s.aborted {
				return 0, false
			}
			killed = m
			complete = complete && c
			if v > best {
				best, bestID = v, moveID(m)
				if v > alpha {
					alpha = v
				}
			}
			if alpha >= beta {
				s.storeNode(key, m, ttData{move: bestID, value: best, depth: depth, bound: boundLower, complete: complete})
				return best, complete
			}
		}
	}
	moves := s.generate(ply)
	s.order(moves, ttMove, ply)
	out := s.armOut(ply)
	// With several threads, a move another thread is searching now waits
	// until the others are done (simplified ABDADA): the threads then share
	// the work of a node instead of repeating it. Not near the leaves,
	// where the bookkeeping costs more than the work.
	mayDefer := s.sh.opts.Threads > 1 && depth >= deferDepth
	defs := s.defs[ply][:0]
	cut := false
	bestAt := -1
	rack := &s.racks[ply&1]
	tiles, value := rack.Count(), rack.Value() // for out.bound
	for i := range moves {
		s.pick(moves, i)
		m := &moves[i]
		if (pre != 0 && sameMove(m, &s.ttm[ply])) || (killed != nil && sameMove(m, killed)) {
			continue // searched above
		}
		// A play the opponent's going-out reply refutes needs no search
		// (see outReply); the reply is looked for again when a child
		// keeps a new killer.
		if out == nil && s.outs[ply].seq != s.killSeq[ply+1] {
			out = s.armOut(ply)
		}
		if out != nil {
			if v, ok := out.bound(m, tiles, value); ok && v <= alpha {
				if v > best {
					best, bestID, bestAt = v, moveID(m), i
				}
				continue
			}
		}
		v, c, deferred := s.tryMove(ply, depth, m, i == 0 && pre == 0 && killed == nil, alpha, beta, key, scoreless, mayDefer)
		if deferred {
			defs = append(defs, int32(i))
			continue
		}
		if s.aborted {
			return 0, false
		}
		complete = complete && c
		if v > best {
			best, bestID, bestAt = v, moveID(m), i
			if v > alpha {
				alpha = v
				if alpha >= beta {
					cut = true
					s.noteCut(ply, m)
					break
				}
			}
		}
	}
	for _, i := range defs {
		if cut {
			break
		}
		m := &moves[i]
		v, c, _ := s.tryMove(ply, depth, m, false, alpha, beta, key, scoreless, false)
		if s.aborted {
			return 0, false
		}
		complete = complete && c
		if v > best {
			best, bestID, bestAt = v, moveID(m), int(i)
			if v > alpha {
				alpha = v
				if cut = alpha >= beta; cut {
					s.noteCut(ply, m)
				}
			}
		}
	}
	s.defs[ply] = defs
	b := boundExact
	switch {
	case best <= alpha0:
		b = boundUpper
	case best >= beta:
		b = boundLower
	}
	var bm *move.Move
	switch {
	case bestAt >= 0:
		bm = &moves[bestAt]
	case killed != nil && bestID == moveID(killed):
		bm = killed
	}
	s.storeNode(key, bm, ttData{move: bestID, value: best, depth: depth, bound: b, complete: complete})
	return best, complete
}

// noteCut keeps m, which cut a node at ply, as the ply's killer move if it
// went out (see search).
func (s *searcher) noteCut(ply int, m *move.Move) {
	if m.Kind == move.Play && int(m.NumTiles) == s.racks[ply&1].Count() && int(s.bagAt[ply]) == len(s.sh.root.bag) {
		s.killer[ply] = *m
		s.killSeq[ply]++
	}
}

// sameMove says whether a and b are the same move: the same kind, and for
// plays the same squares and tiles. (Move IDs are hashes: two moves of a
// node may share one.)
func sameMove(a, b *move.Move) bool {
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind != move.Play {
		return true
	}
	return a.Row == b.Row && a.Col == b.Col && a.Dir == b.Dir && a.Len == b.Len && a.Tiles == b.Tiles
}

// moveCacheSlots is the size of a thread's cache of best moves.
const (
	moveCacheSlots = 1 << 16
	moveCacheMask  = moveCacheSlots - 1
)

// cachedMove is a position's best move, kept by the thread that found it.
type cachedMove struct {
	key uint64
	m   move.Move
}

// storeNode records a node's result in the table, and its best move m (nil
// when unchanged) in the thread's cache.
func (s *searcher) storeNode(key uint64, m *move.Move, d ttData) {
	s.tt.store(key, d)
	if m != nil {
		c := &s.mcache[key&moveCacheMask]
		c.key, c.m = key, *m
	}
}

// deferDepth is the least depth at which threads defer each other's moves.
const deferDepth = 3

// tryMove searches move m, the first with the full window, the others with
// a null window first (principal-variation search). With mayDefer, a move
// another thread is searching is not searched: deferred is true.
func (s *searcher) tryMove(ply, depth int, m *move.Move, first bool, alpha, beta int, key uint64, scoreless int, mayDefer bool) (v int, complete, deferred bool) {
	if first {
		v, complete, _ = s.child(ply, depth, m, alpha, beta, key, scoreless, false)
		return v, complete, false
	}
	v, complete, deferred = s.child(ply, depth, m, alpha, alpha+1, key, scoreless, mayDefer)
	if !deferred && v > alpha && v < beta && !s.aborted {
		v, complete, _ = s.child(ply, depth, m, alpha, beta, key, scoreless, false)
	}
	return v, complete, deferred
}

// child returns the value of move m at ply for the side making it, and
// whether it is complete: the move's score less the opponent's value after
// it, or the end of the game's settlement when the move ends it.
//
// With mayDefer, a move whose position another thread is searching is left
// alone and deferred is true.
func (s *searcher) child(ply, depth int, m *move.Move, alpha, beta int, key uint64, scoreless int, mayDefer bool) (v int, complete, deferred bool) {
	side := ply & 1
	mover, opp := &s.racks[side], &s.racks[1-side]
	score := int(m.Score)
	drawn := int(s.bagAt[ply])
	left := len(s.sh.root.bag) - drawn
	if m.Kind == move.Play && int(m.NumTiles) == mover.Count() && left == 0 {
		return score + outBonus(opp), true, false
	}
	ns := scoreless + 1
	if score > 0 {
		ns = 0
	}
	saved := *mover
	childKey := key ^ zSide ^ zScoreless[scoreless] ^ zScoreless[ns]
	if m.Kind == move.Play {
		for _, t := range m.Tiles[:m.Len] {
			if t == rules.PlayedThrough {
				continue
			}
			i := t.RackIndex()
			c := mover[i]
			childKey ^= zRack[side][i][c] ^ zRack[side][i][c-1]
			mover[i] = c - 1
		}
		if left > 0 {
			d := min(int(m.NumTiles), left)
			if plantedBug == bugDrawOne {
				d = 1
			}
			childKey ^= s.draw(side, drawn, d)
			drawn += d
		}
	}
	s.bagAt[ply+1] = uint8(drawn)
	if s.ends(ns) {
		v := score - mover.Value() + opp.Value()
		*mover = saved
		return v, true, false
	}
	if m.Kind == move.Play {
		childKey ^= playDelta(m)
	}
	busy := s.sh.busy != nil && (depth >= deferDepth || ply == 0)
	if busy {
		if mayDefer && s.sh.busy.has(childKey) {
			*mover = saved
			return 0, false, true
		}
		s.sh.busy.set(childKey)
	}
	if m.Kind == move.Play {
		s.pend[ply+1] = m
	} else {
		s.cur[ply+1], s.pend[ply+1] = s.cur[ply], nil
	}
	v, complete = s.search(ply+1, depth-1, score-beta, score-alpha, childKey, ns)
	if busy {
		s.sh.busy.clear(childKey)
	}
	*mover = saved
	return score - v, complete, false
}

// draw puts d tiles of the known bag, from the drawn-th on, on side's rack
// and returns what that changes in the key.
func (s *searcher) draw(side, drawn, d int) uint64 {
	r := &s.racks[side]
	k := zDrawn[drawn] ^ zDrawn[drawn+d]
	for _, t := range s.sh.root.bag[drawn : drawn+d] {
		i := t.RackIndex()
		c := r[i]
		k ^= zRack[side][i][c] ^ zRack[side][i][c+1]
		r[i] = c + 1
	}
	return k
}

// ends reports whether ns consecutive scoreless turns end the game.
func (s *searcher) ends(ns int) bool {
	if plantedBug == bugScoreless {
		return ns > s.n
	}
	return ns >= s.n
}

// leaf values a position where the depth runs out. A depth-limited answer
// (Options.Plies, or a deadline) values it by a greedy playout. An exact
// search only needs it to order the next iteration's moves, and there a
// static guess does as well at a fraction of the cost (half the time on the
// shared set): both racks stuck, each side losing its own.
func (s *searcher) leaf(ply, scoreless int) int {
	if s.sh.playouts {
		return s.playout(ply, scoreless)
	}
	side := ply & 1
	return s.racks[1-side].Value() - s.racks[side].Value()
}

// playout values a leaf cut by the depth limit: both sides play their
// highest-scoring move in turn (passing when they have none) to the end of
// the game. The value is for the side to move at ply.
func (s *searcher) playout(ply, scoreless int) int {
	if s.play == nil {
		s.play = newGenerator(s.sh.tables)
	}
	g := s.play
	s.ready(ply)
	g.CopyBoard(s.cur[ply])
	racks := s.racks
	bag := s.sh.root.bag[s.bagAt[ply]:]
	side := ply & 1
	v, sign := 0, 1
	for {
		mover, opp := &racks[side], &racks[1-side]
		m, ok := g.Best(mover, 0, movegen.Options{})
		score := 0
		if ok && m.Kind == move.Play {
			score = int(m.Score)
			if int(m.NumTiles) == mover.Count() && len(bag) == 0 {
				return v + sign*(score+outBonus(opp))
			}
			mover.Sub(m.Used())
			g.Apply(&m)
			d := min(int(m.NumTiles), len(bag))
			for _, t := range bag[:d] {
				mover.Add(t)
			}
			bag = bag[d:]
		}
		v += sign * score
		if score > 0 {
			scoreless = 0
		} else {
			scoreless++
		}
		if s.ends(scoreless) {
			return v + sign*(opp.Value()-mover.Value())
		}
		side, sign = 1-side, -sign
	}
}

// firstMoves returns the root's moves (those of Options.Restrict if set)
// in their first order, which the position alone sets: their idx.
func (s *searcher) firstMoves() []rootMove {
	moves := s.generate(0)
	s.order(moves, 0, 0)
	s.sortByKey(moves)
	out := make([]rootMove, 0, len(moves))
	for i := range moves {
		if only := s.sh.opts.Restrict; len(only) > 0 && !slices.ContainsFunc(only, func(m move.Move) bool { return move.Same(&m, &moves[i]) }) {
			continue
		}
		out = append(out, rootMove{m: moves[i], idx: len(out)})
	}
	return out
}

// iterate runs iterative deepening from the root until the value is proven,
// the depth limit is reached or the search is stopped.
func (s *searcher) iterate() {
	if s.rootMoves == nil && s.sh.opts.First != nil {
		s.rootMoves = []rootMove{{m: *s.sh.opts.First}}
	}
	if s.rootMoves == nil {
		if s.rootMoves = s.firstMoves(); len(s.rootMoves) == 0 {
			return // none of Options.Restrict is legal (solve says so)
		}
	}
	limit := s.sh.maxPl
	if p := s.sh.opts.Plies; p > 0 && p < limit {
		limit = p
	}
	// Every thread runs the same iterations: starting helpers a ply
	// deeper, as Lazy SMP often does, showed no gain once the threads
	// defer each other's moves (see search).
	first := 1
	if s.sh.opts.NoDeepening {
		first = limit
	}
	for d := first; d <= limit; d++ {
		// At the bound on the game's length every line ends before the
		// depth runs out: taking only complete entries then guarantees a
		// complete (proven) answer.
		s.onlyComplete = d >= s.sh.maxPl
		// Without deepening there is no cheap first iteration to finish:
		// a stop leaves no answer (see Options.NoDeepening).
		s.ignoreStop = s.id == 0 && !s.iterDone && !s.sh.opts.NoDeepening
		v, complete := s.searchRoot(d)
		s.ignoreStop = false
		if s.aborted {
			break
		}
		s.iterDone, s.lastDepth, s.lastValue, s.lastComplete = true, d, v, complete
		// The proven iteration's report comes from solve, with the answer
		// chosen among equal moves (result).
		if f := s.sh.opts.Progress; f != nil && s.id == 0 && !complete {
			f(Progress{Depth: d, Value: v, Best: s.rootMoves[0].m.NotationOn(&s.sh.root.board), Nodes: s.nodes})
		}
		if complete {
			s.sh.prove(s)
			break
		}
		if s.id == 0 && s.sh.growMB > 0 && s.nodes >= s.sh.growAt {
			s.sh.grow()
		}
		if s.sh.done.Load() {
			break
		}
	}
}

// searchRoot searches every first move to depth d, keeping their order by
// value for the next iteration, and returns the root's value.
func (s *searcher) searchRoot(d int) (int, bool) {
	alpha, beta := -infinity, infinity
	if w := s.sh.opts.Window; w.set() {
		alpha, beta = w.Lo, w.Hi
	}
	s.tt = s.sh.tt.Load()
	alpha0 := alpha
	best, complete := -infinity, true
	bestAt := -1
	cut := false
	key := s.sh.rootKey
	scoreless := s.sh.root.scoreless
	// At the root the threads share the moves at any depth: a position
	// with a blank has thousands of first moves, and the shallow
	// iterations over them were the same work on every thread.
	mayDefer := s.sh.opts.Threads > 1
	defs := s.defs[0][:0]
	try := func(i int, mayDefer bool) bool {
		// The move itself, not a copy: a pointer to a local would make
		// it escape (see pend), one allocation a move and iteration.
		rm := &s.rootMoves[i]
		v, c, deferred := s.tryMove(0, d, &rm.m, i == 0, alpha, beta, key, scoreless, mayDefer)
		if deferred {
			defs = append(defs, int32(i))
			return true
		}
		if s.aborted {
			return false
		}
		rm.value = v
		complete = complete && c
		if v > best {
			best, bestAt = v, i
			if v > alpha {
				alpha = v
			}
			cut = alpha >= beta
		}
		return true
	}
	for i := range s.rootMoves {
		if cut {
			break
		}
		if !try(i, mayDefer) {
			return 0, false
		}
	}
	for _, i := range defs {
		if cut {
			break
		}
		if !try(int(i), false) {
			return 0, false
		}
	}
	s.defs[0] = defs
	sortRoot(s.rootMoves, bestAt)
	b := boundExact
	switch {
	case best <= alpha0:
		b = boundUpper
	case best >= beta:
		b = boundLower
	}
	s.tt.store(key, ttData{move: moveID(&s.rootMoves[0].m), value: best, depth: d, bound: b, complete: complete})
	return best, complete
}

// sortRoot orders the first moves for the next iteration and the answer:
// the move that set the value (at best, -1 for none) first, then the others
// by value, the moves that failed low keeping their order. The best move
// must be put first by hand: a move that failed low returns a bound, which
// can equal the best value (a deferred move searched after the best one
// with the null window at it), and a move left unsearched after a cut
// keeps an older iteration's value, which can be higher. Sorted by value
// alone, either could come first and be answered as the best move.
func sortRoot(moves []rootMove, best int) {
	if best > 0 {
		bm := moves[best]
		copy(moves[1:best+1], moves[:best])
		moves[0] = bm
	}
	if best >= 0 {
		moves = moves[1:]
	}
	slices.SortStableFunc(moves, func(a, b rootMove) int { return cmp.Compare(b.value, a.value) })
}

// grow moves a one-shot solve to its full-size table (Options.TTMB), the
// small one it began with having filled: the threads take the new table
// at their next iteration, which refills it. Only thread 0 calls it, and
// the tables are given back when every thread is done.
func (sh *shared) grow() {
	sh.spent = append(sh.spent, sh.tt.Load())
	sh.tt.Store(getTable(sh.growMB))
	sh.growMB = 0
}

// prove records that s proved the root's value and stops the others.
func (sh *shared) prove(s *searcher) {
	sh.mu.Lock()
	if sh.prover == nil {
		sh.prover = s
	}
	sh.mu.Unlock()
	sh.done.Store(true)
	sh.stop.Store(true)
}
