package movegen_test

// An independent brute-force move generator and scorer used as the reference
// for the engine. It shares no code with the engine or with rules/score.go:
// words are looked up in a Go map of the word list, every line of the board
// is walked square by square from every possible start, and each candidate is
// checked and scored from the rules directly.

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/rules"
)

// refLexicon is a word list as a plain map and a plain trie of its
// prefixes (letter by letter from the front: nothing like the GADDAG).
type refLexicon struct {
	name  string
	list  []string
	words map[string]bool
	trie  []refNode // trie[0] is the empty prefix

	// reach[node][m], when made (withReach), holds the letters (bit l)
	// that some word going on from the prefix node has m+1 letters on:
	// reach[node][0] is node's mask, and no word goes on for m+1 letters
	// or more when reach[node][m] is 0.
	reach [][rules.Size]uint32
}

// withReach makes lx.reach, with which the reference's search drops a
// prefix that cannot reach the board, and returns lx.
func (lx *refLexicon) withReach() *refLexicon {
	lx.reach = make([][rules.Size]uint32, len(lx.trie))
	// Children come after their parent in the trie: fill from the end.
	for node := len(lx.trie) - 1; node >= 0; node-- {
		n := &lx.trie[node]
		lx.reach[node][0] = n.mask
		for k := range int32(bits.OnesCount32(n.mask)) {
			child := &lx.reach[n.first+k]
			for m := 1; m < rules.Size; m++ {
				lx.reach[node][m] |= child[m-1]
			}
		}
	}
	return lx
}

// refNode is a prefix of a word in the trie: bit l of mask (1..26) says
// the prefix goes on with letter l, the children being stored in letter
// order from first.
type refNode struct {
	mask  uint32
	first int32
	word  bool
}

func newRefLexicon(name string, list []string) *refLexicon {
	lx := &refLexicon{name: name, list: list, words: make(map[string]bool, len(list))}
	var az []string
	for _, w := range list {
		lx.words[w] = true
		if strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
			az = append(az, w)
		}
	}
	slices.Sort(az)
	az = slices.Compact(az)
	lx.trie = []refNode{{}}
	if len(az) > 0 {
		lx.fill(0, az, 0)
	}
	return lx
}

// fill makes the children of node, the prefix that words (sorted, all
// longer than depth or equal to the prefix) share.
func (lx *refLexicon) fill(node int32, words []string, depth int) {
	if len(words[0]) == depth {
		lx.trie[node].word = true
		words = words[1:]
	}
	var groups [][]string
	for len(words) > 0 {
		c := words[0][depth]
		n := 1
		for n < len(words) && words[n][depth] == c {
			n++
		}
		groups = append(groups, words[:n])
		lx.trie[node].mask |= 1 << (c - 'A' + 1)
		words = words[n:]
	}
	first := int32(len(lx.trie))
	lx.trie[node].first = first
	for range groups {
		lx.trie = append(lx.trie, refNode{})
	}
	for k, grp := range groups {
		lx.fill(first+int32(k), grp, depth+1)
	}
}

// child is node followed by letter ch ('A'..'Z'), or -1 when that is no
// prefix of a word.
func (lx *refLexicon) child(node int32, ch byte) int32 {
	bit := uint32(1) << (ch - 'A' + 1)
	n := &lx.trie[node]
	if n.mask&bit == 0 {
		return -1
	}
	return n.first + int32(bits.OnesCount32(n.mask&(bit-1)))
}

var (
	refLexMu    sync.Mutex
	refLexCache = map[string]*refLexicon{}
)

// refLex returns the named shared word list as maps, built once per test
// binary (skips or fails like testlex when the lists are absent).
func refLex(tb testing.TB, name string) *refLexicon {
	tb.Helper()
	wl := testlex.WordList(tb, name)
	refLexMu.Lock()
	defer refLexMu.Unlock()
	if lx, ok := refLexCache[name]; ok {
		return lx
	}
	lx := newRefLexicon(name, wl.Words)
	refLexCache[name] = lx
	return lx
}

// refSquare returns the board square at index i of line `line` in direction d.
func refSquare(d rules.Direction, line, i int) (row, col int) {
	if d == rules.Down {
		return i, line
	}
	return line, i
}

