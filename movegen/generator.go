package movegen

import (
	"math/bits"
	"sync/atomic"

	"scrabble/gaddag"
	"scrabble/move"
	"scrabble/rules"
)

const (
	n = rules.Size
	// allLetters is the cross-check of a square with no perpendicular word.
	allLetters = uint32(1<<(rules.NumLetters+1)) - 2
	// hasCross marks a cross-check whose square has a perpendicular word, so
	// a tile there scores that word too.
	hasCross = uint32(1) << 31
)

// Generator generates moves for one board. It is not safe for concurrent
// use: each worker owns its own.
//
// Everything is kept per direction in lane order: for Across, lane r is row
// r; for Down, lane c is column c (the transposed board). One code path then
// generates both directions.
//
// Its state is grouped by lifetime, each group a value embedded in it (so
// the code names a field without its group, and a group is copied in one
// assignment): the lexicon's tables, shared with every generator on it;
// the board's state, which SetBoard, Apply and CopyBoard change; one
// generation's state (the rack, the lane and the play being walked); Best's
// search state; and what Best keeps of the last racks it searched.
type Generator struct {
	tables *Tables
	graph              // a copy of tables.graph, one load nearer the walk
	valuer LeaveValuer // set by SetLeaves, kept until changed
	boardState
	walkState
	searchState
	rackCache
	// stamp is the last lane stamp this generator gave out; stamps of
	// different generators never meet (see newStamps).
	stamp uint64
	// laneCache holds the lanes GeneratePlays loaded, by d*n+lane, each
	// with the stamp it was loaded at (made on first use).
	laneCache *[2 * n]cachedLane
	// finder is FindPlay's recorder.
	finder playFinder
}

// cachedLane is a lane's squares as loadSquares leaves them in sq, and the
// lane's stamp then.
type cachedLane struct {
	ver uint64
	sq  [n + 2]laneSquare
}

// stampBlocks hands each generator its own block of lane stamps.
var stampBlocks atomic.Uint64

// newStamps is the first stamp of a new block: 2^40 stamps a generator,
// and stamp 0 (no lane's) marks an empty cache entry.
func newStamps() uint64 { return stampBlocks.Add(1) << 40 }

// bumpLane gives lane of direction d a new stamp: its squares changed.
func (g *Generator) bumpLane(d, lane int) {
	g.stamp++
	g.laneVer[d][lane] = g.stamp
}

// boardState is the board and every per-square set derived from it: what
// a generation reads of the position.
type boardState struct {
	board rules.Board
	tiles [2][n * n]rules.Letter
	// cross[d][sq] is the set of letters (bit l) a play in direction d may
	// put on sq, decided by the perpendicular word through it; crossScore is
	// that word's face value without the new tile.
	cross      [2][n * n]uint32
	crossScore [2][n * n]int32
	// ext[d][sq] is the extension set of an empty square (see extension.go).
	ext [2][n * n]uint32
	// anchor[d][lane] has bit pos set when that square is an anchor: an
	// empty square next to a tile (or the centre of an empty board).
	anchor    [2][n]uint16
	tileCount int
	// laneVer[d][lane] names the state of the lane's squares above: a
	// stamp no other state of any lane of any generator has (see
	// bumpLane), so a generator's copy of a loaded lane (laneCache) is
	// still right wherever the stamp is the same, after CopyBoard too.
	laneVer [2][n]uint64
}

// walkState is one generation's: the rack left, the lane being searched
// and the play being built on it.
type walkState struct {
	rack       rules.Rack
	rackTiles  int
	letterMask uint32 // bit l set while the rack holds an l (blanks aside)
	blankMask  uint32 // allLetters while the rack holds a blank, else 0
	leaves     rackLeaves
	rec        Recorder
	dir        int
	base       int // lane*n: index of the lane's first square
	lane       int
	anchorPos  int
	leftmost   int                 // leftmost square of the word once the separator is crossed
	strip      [2 * n]rules.Letter // past n: zeros, read by record
	// sq is the lane being searched, square pos at index pos+1; the two
	// ends are walls (empty, nothing allowed), so the search needs no edge
	// tests.
	// It points at own, or at the lane's entry in laneCache.
	sq        *[n + 2]laneSquare
	own       [n + 2]laneSquare
	rightFree bool // the square right of the anchor is empty or off the board
	move      move.Move
	// Scratch for the leave values of a rack.
	leaveScratch leaveScratch
	// The tiles a word is being placed with and their number (direct.go).
	have    rules.Rack
	placing int
	open    openTerm // Best, Generate: the triple-word squares a play may open
}

