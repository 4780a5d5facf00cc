package movegen

import (
	"math/bits"

	"scrabble/gaddag"
	"scrabble/internal/crash"
	"scrabble/internal/hugemem"
	"scrabble/rules"
)

// xarc is a GADDAG arc (low 32 bits) with the letter set of its child node
// (high 32 bits: bit l when the child has an arc for letter l, bit 0 for the
// separator). Knowing what a child offers before visiting it lets the
// generator skip the half of all visits that would find nothing to play:
// each skipped visit is a cache miss saved.
type xarc uint64

func (x xarc) arc() gaddag.Arc      { return gaddag.Arc(x) }
func (x xarc) childSet() uint32     { return uint32(x >> 32) }
func (x xarc) child() gaddag.Node   { return gaddag.Arc(x).Child() }
func (x xarc) childHas(l uint) bool { return x>>(32+l)&1 != 0 }

// shortCross holds the cross-checks of a square next to a run of one or two
// letters on one side only (nothing on the other): the letters x that make
// x+run or run+x a word. Most squares a move changes are of that kind, and
// a table read spares walking the graph (for a square before a run, a step
// for every letter that can precede it).
type shortCross struct {
	before1, after1 [rules.RackSlots]uint32
	before2, after2 [rules.RackSlots * rules.RackSlots]uint32
}

// set returns the cross-check letters for a square after run (before is
// false) or before it, and whether run is short enough for the table.
func (t *shortCross) set(run []rules.Letter, before bool) (uint32, bool) {
	switch len(run) {
	case 1:
		l := run[0].Unblanked()
		if before {
			return t.before1[l], true
		}
		return t.after1[l], true
	case 2:
		i := int(run[0].Unblanked())*rules.RackSlots + int(run[1].Unblanked())
		if before {
			return t.before2[i], true
		}
		return t.after2[i], true
	}
	return 0, false
}

// newShortCross works lex's shortCross out from the word list's own
// membership test.
func newShortCross(lex *gaddag.GADDAG) *shortCross {
	t := &shortCross{}
	word := func(ls ...rules.Letter) bool { return lex.ContainsLetters(ls) }
	for x := rules.Letter(1); x < rules.RackSlots; x++ {
		bit := uint32(1) << x
		for a := rules.Letter(1); a < rules.RackSlots; a++ {
			if word(x, a) {
				t.before1[a] |= bit
			}
			if word(a, x) {
				t.after1[a] |= bit
			}
			for b := rules.Letter(1); b < rules.RackSlots; b++ {
				i := int(a)*rules.RackSlots + int(b)
				if word(x, a, b) {
					t.before2[i] |= bit
				}
				if word(a, b, x) {
					t.after2[i] |= bit
				}
			}
		}
	}
	return t
}

// tableOf returns a zeroed table of n values, in huge pages kept for the
// process's life when huge is set (hugemem.Make), else from make.
func tableOf[T any](n int, huge bool) []T {
	if huge {
		return hugemem.Make[T](n)
	}
	return make([]T, n)
}

// afterSetsOf works the after-run sets (see graph.after) out over lex's
// own arcs, whose lists' letter sets (by arc index) are sets.
func afterSetsOf(arcs []gaddag.Arc, sets []uint32) []uint32 {
	const done = 1 << 31
	after := make([]uint32, len(arcs))
	var node func(i gaddag.Node, depth int) uint32
	node = func(i gaddag.Node, depth int) uint32 {
		// gaddag.Decode proves no path is longer than a word; the bound
		// keeps the walk finite on any graph all the same.
		if i == 0 || depth > rules.Size {
			return 0
		}
		if v := after[i]; v&done != 0 {
			return v &^ done
		}
		var set uint32
		for j := i; ; j++ {
			a := arcs[j]
			if a.Letter() == 0 {
				if c := a.Child(); c != 0 {
					set |= sets[c]
				}
			} else {
				set |= node(a.Child(), depth+1)
			}
			if a.Last() {
				break
			}
		}
		set &= allLetters
		after[i] = set | done
		return set
	}
	for i := 1; i < len(arcs); i++ {
		node(gaddag.Node(i), 0)
	}
	for i := range after {
		after[i] &^= done
	}
	return after
}