// refTile is the tile on (row, col), Empty off the board.
func refTile(b *rules.Board, row, col int) rules.Letter {
	if row < 0 || row >= rules.Size || col < 0 || col >= rules.Size {
		return rules.Empty
	}
	return b.At(row, col)
}

// refChar is the upper-case letter a tile stands for.
func refChar(l rules.Letter) byte { return byte('A' + l.Unblanked() - 1) }

// refStep is the (row, col) increment of a direction.
func refStep(d rules.Direction) (dr, dc int) {
	if d == rules.Down {
		return 1, 0
	}
	return 0, 1
}

func refOther(d rules.Direction) rules.Direction {
	if d == rules.Down {
		return rules.Across
	}
	return rules.Down
}

// refCrossWordIn returns the word that a tile l on the empty square (row,
// col) forms in direction d with the tiles next to it (the square's letter
// included), written into buf, and its score; ok is false when no tile is
// next to it in that direction.
func refCrossWordIn(buf *[rules.Size]byte, b *rules.Board, row, col int, d rules.Direction, l rules.Letter) (word []byte, score int, ok bool) {
	dr, dc := refStep(d)
	r, c := row, col
	for refTile(b, r-dr, c-dc) != rules.Empty {
		r, c = r-dr, c-dc
	}
	word = buf[:0]
	sum, mult := 0, 1
	for ; ; r, c = r+dr, c+dc {
		if r == row && c == col {
			p := rules.PremiumAt(r, c)
			sum += l.Value() * p.LetterMultiplier()
			mult *= p.WordMultiplier()
			word = append(word, refChar(l))
			continue
		}
		t := refTile(b, r, c)
		if t == rules.Empty {
			break
		}
		sum += t.Value()
		word = append(word, refChar(t))
	}
	if len(word) < 2 {
		return nil, 0, false
	}
	return word, sum * mult, true
}

// refPlay is one play as found by the reference.
type refPlay struct {
	row, col int
	dir      rules.Direction
	tiles    []rules.Letter // PlayedThrough for a board square
}

// refKeyOf renders a play canonically: "<row>,<col>,<A|D>,<tiles>" (0-based
// row and column of the first square), new tiles as letters (lower case for
// blanks), played-through squares as '.'.
func refKeyOf(row, col int, d rules.Direction, tiles []rules.Letter) string {
	var sb strings.Builder
	sb.WriteString(strconv.Itoa(row))
	sb.WriteByte(',')
	sb.WriteString(strconv.Itoa(col))
	if d == rules.Down {
		sb.WriteString(",D,")
	} else {
		sb.WriteString(",A,")
	}
	for _, t := range tiles {
		if t == rules.PlayedThrough {
			sb.WriteByte('.')
		} else {
			sb.WriteRune(t.Rune())
		}
	}
	return sb.String()
}

// packedPlay is a play in two words, for the fuzz target's sorted lists
// (refKeyOf's strings cost more than the searches): each tile of the main
// word in 6 bits (0 played through, 1..26 a letter, 27..52 a blank as that
// letter), tiles 0-9 in lo and 10-14 in hi, whose bits 30-42 hold the
// length, the direction, the column and the row.
type packedPlay struct{ hi, lo uint64 }

// scoredKey is a play and its score.
type scoredKey struct {
	key   packedPlay
	score int32
}

// keyOf packs a play; the caller keeps to the board (row and column 0..14,
// 1..15 tiles, each PlayedThrough or a letter, plain or blanked).
func packPlay(row, col int, d rules.Direction, tiles []rules.Letter) packedPlay {
	var k packedPlay
	for i, t := range tiles {
		code := uint64(t.Unblanked())
		if t.IsBlanked() {
			code += rules.NumLetters
		}
		if i < 10 {
			k.lo |= code << (6 * i)
		} else {
			k.hi |= code << (6 * (i - 10))
		}
	}
	k.hi |= uint64(len(tiles))<<30 | uint64(d&1)<<34 | uint64(col)<<35 | uint64(row)<<39
	return k
}