// searchState is Best's: the anchors and spans in line by bound, the best
// move so far, the rack's shadow values and the shadow squares, and the
// lanes the search keeps (see laneBounds).
type searchState struct {
	anchors    []anchorBound
	queue      bucketQueue // Best's entries by bound (see queueKey)
	best       bestEquity
	tileValues [rules.RackSize]int32         // rack tile values, highest first (shadow)
	tileTop    [rules.RackSize + 1]int32     // prefix sums of tileValues
	anagrams   *anagramIndex                 // tables', once a search has asked for it
	sink       uint64                        // see analyzeRack
	pruning    bool                          // Best: record nothing below the best move
	sortKeys   [rules.RackSize + 1][64]int64 // analyzeRack's sort
	// Shadow squares by lane (d*n+lane) for the rack, valid while their
	// stamp is shadowStamp.
	shadowSq     [2 * n][n]shadowSquare
	win          shadowWindows // a lane's shadow squares summed (firstBound)
	shadowStamps [2 * n]uint32
	shadowStamp  uint32
	spans        []span
	// Best: the copy of each lane it keeps or opens (by lane, d*n+lane;
	// nil for the others), where the best play found in the lane being
	// searched goes if it is kept, and scratch for a lane's square keys.
	kept     [2 * n]*laneBounds
	keptAny  bool // some kept entry is set
	laneBest *bestEquity
	laneKeys [n]uint64
}

// rackCache is what Best worked out about the last two racks (see
// setRackCached): ri is the current rack's, one of racks.
type rackCache struct {
	ri     *rackInfo
	racks  [2]rackInfo
	riNext int // the entry the next new rack goes in
}

// New returns a generator over an empty board, reading t.
func New(t *Tables) *Generator {
	g := &Generator{tables: t, graph: t.graph, stamp: newStamps()}
	for i := range g.racks {
		ri := &g.racks[i]
		for k := range ri.bySize {
			ri.bySize[k] = make([]uint8, 0, len(ri.subsets))
		}
	}
	g.ri = &g.racks[0]
	g.sq = &g.own
	g.boardState = t.empty
	return g
}

// letterMul and wordMul are the premium squares' multipliers in lane order,
// shared by every generator (so they stay in the cache).
var letterMul, wordMul = func() (lm, wm [2][n * n]int32) {
	for d := 0; d < 2; d++ {
		for lane := 0; lane < n; lane++ {
			for pos := 0; pos < n; pos++ {
				r, c := boardRC(d, lane, pos)
				p := rules.PremiumAt(r, c)
				lm[d][lane*n+pos] = int32(p.LetterMultiplier())
				wm[d][lane*n+pos] = int32(p.WordMultiplier())
			}
		}
	}
	return lm, wm
}()

// boardRC converts lane coordinates to board row and column.
func boardRC(d, lane, pos int) (row, col int) {
	if d == int(rules.Down) {
		return pos, lane
	}
	return lane, pos
}

// Board returns the current board (read-only).
func (g *Generator) Board() *rules.Board { return &g.board }

// SetBoard replaces the board and recomputes every cross-check.
func (g *Generator) SetBoard(b *rules.Board) {
	if b.Squares == ([rules.Squares]rules.Letter{}) {
		// Every game starts here (and every new generator).
		g.boardState = g.tables.empty
		return
	}
	g.setBoard(b)
}

// setBoard is SetBoard working every set out.
func (g *Generator) setBoard(b *rules.Board) {
	g.board = *b
	g.tileCount = 0
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			l := b.At(r, c)
			g.tiles[rules.Across][r*n+c] = l
			g.tiles[rules.Down][c*n+r] = l
			if l != rules.Empty {
				g.tileCount++
			}
		}
	}
	for d := 0; d < 2; d++ {
		for sq := 0; sq < n*n; sq++ {
			g.updateCross(d, sq/n, sq%n)
		}
		for lane := 0; lane < n; lane++ {
			g.updateLaneExtensions(d, lane)
		}
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			g.updateAnchor(r, c)
		}
	}
}

// CopyBoard makes g's board and every per-square set derived from it equal
// to src's, without recomputing them: the cheap way for a simulation to
// restore a position after playing moves forward. Both generators must use
// the same lexicon; the leave valuer and per-generation state stay g's own.
func (g *Generator) CopyBoard(src *Generator) {
	if g.tables.lex != src.tables.lex {
		panic("movegen: CopyBoard between generators of different lexica")
	}
	g.boardState = src.boardState
}

