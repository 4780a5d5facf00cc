package movegen

import (
	"math/bits"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/rules"
)

// TestShortCrossMatchesWalk checks the short-run table against the graph
// walks it stands in for: for every run of one or two letters (some of them
// blanks on the board), the letters that may stand before and after it.
func TestShortCrossMatchesWalk(t *testing.T) {
	for _, name := range testlex.Names() {
		g := New(tablesFor(testlex.GADDAG(t, name)))
		short := g.short
		var runs [][]rules.Letter
		for a := rules.Letter(1); a < rules.RackSlots; a++ {
			runs = append(runs, []rules.Letter{a}, []rules.Letter{a.Blanked()})
			for b := rules.Letter(1); b < rules.RackSlots; b++ {
				runs = append(runs, []rules.Letter{a, b}, []rules.Letter{a, b.Blanked()})
			}
		}
		nonEmpty := 0
		for _, run := range runs {
			var before, after uint32
			if x, ok := g.followForward(g.dawgArc(), run); ok {
				after = g.acceptSet(x) & allLetters
			}
			if x, ok := g.followBack(g.rootArc(), run); ok {
				for p := x.childSet() & allLetters; p != 0; p &= p - 1 {
					l := rules.Letter(bits.TrailingZeros32(p))
					if y, _ := g.step(x, l); y.arc().Accepts() {
						before |= 1 << l
					}
				}
			}
			gotBefore, ok1 := short.set(run, true)
			gotAfter, ok2 := short.set(run, false)
			if !ok1 || !ok2 || gotBefore != before || gotAfter != after {
				t.Fatalf("%s: run %s: table before %x after %x (%v %v), walk %x %x", name, rules.WordString(run), gotBefore, gotAfter, ok1, ok2, before, after)
			}
			if before != 0 || after != 0 {
				nonEmpty++
			}
		}
		if nonEmpty < 500 {
			t.Errorf("%s: only %d runs have a letter before or after them: the test is too weak", name, nonEmpty)
		}
		if _, ok := short.set(make([]rules.Letter, 3), true); ok {
			t.Errorf("%s: a run of three letters answered from the table", name)
		}
	}
}