// play unpacks a key, its tiles in buf's storage.
func (k packedPlay) play(buf []rules.Letter) refPlay {
	n := int(k.hi >> 30 & 15)
	p := refPlay{row: int(k.hi >> 39 & 15), col: int(k.hi >> 35 & 15), dir: rules.Direction(k.hi >> 34 & 1), tiles: buf[:0]}
	for i := range n {
		var code uint64
		if i < 10 {
			code = k.lo >> (6 * i) & 63
		} else {
			code = k.hi >> (6 * (i - 10)) & 63
		}
		t := rules.Letter(code)
		if code > rules.NumLetters {
			t = rules.Letter(code - rules.NumLetters).Blanked()
		}
		p.tiles = append(p.tiles, t)
	}
	return p
}

// String is the key as refKeyOf writes it.
func (k packedPlay) String() string {
	var buf [rules.Size]rules.Letter
	p := k.play(buf[:])
	return refKeyOf(p.row, p.col, p.dir, p.tiles)
}

func cmpScoredKey(a, b scoredKey) int {
	if c := cmp.Compare(a.key.hi, b.key.hi); c != 0 {
		return c
	}
	return cmp.Compare(a.key.lo, b.key.lo)
}

// scoredMap is a list of plays as refPlays' map.
func scoredMap(list []scoredKey) map[string]int {
	m := make(map[string]int, len(list))
	for _, sk := range list {
		m[sk.key.String()] = int(sk.score)
	}
	return m
}

// engineKey is the canonical key of an engine play.
func engineKey(m *move.Move) string {
	return refKeyOf(int(m.Row), int(m.Col), m.Dir, m.Tiles[:m.Len])
}

// parseRefKey reads a key back.
func parseRefKey(key string) (refPlay, error) {
	parts := strings.Split(key, ",")
	if len(parts) != 4 {
		return refPlay{}, fmt.Errorf("bad play key %q", key)
	}
	row, err1 := strconv.Atoi(parts[0])
	col, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || (parts[2] != "A" && parts[2] != "D") {
		return refPlay{}, fmt.Errorf("bad play key %q", key)
	}
	p := refPlay{row: row, col: col}
	if parts[2] == "D" {
		p.dir = rules.Down
	}
	for _, r := range parts[3] {
		if r == '.' {
			p.tiles = append(p.tiles, rules.PlayedThrough)
			continue
		}
		l, ok := rules.LetterFromRune(r)
		if !ok || l == rules.Blank {
			return refPlay{}, fmt.Errorf("bad tile %q in play key %q", r, key)
		}
		p.tiles = append(p.tiles, l)
	}
	return p, nil
}

// moveFromKey converts a reference play to an engine move.
func moveFromKey(tb testing.TB, key string, score int) move.Move {
	tb.Helper()
	p, err := parseRefKey(key)
	if err != nil {
		tb.Fatal(err)
	}
	m := move.Move{Kind: move.Play, Row: int8(p.row), Col: int8(p.col), Dir: p.dir, Len: int8(len(p.tiles)), Score: int32(score)}
	for i, t := range p.tiles {
		m.Tiles[i] = t
		if t != rules.PlayedThrough {
			m.NumTiles++
		}
	}
	return m
}

// describeKey renders a key for people as well: "8H across QUEEN".
func describeKey(key string) string {
	p, err := parseRefKey(key)
	if err != nil {
		return key
	}
	return fmt.Sprintf("%d%c %s %s", p.row+1, 'A'+p.col, p.dir, rules.WordString(p.tiles))
}

// refApply puts a play's new tiles on a board.
func refApply(b *rules.Board, p refPlay) {
	dr, dc := refStep(p.dir)
	for i, t := range p.tiles {
		if t != rules.PlayedThrough {
			b.Set(p.row+i*dr, p.col+i*dc, t)
		}
	}
}

// refGen is the state of one brute-force search. One refGen can run many
// searches (run), reusing its buffers; it is not safe for concurrent use.
type refGen struct {
	lx    *refLexicon
	b     *rules.Board
	empty bool
	rack  rules.Rack
	out   []scoredKey

	// cross[d][sq]: letters (bit l for 1..26) a new tile may be when the
	// play goes in direction d, from the words it forms in the other
	// direction; hasCross[d][sq] tells whether such a word is formed at
	// all, and crossSum[d][sq] is the face value of its tiles already on
	// the board.
	cross    [2][rules.Squares]uint32
	hasCross [2][rules.Squares]bool
	crossSum [2][rules.Squares]int

	// nextJoin[i] is the first square from i on of the current line where
	// the play would join the board (rules.Size when none does); with
	// lx.reach, a prefix that cannot reach it is dropped.
	nextJoin [rules.Size + 1]int

	// the rack's tiles left, and the letters it holds (bit l, blanks aside)
	left   int
	onRack uint32

	// the candidate being extended
	dir    rules.Direction
	line   int
	start  int
	nodes  []int32 // the trie node of each prefix of the word
	tiles  []rules.Letter
	placed int
	joined bool // touches the board (or covers the centre of an empty board)
}