func (g *Generator) occupied(r, c int) bool {
	return rules.InBounds(r, c) && g.tiles[rules.Across][r*n+c] != rules.Empty
}

// updateAnchor decides whether (r, c) is an anchor: an empty square next to
// a tile, or the centre of an empty board.
func (g *Generator) updateAnchor(r, c int) {
	a := false
	if g.tiles[rules.Across][r*n+c] == rules.Empty {
		if g.tileCount == 0 {
			a = r == rules.CenterRow && c == rules.CenterCol
		} else {
			a = g.occupied(r-1, c) || g.occupied(r+1, c) || g.occupied(r, c-1) || g.occupied(r, c+1)
		}
	}
	if a {
		g.anchor[rules.Across][r] |= 1 << c
		g.anchor[rules.Down][c] |= 1 << r
	} else {
		g.anchor[rules.Across][r] &^= 1 << c
		g.anchor[rules.Down][c] &^= 1 << r
	}
}

// updateCross recomputes the cross-check for plays in direction d on lane
// square (lane, pos), from the perpendicular word through it.
func (g *Generator) updateCross(d, lane, pos int) {
	g.bumpLane(d, lane)
	sq := lane*n + pos
	if g.tiles[d][sq] != rules.Empty {
		g.cross[d][sq], g.crossScore[d][sq] = 0, 0
		return
	}
	// The perpendicular word lies along lane pos of the other direction,
	// around position lane.
	perp := &g.tiles[1-d]
	pb := pos * n
	start, end := lane, lane
	for start > 0 && perp[pb+start-1] != rules.Empty {
		start--
	}
	for end < n-1 && perp[pb+end+1] != rules.Empty {
		end++
	}
	if start == lane && end == lane {
		g.cross[d][sq], g.crossScore[d][sq] = allLetters, 0
		return
	}
	score := int32(0)
	for i := start; i <= end; i++ {
		if i != lane {
			score += int32(perp[pb+i].Value())
		}
	}
	// The word is prefix + L + suffix. A run of one or two letters on one
	// side only is a table read. Else with no suffix, the letters that
	// end a word after the prefix are read off the DAWG in one walk, and
	// otherwise the GADDAG holds rev(suffix) L rev(prefix) as a path from
	// its root.
	var set uint32
	if start == lane || end == lane {
		run := perp[pb+start : pb+lane]
		if start == lane {
			run = perp[pb+lane+1 : pb+end+1]
		}
		if s, ok := g.short.set(run, start == lane); ok {
			g.cross[d][sq] = s | hasCross
			g.crossScore[d][sq] = score
			return
		}
	}
	if end == lane {
		if x, ok := g.followForward(g.dawgArc(), perp[pb+start:pb+lane]); ok {
			set = g.acceptSet(x) & allLetters
		}
	} else if x, ok := g.followBack(g.rootArc(), perp[pb+lane+1:pb+end+1]); ok {
		prefix := perp[pb+start : pb+lane]
		for p := x.childSet() & allLetters; p != 0; p &= p - 1 {
			l := rules.Letter(bits.TrailingZeros32(p))
			y, _ := g.step(x, l)
			if z, ok := g.followBack(y, prefix); ok && z.arc().Accepts() {
				set |= 1 << l
			}
		}
	}
	g.cross[d][sq] = set | hasCross
	g.crossScore[d][sq] = score
}

