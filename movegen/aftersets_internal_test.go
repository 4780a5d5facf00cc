package movegen

import (
	"testing"
	"time"

	"scrabble/gaddag"
	"scrabble/internal/testlex"
)

// TestAfterSetsOverAnnotatedArcs checks the after-run sets, worked out over
// the GADDAG's own arcs while the annotated ones are laid out, against the
// plain definition walked over the annotated arcs themselves.
func TestAfterSetsOverAnnotatedArcs(t *testing.T) {
	for _, name := range testlex.Names() {
		lex := testlex.GADDAG(t, name)
		gr := tablesFor(lex).graph
		arcs, got := gr.xarcs, gr.after
		if len(got) != len(arcs) {
			t.Fatalf("%s: %d sets for %d arcs", name, len(got), len(arcs))
		}
		memo := make(map[gaddag.Node]uint32)
		var node func(i gaddag.Node) uint32
		node = func(i gaddag.Node) uint32 {
			if i == 0 {
				return 0
			}
			if v, ok := memo[i]; ok {
				return v
			}
			var set uint32
			for j := i; ; j++ {
				a := arcs[j].arc()
				if a.Letter() == 0 {
					set |= arcs[j].childSet()
				} else {
					set |= node(a.Child())
				}
				if a.Last() {
					break
				}
			}
			set &= allLetters
			memo[i] = set
			return set
		}
		bad := 0
		for i := 1; i < len(arcs); i++ {
			if want := node(gaddag.Node(i)); got[i] != want {
				if bad++; bad <= 5 {
					t.Errorf("%s: node %d: after set %#x, want %#x", name, i, got[i], want)
				}
			}
		}
	}
}

// TestAfterSetsOfCyclicGraph: on a graph with cycles, which gaddag.Decode
// refuses but the walk must survive all the same (issue 23's crafted
// lexicon overflowed the stack here), the after-run sets are worked out,
// and quickly: a node whose 26 arcs all lead back to itself (26^16 paths of
// a word's length) and two nodes leading to each other. Without the walk's
// depth bound the test dies of a stack overflow.
func TestAfterSetsOfCyclicGraph(t *testing.T) {
	const last = 1 << 25
	arc := func(l int, child gaddag.Node, isLast bool) gaddag.Arc {
		a := gaddag.Arc(l)<<27 | gaddag.Arc(child)
		if isLast {
			a |= last
		}
		return a
	}
	self := []gaddag.Arc{0}
	for l := 1; l <= 26; l++ {
		self = append(self, arc(l, 1, l == 26))
	}
	pair := []gaddag.Arc{0, arc(1, 2, true), arc(2, 1, true)}
	for name, arcs := range map[string][]gaddag.Arc{"self": self, "pair": pair} {
		done := make(chan []uint32, 1)
		go func() { done <- afterSetsOf(arcs, make([]uint32, len(arcs))) }()
		select {
		case got := <-done:
			if len(got) != len(arcs) {
				t.Errorf("%s: %d sets for %d arcs", name, len(got), len(arcs))
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the walk of a cyclic graph did not end in 10 s", name)
		}
	}
}