const refAllLetters = uint32(1<<(rules.NumLetters+1)) - 2

// refPlays lists every legal play of rack on board with its score, keyed by
// refKeyOf. On an empty board only across plays are listed; a one-tile play
// is listed once: across when it forms an across word, otherwise down. Each
// play is checked and scored again by refScore, from scratch.
func refPlays(lx *refLexicon, b *rules.Board, rack rules.Rack) map[string]int {
	var g refGen
	out := make(map[string]int)
	var p refPlay
	for _, sk := range g.run(lx, b, rack) {
		p = sk.key.play(p.tiles)
		score, err := refScore(lx, b, p)
		if err != nil {
			panic(fmt.Sprintf("reference generator produced a play its own scorer rejects: %s: %v", sk.key, err))
		}
		if score != int(sk.score) {
			panic(fmt.Sprintf("reference generator scored %s %d, its scorer %d", sk.key, sk.score, score))
		}
		out[sk.key.String()] = score
	}
	return out
}

// run lists every legal play of rack on board with its score, as refPlays
// does (without scoring each again from scratch), each once. The list is
// g's own, valid until the next run.
func (g *refGen) run(lx *refLexicon, b *rules.Board, rack rules.Rack) []scoredKey {
	g.lx, g.b, g.rack, g.out = lx, b, rack, g.out[:0]
	g.empty = true
	for _, l := range b.Squares {
		if l != rules.Empty {
			g.empty = false
			break
		}
	}
	for _, d := range []rules.Direction{rules.Across, rules.Down} {
		for row := 0; row < rules.Size; row++ {
			for col := 0; col < rules.Size; col++ {
				g.crossCheck(row, col, d)
			}
		}
	}
	n := rack.Count()
	g.left, g.onRack = n, 0
	for l := 1; l <= rules.NumLetters; l++ {
		if rack[l] > 0 {
			g.onRack |= 1 << l
		}
	}
	for _, d := range []rules.Direction{rules.Across, rules.Down} {
		if g.empty && d == rules.Down {
			continue
		}
		g.dir = d
		for line := 0; line < rules.Size; line++ {
			g.line = line
			g.nextJoin[rules.Size] = rules.Size
			for i := rules.Size - 1; i >= 0; i-- {
				g.nextJoin[i] = g.nextJoin[i+1]
				if g.joins(i) {
					g.nextJoin[i] = i
				}
			}
			for s := 0; s < rules.Size; s++ {
				if pr, pc := refSquare(d, line, s-1); refTile(b, pr, pc) != rules.Empty {
					continue // a word cannot start after a tile
				}
				if !g.canJoin(s, n) {
					continue
				}
				g.start = s
				g.nodes, g.tiles, g.placed, g.joined = g.nodes[:0], g.tiles[:0], 0, false
				g.extend(s)
			}
		}
	}
	return g.out
}

// crossCheck fills cross, hasCross and crossSum for square (row, col) and a
// play in direction d: the tiles next to it in the other direction are
// read off the board, and each letter of the alphabet is tried between them
// by walking the trie.
func (g *refGen) crossCheck(row, col int, d rules.Direction) {
	sq := row*rules.Size + col
	g.cross[d][sq], g.hasCross[d][sq], g.crossSum[d][sq] = 0, false, 0
	if g.b.At(row, col) != rules.Empty {
		return
	}
	dr, dc := refStep(refOther(d))
	r, c := row, col
	for refTile(g.b, r-dr, c-dc) != rules.Empty {
		r, c = r-dr, c-dc
	}
	before := r != row || c != col // a tile precedes the square
	node, sum := int32(0), 0
	for ; r != row || c != col; r, c = r+dr, c+dc {
		t := g.b.At(r, c)
		sum += t.Value()
		if node >= 0 {
			node = g.lx.child(node, refChar(t))
		}
	}
	er, ec := row+dr, col+dc
	for refTile(g.b, er, ec) != rules.Empty {
		sum += g.b.At(er, ec).Value()
		er, ec = er+dr, ec+dc
	}
	if !before && er == row+dr && ec == col+dc {
		g.cross[d][sq] = refAllLetters // no tile either side
		return
	}
	g.hasCross[d][sq], g.crossSum[d][sq] = true, sum
	if node < 0 {
		return
	}
	for l := rules.Letter(1); l <= rules.NumLetters; l++ {
		n := g.lx.child(node, refChar(l))
		for r, c := row+dr, col+dc; n >= 0 && (r != er || c != ec); r, c = r+dr, c+dc {
			n = g.lx.child(n, refChar(g.b.At(r, c)))
		}
		if n >= 0 && g.lx.trie[n].word {
			g.cross[d][sq] |= 1 << l
		}
	}
}