// Apply places a play on the board, updating cross-checks and anchors only
// where it touches. Exchanges and passes leave the board as it is.
func (g *Generator) Apply(m *move.Move) {
	if m.Kind != move.Play {
		return
	}
	d := int(m.Dir)
	lane, first := int(m.Row), int(m.Col)
	if m.Dir == rules.Down {
		lane, first = int(m.Col), int(m.Row)
	}
	for i := 0; i < int(m.Len); i++ {
		t := m.Tiles[i]
		if t == rules.PlayedThrough {
			continue
		}
		r, c := boardRC(d, lane, first+i)
		g.board.Set(r, c, t)
		g.tiles[rules.Across][r*n+c] = t
		g.tiles[rules.Down][c*n+r] = t
		g.bumpLane(int(rules.Across), r)
		g.bumpLane(int(rules.Down), c)
		g.tileCount++
	}
	// Squares whose perpendicular word changed: for each new tile, the two
	// ends of its perpendicular run (their cross-checks for direction d);
	// and the two ends of the main run (cross-checks for the other
	// direction).
	od := 1 - d
	for i := 0; i < int(m.Len); i++ {
		if m.Tiles[i] == rules.PlayedThrough {
			continue
		}
		pos := first + i
		g.updateRunEnds(d, pos, lane, lane)
		g.cross[od][pos*n+lane], g.crossScore[od][pos*n+lane] = 0, 0
		g.cross[d][lane*n+pos], g.crossScore[d][lane*n+pos] = 0, 0
	}
	g.updateRunEnds(od, lane, first, first+int(m.Len)-1)
	// Extension sets change around the runs the new tiles joined: the
	// play's word in its lane (one run, whichever new tile it is found
	// from), and in each lane across it that received a tile.
	main := false
	for i := 0; i < int(m.Len); i++ {
		if m.Tiles[i] != rules.PlayedThrough {
			if !main {
				g.updateRunExtensions(d, lane, first+i)
				main = true
			}
			g.ext[d][lane*n+first+i] = 0
			g.updateRunExtensions(od, first+i, lane)
		}
	}
	// Anchors change only on and around the new tiles (and everywhere when
	// the board was empty: the centre stops being one).
	if g.tileCount == int(m.NumTiles) {
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				g.updateAnchor(r, c)
			}
		}
		return
	}
	for i := 0; i < int(m.Len); i++ {
		if m.Tiles[i] == rules.PlayedThrough {
			continue
		}
		r, c := boardRC(d, lane, first+i)
		g.updateAnchor(r, c)
		for _, nb := range [4][2]int{{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}} {
			if rules.InBounds(nb[0], nb[1]) {
				g.updateAnchor(nb[0], nb[1])
			}
		}
	}
}

// updateRunEnds recomputes the cross-checks for direction d at the two
// empty squares that bound the run of tiles covering positions from..to of
// lane `lane` in the other direction (the run's word is their
// perpendicular word).
func (g *Generator) updateRunEnds(d, lane, from, to int) {
	run := &g.tiles[1-d]
	lb := lane * n
	for from >= 0 && run[lb+from] != rules.Empty {
		from--
	}
	for to < n && run[lb+to] != rules.Empty {
		to++
	}
	if from >= 0 {
		g.updateCross(d, from, lane)
	}
	if to < n {
		g.updateCross(d, to, lane)
	}
}

// GeneratePlays hands every legal play for rack to rec (not exchanges or the
// pass). On an empty board only across plays are listed.
func (g *Generator) GeneratePlays(rack *rules.Rack, rec Recorder) {
	g.setRack(rack)
	g.rec = rec
	if g.rackTiles == 0 {
		return
	}
	root := g.root
	for d := 0; d < g.directions(); d++ {
		for lane := 0; lane < n; lane++ {
			set := g.anchor[d][lane]
			if set == 0 {
				continue
			}
			// An anchor takes a new tile: one where no tile of the rack
			// fits is no play's, and a lane with none left is not loaded
			// (late in a game, short racks leave many such).
			if set = g.fitting(d, lane, set); set == 0 {
				continue
			}
			g.loadLane(d, lane)
			last := -1
			for ; set != 0; set &= set - 1 {
				pos := bits.TrailingZeros16(set)
				g.genAnchor(pos, last, root)
				last = pos
			}
		}
	}
}

// fitting returns the anchors of set, in lane of direction d, where a tile
// of the rack fits (the cross-check and the lane's extension set allow
// one). Leaving the others out changes no walk: the walk from an anchor
// stops at the previous one, and one where nothing fits stops it too.
func (g *Generator) fitting(d, lane int, set uint16) uint16 {
	tiles := g.letterMask | g.blankMask
	base := lane * n
	for v := set; v != 0; v &= v - 1 {
		sq := base + bits.TrailingZeros16(v)
		if g.cross[d][sq]&g.ext[d][sq]&tiles == 0 {
			set &^= v & -v
		}
	}
	return set
}

