package gaddag

import (
	"errors"
	"strings"
	"testing"
)

// crafted encodes a compiled lexicon around arcs as given, with a valid
// checksum: what a hostile or damaged file may hold.
func crafted(words int, root, dawg Node, arcs ...Arc) []byte {
	g := &GADDAG{hdr: Header{Name: "crafted", WordCount: words}, arcs: append([]Arc{lastBit}, arcs...), root: root, dawg: dawg}
	return g.encode()
}

func last(a Arc) Arc { return a | lastBit }

// TestDecodeRefusesMalformedGraphs builds compiled files whose checksum is
// right but whose graph is not what Build makes: each must be refused with
// an error saying what is wrong, not loaded (a cycle once made `check` call
// every string a word and the move generator overflow its stack).
func TestDecodeRefusesMalformedGraphs(t *testing.T) {
	good, err := Build("good", []string{"AA", "AB", "BA", "CAB", "CABS", "SCAB"}, [32]byte{})
	if err != nil {
		t.Fatal(err)
	}
	// good with one arc changed: its DAWG root's first arc leads back to
	// the root.
	loopy := *good
	loopy.arcs = append([]Arc(nil), good.arcs...)
	a := loopy.arcs[loopy.dawg]
	loopy.arcs[loopy.dawg] = a&^childMask | Arc(loopy.dawg)
	miscounted := *good
	miscounted.hdr.WordCount = 7

	var chain []Arc // a 17-letter word: longer than any path may be
	for i := range 17 {
		next := Node(i + 2)
		if i == 16 {
			next = 0
		}
		chain = append(chain, last(makeArc(1, i == 16, next)))
	}
	sepArc := last(makeArc(Separator, false, 2))
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		// The 192-byte file of issue 23: A, accepting, leads back to node 1.
		{"cycle to itself", "cycle", crafted(1, 1, 1, last(makeArc(1, true, 1)))},
		{"cycle in a real graph", "cycle", loopy.encode()},
		{"cycle through two nodes", "cycle", crafted(1, 1, 1, last(makeArc(1, true, 2)), last(makeArc(2, false, 1)))},
		{"child out of range", "past the end", crafted(1, 1, 1, last(makeArc(1, true, 9)))},
		{"bad letter", "letter code 27", crafted(1, 1, 1, last(makeArc(27, true, 0)))},
		{"siblings not terminated", "does not end a node", crafted(1, 1, 1, makeArc(1, true, 0))},
		{"siblings out of order", "increasing letter order", crafted(2, 1, 1, makeArc(2, true, 0), last(makeArc(1, true, 0)))},
		{"duplicate sibling", "increasing letter order", crafted(2, 1, 1, makeArc(1, true, 0), last(makeArc(1, true, 0)))},
		{"wrong word count", "declared 7 words but the DAWG holds 6", miscounted.encode()},
		{"no words declared", "declared word count 0", crafted(0, 1, 1, last(makeArc(1, true, 0)))},
		{"path too long", "longer than 16 arcs", crafted(1, 1, 1, chain...)},
		{"dead end", "leads to no word", crafted(1, 1, 1, makeArc(1, true, 0), last(makeArc(2, false, 0)))},
		{"separator under the DAWG root", "separator below the DAWG root", crafted(1, 3, 1, sepArc, last(makeArc(1, true, 0)), last(makeArc(1, false, 1)))},
		{"two separators on a path", "two separators", crafted(1, 4, 3, sepArc, last(makeArc(Separator, false, 3)), last(makeArc(1, true, 0)), last(makeArc(1, false, 1)))},
		{"separator that accepts", "separator arc 1 accepts", crafted(1, 2, 2, last(makeArc(Separator, true, 2)), last(makeArc(1, true, 0)))},
		{"root out of range", "root index out of range", crafted(1, 5, 1, last(makeArc(1, true, 0)))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Decode(tc.data)
			if err == nil {
				t.Fatalf("decoded (%d words; %q is a word: %v), want an error", g.Header().WordCount, "AAAAAAAAAAAAAAAAAAAA", g.Contains("AAAAAAAAAAAAAAAAAAAA"))
			}
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want ErrCorrupt mentioning %q", err, tc.want)
			}
		})
	}
	if _, err := Decode(good.encode()); err != nil {
		t.Fatalf("the unchanged graph: %v", err)
	}
}