// joins reports whether a new tile or a word through square i of the current
// line touches the board (or, on an empty board, covers the centre).
func (g *refGen) joins(i int) bool {
	r, c := refSquare(g.dir, g.line, i)
	if g.empty {
		return r == rules.CenterRow && c == rules.CenterCol
	}
	return g.b.At(r, c) != rules.Empty || g.hasCross[g.dir][r*rules.Size+c]
}

// canJoin reports whether a play starting at square s of the current line,
// placing at most n tiles, can reach a square where it would join the board.
// It only prunes starts that can never lead to a legal play.
func (g *refGen) canJoin(s, n int) bool {
	empties := 0
	for i := s; i < rules.Size; i++ {
		r, c := refSquare(g.dir, g.line, i)
		if g.b.At(r, c) == rules.Empty {
			empties++
			if empties > n {
				return false
			}
		}
		if g.joins(i) {
			return true
		}
	}
	return false
}

// extend continues the current candidate onto square i of the line.
func (g *refGen) extend(i int) {
	r, c := refSquare(g.dir, g.line, i)
	if t := g.b.At(r, c); t != rules.Empty {
		g.step(i, rules.PlayedThrough, refChar(t))
		return
	}
	if !g.joined && g.lx.reach != nil && !g.canReach(i) {
		return
	}
	sq := r*rules.Size + c
	can := g.cross[g.dir][sq] & g.lx.trie[g.node()].mask & g.avail()
	g.left--
	for ; can != 0; can &= can - 1 {
		l := rules.Letter(bits.TrailingZeros32(can))
		if g.rack[l] > 0 {
			if g.rack[l]--; g.rack[l] == 0 {
				g.onRack &^= 1 << l
			}
			g.step(i, l, refChar(l))
			g.rack[l]++
			g.onRack |= 1 << l
		}
		if g.rack[rules.Blank] > 0 {
			g.rack[rules.Blank]--
			g.step(i, l.Blanked(), refChar(l))
			g.rack[rules.Blank]++
		}
	}
	g.left++
}

// avail is the letters the rack can put down: all with a blank on it.
func (g *refGen) avail() uint32 {
	if g.rack[rules.Blank] > 0 {
		return refAllLetters
	}
	return g.onRack
}

// canReach reports whether the current prefix, not yet joined, can go on
// from the empty square i to the first square where it would join: with
// the tiles left for the empty squares on the way, and with a word of the
// list that goes on far enough with a letter that may stand there (the
// board's tile, or a letter of the rack allowed by the cross-words).
func (g *refGen) canReach(i int) bool {
	j := g.nextJoin[i]
	if j == rules.Size {
		return false
	}
	r, c := refSquare(g.dir, g.line, j)
	t := g.b.At(r, c)
	need := j - i // empty squares on the way
	if t == rules.Empty {
		need++
	}
	if need > g.left {
		return false
	}
	reach, avail := &g.lx.reach[g.node()], g.avail()
	for k := range j - i {
		if reach[k]&avail == 0 {
			return false
		}
	}
	if t != rules.Empty {
		return reach[j-i]&(1<<t.Unblanked()) != 0
	}
	return reach[j-i]&g.cross[g.dir][r*rules.Size+c]&avail != 0
}