// genAnchor generates the plays whose leftmost new tile next to the board
// is on the anchor at pos of the loaded lane.
func (g *Generator) genAnchor(pos, leftLimit int, root gaddag.Node) {
	g.anchorPos = pos
	g.rightFree = g.sq[pos+2].tile == rules.Empty
	// The plays reaching the previous anchor are that anchor's: its square
	// takes nothing meanwhile, so the walk left needs no test of its own
	// (and no square left of it can be reached).
	limit := &g.sq[leftLimit+1]
	cross := limit.cross
	limit.cross = 0 // at -1, the wall: 0 already
	g.gen(pos, root, g.rootSet, 0)
	limit.cross = cross
}

// directions is 1 on an empty board (only across plays are listed: the
// down ones mirror them), else 2.
func (g *Generator) directions() int {
	if g.tileCount == 0 {
		return 1
	}
	return 2
}

// setRack prepares the per-rack state: counts, the letter mask and the
// leave values of every subset.
func (g *Generator) setRack(rack *rules.Rack) {
	g.setRackTiles(rack)
	g.leaves.set(rack, g.valuer, &g.leaveScratch)
}

// setRackTiles sets the rack's counts and letter masks.
func (g *Generator) setRackTiles(rack *rules.Rack) {
	g.rack = *rack
	g.rackTiles = rack.Count()
	g.letterMask = 0
	for l := 1; l < rules.RackSlots; l++ {
		if rack[l] > 0 {
			g.letterMask |= 1 << l
		}
	}
	g.blankMask = 0
	if rack[rules.Blank] > 0 {
		g.blankMask = allLetters
	}
}

// laneSquare is what the generator needs of one square of the lane being
// searched, copied together so the hot loop reads one small array.
type laneSquare struct {
	cross      uint32 // letters allowed (cross-check and extension set), | hasCross
	crossScore int32
	// Premiums count under new tiles only: a board tile's square has
	// letterMul 0 and wordMul 1, and its tile's value in fixed.
	letterMul int32
	wordMul   int32
	crossMul  int32 // wordMul if the square has a cross-word, else 0
	fixed     int32
	tile      rules.Letter
	through   uint32 // bit tile.Unblanked() for a board tile, else 0
}

// valueOf is rules.Letter.Value as a table: 0 for a blank and for Empty
// (PlayedThrough), so scoring a strip needs no branch.
var valueOf = func() (v [256]int32) {
	for l := rules.Letter(1); l < rules.RackSlots; l++ {
		v[l] = int32(l.Value())
	}
	return v
}()

// loadLane copies lane's squares in direction d into g.sq: from the
// generator's cache when the lane has not changed since it was loaded
// (one block copy instead of gathering each square's fields from eight
// arrays: the lane loads were a third of an endgame's time).
func (g *Generator) loadLane(d, lane int) {
	if g.laneCache == nil {
		g.laneCache = new([2 * n]cachedLane)
	}
	c := &g.laneCache[d*n+lane]
	g.dir, g.lane, g.base = d, lane, lane*n
	g.sq = &c.sq
	if v := g.laneVer[d][lane]; c.ver != v {
		g.fillSquares(&c.sq, d, lane, 0, n-1)
		c.ver = v
	}
}

// loadSquares copies the squares from pos first to last of lane in
// direction d into g.sq (Best places plays on a span at a time).
func (g *Generator) loadSquares(d, lane, first, last int) {
	g.dir, g.lane, g.base = d, lane, lane*n
	g.sq = &g.own
	g.fillSquares(&g.own, d, lane, first, last)
}

// fillSquares works out the squares from pos first to last of lane in
// direction d into to.
func (g *Generator) fillSquares(to *[n + 2]laneSquare, d, lane, first, last int) {
	// Each field is stored in its place: a square built on the stack and
	// copied whole stalled on store forwarding (its two 16-byte loads
	// read the field stores just made).
	for pos := first; pos <= last; pos++ {
		sq := lane*n + pos
		t, cross, wm := g.tiles[d][sq], g.cross[d][sq], wordMul[d][sq]
		occupied := int32(min(uint8(t), 1)) // no branch
		q := &to[pos+1]
		// Both checks at once: the perpendicular word's and the lane's
		// own runs'.
		q.cross = cross & (g.ext[d][sq] | hasCross)
		q.crossScore = g.crossScore[d][sq]
		q.letterMul = letterMul[d][sq] * (1 - occupied)
		q.wordMul = wm - (wm-1)*occupied
		q.crossMul = wm * int32(cross>>31) // hasCross; 0 when occupied
		q.fixed = valueOf[t]
		q.tile = t
		q.through = 1 << t.Unblanked() &^ 1 // Empty is 0: bit 0, cleared
	}
}