// newGraph annotates lex's arcs with their child's letter set and works out
// their after-run sets (graph.after). The arc lists are laid out again
// breadth first from the GADDAG root, so the upper levels, which every
// search visits, sit together in the cache.
func newGraph(lex *gaddag.GADDAG, huge bool) graph {
	var l graph
	arcs := lex.Arcs()
	// The letter set of the list starting at i, computed from the end
	// so each list is scanned once (a node may start inside another
	// node's list, so sets are kept for every position).
	sets := make([]uint32, len(arcs))
	for i := len(arcs) - 1; i >= 1; i-- {
		s := uint32(1) << arcs[i].Letter()
		if !arcs[i].Last() && i+1 < len(arcs) {
			s |= sets[i+1]
		}
		sets[i] = s
	}
	// The after-run sets need only these; they take about half as
	// long as the rest, which they need not wait for.
	var after []uint32
	var afterG crash.Group
	afterG.Go(func() { after = afterSetsOf(arcs, sets) })
	// A block is a run of arcs ending with a last arc; nodes starting
	// inside one move with it.
	blockOf := make([]int32, len(arcs))
	var starts []int32
	for i := 1; i < len(arcs); i++ {
		if i == 1 || arcs[i-1].Last() {
			starts = append(starts, int32(i))
		}
		blockOf[i] = int32(len(starts) - 1)
	}
	newStart := make([]int32, len(starts))
	for i := range newStart {
		newStart[i] = -1
	}
	next := int32(1)
	var queue []int32
	place := func(node gaddag.Node) {
		if node == 0 {
			return
		}
		b := blockOf[node]
		if newStart[b] >= 0 {
			return
		}
		newStart[b] = next
		end := starts[b]
		for !arcs[end].Last() {
			end++
		}
		next += end - starts[b] + 1
		queue = append(queue, b)
	}
	place(lex.Root())
	place(lex.DawgRoot())
	for q := 0; q < len(queue); q++ {
		b := queue[q]
		for i := starts[b]; ; i++ {
			place(arcs[i].Child())
			if arcs[i].Last() {
				break
			}
		}
	}
	// Blocks no root reaches keep a place too.
	for b := range starts {
		if newStart[b] < 0 {
			place(gaddag.Node(starts[b]))
		}
	}
	remap := func(node gaddag.Node) gaddag.Node {
		if node == 0 {
			return 0
		}
		b := blockOf[node]
		return gaddag.Node(newStart[b] + int32(node) - starts[b])
	}
	l.xarcs = tableOf[xarc](len(arcs), huge)
	for i := 1; i < len(arcs); i++ {
		a := arcs[i]
		x := xarc(a)&^xarc(a.Child()) | xarc(remap(a.Child()))
		if c := a.Child(); c != 0 {
			x |= xarc(sets[c]) << 32
		}
		l.xarcs[remap(gaddag.Node(i))] = x
	}
	l.root = remap(lex.Root())
	l.dawg = remap(lex.DawgRoot())
	afterG.Rethrow() // a panic there is this goroutine's
	l.after = tableOf[uint32](len(arcs), huge)
	for i := 1; i < len(arcs); i++ {
		l.after[remap(gaddag.Node(i))] = after[i]
	}
	l.rootSet = lex.LetterSet(lex.Root())
	l.dawgSet = lex.LetterSet(lex.DawgRoot())
	l.short = newShortCross(lex)
	return l
}

// step follows the arc for letter l out of the node that x leads to: its
// index is the number of letters of the child's set below l. ok is false
// when the child has no such arc.
func (g *Generator) step(x xarc, l rules.Letter) (next xarc, ok bool) {
	set, bit := x.childSet(), uint32(1)<<l
	if set&bit == 0 {
		return 0, false
	}
	return g.xarcs[x.child()+gaddag.Node(bits.OnesCount32(set&(bit-1)))], true
}

// follow steps through letters from last to first (blanks as their letter).
func (g *Generator) followBack(x xarc, letters []rules.Letter) (xarc, bool) {
	for i := len(letters) - 1; i >= 0; i-- {
		var ok bool
		if x, ok = g.step(x, letters[i].Unblanked()); !ok {
			return 0, false
		}
	}
	return x, true
}

// dawgArc is a pseudo-arc leading to the DAWG root (words read forwards).
func (g *Generator) dawgArc() xarc {
	return xarc(g.dawg) | xarc(g.dawgSet)<<32
}

// followForward steps through letters from first to last (blanks as their
// letter).
func (g *Generator) followForward(x xarc, letters []rules.Letter) (xarc, bool) {
	for _, l := range letters {
		var ok bool
		if x, ok = g.step(x, l.Unblanked()); !ok {
			return 0, false
		}
	}
	return x, true
}

// acceptSet returns the letters that end a word when they follow the path
// that led to x.
func (g *Generator) acceptSet(x xarc) uint32 {
	var set uint32
	child := x.child()
	for v := x.childSet(); v != 0; v &= v - 1 {
		if a := g.xarcs[child].arc(); a.Accepts() {
			set |= 1 << a.Letter()
		}
		child++
	}
	return set
}

// rootArc is a pseudo-arc leading to the GADDAG root, so walks from the
// root use step like any other.
func (g *Generator) rootArc() xarc {
	return xarc(g.root) | xarc(g.rootSet)<<32
}