// step puts tile t (PlayedThrough for a board tile) with letter ch on square
// i, records a candidate that ends there and extends further.
func (g *refGen) step(i int, t rules.Letter, ch byte) {
	node := g.lx.child(g.node(), ch)
	if node < 0 {
		return // no word starts so
	}
	g.nodes = append(g.nodes, node)
	g.tiles = append(g.tiles, t)
	joined := g.joined
	if t != rules.PlayedThrough {
		g.placed++
	}
	g.joined = g.joined || g.joins(i)
	nr, nc := refSquare(g.dir, g.line, i+1)
	if refTile(g.b, nr, nc) == rules.Empty {
		g.candidate()
	}
	if i+1 < rules.Size {
		g.extend(i + 1)
	}
	if t != rules.PlayedThrough {
		g.placed--
	}
	g.joined = joined
	g.nodes = g.nodes[:len(g.nodes)-1]
	g.tiles = g.tiles[:len(g.tiles)-1]
}

// node is the trie node of the current word.
func (g *refGen) node() int32 {
	if len(g.nodes) == 0 {
		return 0
	}
	return g.nodes[len(g.nodes)-1]
}

// candidate records the current span if it is a legal play, scored from
// the premium squares and the cross-words' board tiles: letter premiums
// then word premiums, only under new tiles, blanks 0, plus 50 for a bingo.
func (g *refGen) candidate() {
	if g.placed == 0 || len(g.tiles) < 2 || !g.joined || !g.lx.trie[g.node()].word {
		return
	}
	row, col := refSquare(g.dir, g.line, g.start)
	if g.placed == 1 && g.dir == rules.Down {
		// Listed as across when the tile also forms an across word.
		for k, t := range g.tiles {
			if t != rules.PlayedThrough {
				r, c := refSquare(g.dir, g.line, g.start+k)
				if g.hasCross[rules.Down][r*rules.Size+c] {
					return
				}
			}
		}
	}
	sum, mult, cross := 0, 1, 0
	for k, t := range g.tiles {
		r, c := refSquare(g.dir, g.line, g.start+k)
		if t == rules.PlayedThrough {
			sum += g.b.At(r, c).Value()
			continue
		}
		p := rules.PremiumAt(r, c)
		v := t.Value() * p.LetterMultiplier()
		sum += v
		mult *= p.WordMultiplier()
		if sq := r*rules.Size + c; g.hasCross[g.dir][sq] {
			cross += (g.crossSum[g.dir][sq] + v) * p.WordMultiplier()
		}
	}
	score := sum*mult + cross
	if g.placed == rules.RackSize {
		score += 50
	}
	g.out = append(g.out, scoredKey{key: packPlay(row, col, g.dir, g.tiles), score: int32(score)})
}

// refScore checks one play from scratch against the rules and returns its
// score: it must lie on the board, put at least one new tile on empty squares
// and pass through board tiles where marked, span the whole main word, form
// only words of the list (main word of at least two letters, every
// cross-word of at least two letters through a new tile), and join the board
// (cover the centre of an empty board, otherwise touch a tile). Scoring:
// letter premiums then word premiums, only under new tiles, blanks 0, plus 50
// when 7 tiles are placed. The listing rules (down plays on an empty board,
// one-tile plays written down) are checked by refListed.
func refScore(lx *refLexicon, b *rules.Board, p refPlay) (int, error) {
	if p.dir != rules.Across && p.dir != rules.Down {
		return 0, fmt.Errorf("bad direction %d", p.dir)
	}
	dr, dc := refStep(p.dir)
	n := len(p.tiles)
	if n < 2 {
		return 0, fmt.Errorf("main word of %d letters", n)
	}
	if !rules.InBounds(p.row, p.col) || !rules.InBounds(p.row+(n-1)*dr, p.col+(n-1)*dc) {
		return 0, fmt.Errorf("off the board")
	}
	if refTile(b, p.row-dr, p.col-dc) != rules.Empty {
		return 0, fmt.Errorf("a tile precedes the main word")
	}
	if refTile(b, p.row+n*dr, p.col+n*dc) != rules.Empty {
		return 0, fmt.Errorf("a tile follows the main word")
	}
	empty := true
	for _, l := range b.Squares {
		if l != rules.Empty {
			empty = false
			break
		}
	}
	var wordBuf, crossBuf [rules.Size]byte
	word := wordBuf[:0]
	sum, mult, placed, cross := 0, 1, 0, 0
	joined := false
	for i, t := range p.tiles {
		r, c := p.row+i*dr, p.col+i*dc
		if empty && r == rules.CenterRow && c == rules.CenterCol {
			joined = true
		}
		old := b.At(r, c)
		if t == rules.PlayedThrough {
			if old == rules.Empty {
				return 0, fmt.Errorf("square %d%c is marked played through but is empty", r+1, 'A'+c)
			}
			joined = true
			word = append(word, refChar(old))
			sum += old.Value()
			continue
		}
		if !t.IsLetter() {
			return 0, fmt.Errorf("tile %#x is not a letter", uint8(t))
		}
		if old != rules.Empty {
			return 0, fmt.Errorf("square %d%c already holds %s", r+1, 'A'+c, old)
		}
		placed++
		word = append(word, refChar(t))
		prem := rules.PremiumAt(r, c)
		sum += t.Value() * prem.LetterMultiplier()
		mult *= prem.WordMultiplier()
		if w, s, ok := refCrossWordIn(&crossBuf, b, r, c, refOther(p.dir), t); ok {
			if !lx.words[string(w)] {
				return 0, fmt.Errorf("cross-word %s at %d%c is not a word", string(w), r+1, 'A'+c)
			}
			joined = true
			cross += s
		}
	}
	if placed == 0 {
		return 0, fmt.Errorf("no new tile")
	}
	if placed > rules.RackSize {
		return 0, fmt.Errorf("%d new tiles", placed)
	}
	if !lx.words[string(word)] {
		return 0, fmt.Errorf("main word %s is not a word", string(word))
	}
	if !joined {
		if empty {
			return 0, fmt.Errorf("opening does not cover the centre")
		}
		return 0, fmt.Errorf("does not touch the board")
	}
	score := sum*mult + cross
	if placed == rules.RackSize {
		score += 50
	}
	return score, nil
}