// gen extends the play at lane position pos from GADDAG node node, placed
// the tiles placed so far. The caller has checked the square is viable for
// node. A play is scored only when it is recorded (scoreAndRecord): far
// fewer plays are recorded than squares tried, so the walk carries no
// score.
//
// set is node's letter set: the arcs are sorted by letter, so the arc for a
// letter l in set is the one after as many arcs as set has letters below l,
// found without scanning.
func (g *Generator) gen(pos int, node gaddag.Node, set uint32, placed int) {
	sq := &g.sq[pos+1]
	if t := sq.tile; t != rules.Empty {
		bit := uint32(1) << t.Unblanked()
		x := g.xarcs[node+gaddag.Node(bits.OnesCount32(set&(bit-1)))]
		g.strip[pos] = rules.PlayedThrough
		g.goOn(pos, x, placed)
		return
	}
	possible := sq.cross & (g.letterMask | g.blankMask) & set
	if possible == 0 {
		return
	}
	arcs := g.xarcs
	for v := possible & g.letterMask; v != 0; v &= v - 1 {
		bit := v & -v
		l := rules.Letter(bits.TrailingZeros32(v))
		x := arcs[node+gaddag.Node(bits.OnesCount32(set&(bit-1)))]
		g.rack[l]--
		if g.rack[l] == 0 {
			g.letterMask &^= bit
		}
		g.leaves.used += g.leaves.radix[l]
		g.strip[pos] = l
		g.goOn(pos, x, placed+1)
		g.rack[l]++
		g.letterMask |= bit
		g.leaves.used -= g.leaves.radix[l]
	}
	if g.blankMask == 0 {
		return
	}
	// Every letter allowed here as a blank, the blank taken once for all.
	g.rack[rules.Blank]--
	if g.rack[rules.Blank] == 0 {
		g.blankMask = 0
	}
	g.leaves.used += g.leaves.radix[rules.Blank]
	for v := possible; v != 0; v &= v - 1 {
		bit := v & -v
		l := rules.Letter(bits.TrailingZeros32(v))
		x := arcs[node+gaddag.Node(bits.OnesCount32(set&(bit-1)))]
		g.strip[pos] = l.Blanked()
		g.goOn(pos, x, placed+1)
	}
	g.rack[rules.Blank]++
	g.blankMask = allLetters
	g.leaves.used -= g.leaves.radix[rules.Blank]
}

// goOn continues after the letter of arc x was put (or found) at pos. It
// only visits a child node that offers something for the next square, and
// follows board tiles next in line itself (two in five squares the walk
// visits hold one), without a call per tile. A play holds at least one new
// tile by now: the anchor square is empty.
func (g *Generator) goOn(pos int, x xarc, placed int) {
	if pos <= g.anchorPos {
		// Still extending left from the anchor.
		for {
			a := x.arc()
			t := g.sq[pos].tile // the square left of pos
			if t == rules.Empty {
				if a.Accepts() && g.rightFree {
					g.placing = placed
					g.scoreAndRecord(pos, g.anchorPos)
				}
				// A missing child has an empty set: nothing is viable.
				if g.viable(pos-1, x.childSet()) {
					g.gen(pos-1, a.Child(), x.childSet(), placed)
				}
				if x.childHas(0) {
					// The separator sorts first.
					if sep := g.xarcs[a.Child()]; g.viable(g.anchorPos+1, sep.childSet()) {
						g.leftmost = pos
						g.gen(g.anchorPos+1, sep.child(), sep.childSet(), placed)
					}
				}
				return
			}
			set, bit := x.childSet(), uint32(1)<<t.Unblanked()
			if set&bit == 0 {
				return
			}
			x = g.xarcs[a.Child()+gaddag.Node(bits.OnesCount32(set&(bit-1)))]
			pos--
			g.strip[pos] = rules.PlayedThrough
		}
	}
	for {
		a := x.arc()
		t := g.sq[pos+2].tile // the square right of pos
		if t == rules.Empty {
			if a.Accepts() {
				g.placing = placed
				g.scoreAndRecord(g.leftmost, pos)
			}
			if g.viable(pos+1, x.childSet()) {
				g.gen(pos+1, a.Child(), x.childSet(), placed)
			}
			return
		}
		set, bit := x.childSet(), uint32(1)<<t.Unblanked()
		if set&bit == 0 {
			return
		}
		x = g.xarcs[a.Child()+gaddag.Node(bits.OnesCount32(set&(bit-1)))]
		pos++
		g.strip[pos] = rules.PlayedThrough
	}
}

