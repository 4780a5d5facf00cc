// Package gaddag stores a lexicon as a minimized GADDAG: one flat array of
// 32-bit arcs that a move generator walks directly, with a forward DAWG in the
// same array for word look-ups.
//
// Every arc is one uint32: letter (5 bits: 0 is the separator, 1..26 are
// A..Z), an accepts flag (the path through this arc spells a whole word), a
// last-sibling flag, and the index of the child's first arc (0: no child).
// The arcs leaving one node are contiguous and sorted by letter, the separator
// first. A word w is stored as rev(w[:i]) + separator + w[i:] for every
// 1 <= i < len(w), plus rev(w) alone. The part after the separator is the
// forward DAWG node of the prefix w[:i], so suffixes are shared with the DAWG.
package gaddag

import (
	"time"

	"scrabble/rules"
)

// Separator is the letter code of the arc that turns from extending left
// (the reversed prefix) to extending right.
const Separator rules.Letter = 0

const (
	childBits    = 25
	childMask    = 1<<childBits - 1
	lastBit      = 1 << 25
	acceptsShift = 26
	acceptsBit   = 1 << acceptsShift
	letterShift  = 27
	// MaxArcs is the most arcs a compiled lexicon may hold.
	MaxArcs = 1 << childBits
	// maxPathLen bounds any path: a 15-letter word plus the separator.
	maxPathLen = 16
)

// Arc is one edge of the graph.
type Arc uint32

// Letter is the arc's letter (Separator or 1..26).
func (a Arc) Letter() rules.Letter { return rules.Letter(a >> letterShift) }

// Accepts reports whether the path ending with this arc is a complete word.
func (a Arc) Accepts() bool { return a&acceptsBit != 0 }

// Last reports whether this is the last arc leaving its node.
func (a Arc) Last() bool { return a&lastBit != 0 }

// Child is the node this arc leads to (0: none).
func (a Arc) Child() Node { return Node(a & childMask) }

func makeArc(l rules.Letter, accepts bool, child Node) Arc {
	a := Arc(l)<<letterShift | Arc(child)
	if accepts {
		a |= acceptsBit
	}
	return a
}

// Node is the index of a node's first arc; 0 is the empty node (no arcs).
type Node uint32

// Header describes a compiled lexicon.
type Header struct {
	Name         string    // lexicon name, e.g. "NWL23"
	WordCount    int       // distinct words
	SourceSHA256 [32]byte  // sha256 of the source word-list file
	BuiltAt      time.Time // when it was compiled (UTC, to the second)
	Nodes        int       // arcs in the flat array
}

// GADDAG is a compiled lexicon. It is immutable and safe for concurrent use.
type GADDAG struct {
	hdr    Header
	arcs   []Arc
	root   Node // GADDAG root
	dawg   Node // forward DAWG root
	fileSz int
	sum    uint32 // the compiled form's CRC-32C (its last four bytes)
	path   string // the file it was loaded from or saved to, if any
}

// Header returns the header.
func (g *GADDAG) Header() Header { return g.hdr }

// Size is the size of the compiled form in bytes.
func (g *GADDAG) Size() int { return g.fileSz }

// Checksum is the CRC-32C of the compiled form (the file's own last four
// bytes): with Size, it tells one compiled lexicon from another, so what is
// worked out from one (movegen's tables) can be stored beside it and
// matched to it.
func (g *GADDAG) Checksum() uint32 { return g.sum }

// Path is the file the lexicon was loaded from (Load) or last saved to
// (Save), or "" for one only built in memory.
func (g *GADDAG) Path() string { return g.path }

// Root is the GADDAG root: paths from it spell reversed prefixes, then the
// separator, then suffixes.
func (g *GADDAG) Root() Node { return g.root }

// DawgRoot is the root of the forward DAWG: paths from it spell words.
func (g *GADDAG) DawgRoot() Node { return g.dawg }

// Arcs exposes the flat arc array for hot loops that walk it themselves.
func (g *GADDAG) Arcs() []Arc { return g.arcs }

// Next follows the arc labelled l out of node n. ok is false when there is
// none (or n is the empty node).
func (g *GADDAG) Next(n Node, l rules.Letter) (a Arc, ok bool) {
	if n == 0 {
		return 0, false
	}
	for i := n; ; i++ {
		a = g.arcs[i]
		if a.Letter() == l {
			return a, true
		}
		if a.Last() || a.Letter() > l {
			return 0, false
		}
	}
}

// LetterSet is the set of letters (bit l for letter l, bit 0 for the
// separator) with an arc out of n.
func (g *GADDAG) LetterSet(n Node) uint32 {
	if n == 0 {
		return 0
	}
	var s uint32
	for i := n; ; i++ {
		a := g.arcs[i]
		s |= 1 << a.Letter()
		if a.Last() {
			return s
		}
	}
}

// AcceptSet is the set of letters whose arc out of n ends a word.
func (g *GADDAG) AcceptSet(n Node) uint32 {
	if n == 0 {
		return 0
	}
	var s uint32
	for i := n; ; i++ {
		a := g.arcs[i]
		if a.Accepts() {
			s |= 1 << a.Letter()
		}
		if a.Last() {
			return s
		}
	}
}

// Contains reports whether word (A-Z, either case) is in the lexicon.
func (g *GADDAG) Contains(word string) bool {
	if word == "" {
		return false
	}
	n := g.dawg
	var a Arc
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c < 'A' || c > 'Z' {
			return false
		}
		var ok bool
		if a, ok = g.Next(n, rules.Letter(c-'A'+1)); !ok {
			return false
		}
		n = a.Child()
	}
	return a.Accepts()
}

// ContainsLetters reports whether the machine letters (blank bits ignored)
// spell a word.
func (g *GADDAG) ContainsLetters(word []rules.Letter) bool {
	if len(word) == 0 {
		return false
	}
	n := g.dawg
	var a Arc
	for _, l := range word {
		var ok bool
		if a, ok = g.Next(n, l.Unblanked()); !ok {
			return false
		}
		n = a.Child()
	}
	return a.Accepts()
}

// Words calls fn with every word in alphabetical order until fn returns false.
func (g *GADDAG) Words(fn func(word string) bool) {
	var buf [64]byte
	g.walk(g.dawg, buf[:0], func(b []byte) bool { return fn(string(b)) })
}

func (g *GADDAG) walk(n Node, prefix []byte, fn func([]byte) bool) bool {
	// The depth bound keeps a crafted file with a cycle from looping forever.
	if n == 0 || len(prefix) > maxPathLen {
		return true
	}
	for i := n; ; i++ {
		a := g.arcs[i]
		p := append(prefix, byte('A'+a.Letter()-1))
		if a.Accepts() && !fn(p) {
			return false
		}
		if !g.walk(a.Child(), p, fn) {
			return false
		}
		if a.Last() {
			return true
		}
	}
}