// refListed reports why a legal play would not be listed by the generator's
// listing rules, or nil.
func refListed(b *rules.Board, p refPlay) error {
	if p.dir != rules.Down {
		return nil
	}
	if b.IsEmpty() {
		return fmt.Errorf("down play on an empty board")
	}
	placed, at := 0, 0
	for i, t := range p.tiles {
		if t != rules.PlayedThrough {
			placed, at = placed+1, i
		}
	}
	if placed == 1 {
		var buf [rules.Size]byte
		if _, _, ok := refCrossWordIn(&buf, b, p.row+at, p.col, rules.Across, p.tiles[at]); ok {
			return fmt.Errorf("one-tile play forming an across word listed as down")
		}
	}
	return nil
}

// ---- random positions ----

// refPosition is a board and a rack to generate for.
type refPosition struct {
	game, turn int
	stage      string // opening, early, mid, late (bag < 7), endgame (bag empty)
	board      rules.Board
	rack       rules.Rack // the rack to test (blanks may have been swapped in)
	bagLen     int
	// inGame: the position is a turn of game `game`, in order; played is
	// the key of the play made from it ("" for an exchange or a pass).
	inGame bool
	played string
	ref    map[string]int // reference plays for rack
}

func (p *refPosition) String() string {
	return fmt.Sprintf("game %d turn %d (%s, bag %d), rack %s, board:\n%s", p.game, p.turn, p.stage, p.bagLen, p.rack.String(), p.board.GridString())
}

func refStageOf(b *rules.Board, bagLen int) string {
	switch {
	case b.IsEmpty():
		return "opening"
	case bagLen == 0:
		return "endgame"
	case bagLen < rules.ExchangeMinBag:
		return "late"
	case bagLen > 60:
		return "early"
	}
	return "mid"
}

// refWithBlanks returns the rack with exactly k blanks when the tiles unseen
// from the mover's side (everything not on the board) allow it: blanks are
// swapped in for random tiles, keeping the rack size unless it holds fewer
// than k tiles. ok is false when the board holds too many blanks.
func refWithBlanks(rng *rand.Rand, b *rules.Board, rack rules.Rack, k int) (rules.Rack, bool) {
	onBoard := b.TileCounts()
	if int(onBoard[rules.Blank])+k > int(rules.Distribution()[rules.Blank]) {
		return rack, false
	}
	size := rack.Count()
	rack[rules.Blank] = 0
	for range k {
		if rack.Count() >= max(size, k) {
			tiles := rack.Tiles()
			rack.Remove(tiles[rng.IntN(len(tiles))])
		}
		rack[rules.Blank]++
	}
	return rack, true
}