// viable reports whether a node offering the letters in set can go on at
// lane square pos: through the tile there, or with a rack tile allowed
// there (never on a wall).
func (g *Generator) viable(pos int, set uint32) bool {
	sq := &g.sq[pos+1]
	return set&(sq.through|sq.cross&(g.letterMask|g.blankMask)) != 0
}

func (g *Generator) record(left, right int, ms, wm, cs int32, placed int) {
	if right == left {
		return // a one-letter main word: the play is listed in the other direction
	}
	score := ms*wm + cs
	if placed == rules.RackSize {
		score += rules.BingoBonus
	}
	equity := rules.FromPoints(score) + g.leaves.value[g.leaves.used]
	if g.pruning && g.best.found && equity < g.best.m.Equity {
		return // Best keeps nothing below its best (ties go to move.Compare)
	}
	if g.open.cost != 0 {
		if k := g.opened(left, right); k > 0 {
			equity -= rules.Equity(k) * g.open.cost
			if g.pruning && g.best.found && equity < g.best.m.Equity {
				return
			}
		}
	}
	if placed == 1 && g.dir == int(rules.Down) {
		// A single tile forming an across word too was listed as across.
		for i := left; i <= right; i++ {
			if g.strip[i] != rules.PlayedThrough {
				if g.cross[rules.Down][g.base+i]&hasCross != 0 {
					return
				}
				break
			}
		}
	}
	m := &g.move
	m.Kind = move.Play
	m.Dir = rules.Direction(g.dir)
	r, c := boardRC(g.dir, g.lane, left)
	m.Row, m.Col = int8(r), int8(c)
	m.Len = int8(right - left + 1)
	// The tiles in two overlapping 8-byte words, the bytes past the word
	// cleared (so equal moves compare equal as values): no copy calls.
	length := uint(right - left + 1)
	lo := load8(g.strip[left:]) & (^uint64(0) >> (64 - 8*min(length, 8)))
	hi := load8(g.strip[left+7:]) & (^uint64(0) >> (64 - 8*(max(length, 7)-7)))
	store8(m.Tiles[:8], lo)
	store8(m.Tiles[7:], hi)
	m.NumTiles = int8(placed)
	m.Score = score
	m.Equity = equity
	g.rec.Record(m)
	if g.laneBest != nil {
		g.laneBest.Record(m) // a lane Best keeps (see laneBounds)
	}
}

// Options says which non-play moves Generate adds.
type Options struct {
	// Exchanges adds every distinct exchange when the bag holds at least
	// rules.ExchangeMinBag tiles.
	Exchanges bool
	// Pass adds the pass.
	Pass bool
	// Repeat tells Best that the same rack will be searched again on
	// boards that differ from this one in a few lanes (a simulation's
	// opponent, on each candidate's board): it then keeps what it finds of
	// each lane from this first search on, not only from the second.
	// Results are the same either way.
	Repeat bool
	// OpenCost is taken off a play's equity, in millipoints, for each
	// triple-word square it opens to the opponent (see openterm.go), by
	// Best and Generate; 0 is none. Negative values are taken as 0: a
	// bonus would break the search's bounds.
	OpenCost rules.Equity
}

// Generate hands rec every play, then the exchanges and pass that opts ask
// for and the bag allows.
func (g *Generator) Generate(rack *rules.Rack, bagLen int, opts Options, rec Recorder) {
	if opts.OpenCost > 0 {
		g.setOpenCost(opts.OpenCost)
		defer g.setOpenCost(0)
	}
	g.GeneratePlays(rack, rec)
	g.generateOthers(rack, bagLen, opts, rec)
}

// Lexicon returns the lexicon the generator was made for.
func (g *Generator) Lexicon() *gaddag.GADDAG { return g.tables.lex }

// load8 and store8 read and write 8 letters as one little-endian word (the
// compiler makes each a single move).
func load8(s []rules.Letter) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func store8(s []rules.Letter, v uint64) {
	_ = s[7]
	s[0], s[1], s[2], s[3] = rules.Letter(v), rules.Letter(v>>8), rules.Letter(v>>16), rules.Letter(v>>24)
	s[4], s[5], s[6], s[7] = rules.Letter(v>>32), rules.Letter(v>>40), rules.Letter(v>>48), rules.Letter(v>>56)
}
