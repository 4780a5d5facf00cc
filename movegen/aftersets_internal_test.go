package movegen

import (
	"testing"

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