// randomPositions plays seeded random games with the reference generator
// (each turn the top play, one of the top ten or any play at random; an
// exchange or a pass when there is none) until it has collected n positions
// from every stage of the game, plus extra empty-board openings. About a
// quarter of the racks are given exactly one blank and 15% two blanks.
func randomPositions(t testing.TB, lexName string, n int, seed uint64) []*refPosition {
	t.Helper()
	lx := refLex(t, lexName)
	rng := rand.New(rand.NewPCG(seed, 0x9E3779B97F4A7C15))
	var out []*refPosition

	// owed1 and owed2 accumulate the share of racks still to be given one
	// and two blanks; a rack gets them as soon as the board leaves enough
	// blanks unseen (late in a game both are often on the board already).
	owed1, owed2 := 0.0, 0.0
	addTest := func(p *refPosition, gameRack rules.Rack, gameRef map[string]int) {
		p.rack = gameRack
		p.ref = gameRef
		owed1, owed2 = owed1+0.25, owed2+0.15
		var ok bool
		if owed2 >= 1 && rng.IntN(2) == 0 {
			if p.rack, ok = refWithBlanks(rng, &p.board, gameRack, 2); ok {
				owed2--
			}
		} else if owed1 >= 1 && rng.IntN(2) == 0 {
			if p.rack, ok = refWithBlanks(rng, &p.board, gameRack, 1); ok {
				owed1--
			}
		}
		if p.rack != gameRack || p.ref == nil {
			p.ref = refPlays(lx, &p.board, p.rack)
		}
		out = append(out, p)
	}

	for game := 0; len(out) < n; game++ {
		bag := rules.NewBag(seed*1000 + uint64(game))
		var racks [2]rules.Rack
		bag.DrawInto(&racks[0], rules.RackSize)
		bag.DrawInto(&racks[1], rules.RackSize)

		// Extra openings from other bags.
		for k := range 2 {
			ob := rules.NewBag(seed*1000 + uint64(game) + uint64(k+1)<<32)
			var r rules.Rack
			ob.DrawInto(&r, rules.RackSize)
			addTest(&refPosition{game: game, turn: -1, stage: "opening", bagLen: ob.Len()}, r, nil)
		}

		var board rules.Board
		scoreless := 0
		for turn := 0; turn < 60; turn++ {
			mover := &racks[turn%2]
			before := *mover
			p := &refPosition{game: game, turn: turn, board: board, bagLen: bag.Len(), inGame: true, stage: refStageOf(&board, bag.Len())}
			plays := refPlays(lx, &board, *mover)
			keys := make([]string, 0, len(plays))
			for k := range plays {
				keys = append(keys, k)
			}
			slices.SortFunc(keys, func(a, b string) int {
				if plays[a] != plays[b] {
					return plays[b] - plays[a]
				}
				return strings.Compare(a, b)
			})
			if len(keys) > 0 {
				var k string
				switch x := rng.Float64(); {
				case x < 0.45:
					k = keys[0]
				case x < 0.75:
					k = keys[rng.IntN(min(10, len(keys)))]
				default:
					k = keys[rng.IntN(len(keys))]
				}
				p.played = k
				play, err := parseRefKey(k)
				if err != nil {
					t.Fatal(err)
				}
				refApply(&board, play)
				for _, tl := range play.tiles {
					if tl != rules.PlayedThrough {
						mover.Remove(tl)
					}
				}
				bag.DrawInto(mover, rules.RackSize-mover.Count())
				if plays[k] == 0 {
					scoreless++
				} else {
					scoreless = 0
				}
			} else {
				if bag.Len() >= rules.ExchangeMinBag {
					tiles := mover.Tiles()
					rng.Shuffle(len(tiles), func(i, j int) { tiles[i], tiles[j] = tiles[j], tiles[i] })
					tiles = tiles[:1+rng.IntN(len(tiles))]
					for _, tl := range tiles {
						mover.Remove(tl)
					}
					bag.DrawInto(mover, len(tiles))
					bag.Return(tiles...)
				}
				scoreless++
			}
			addTest(p, before, plays)
			if mover.Count() == 0 || scoreless >= rules.MaxScorelessTurns {
				break
			}
		}
	}
	return out
}
