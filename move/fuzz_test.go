package move_test

import (
	"strings"
	"testing"

	"scrabble/move"
	"scrabble/rules"
)

// FuzzParseMove: any text, on an empty board and on one with tiles, either
// fails with an error quoting the move, or parses to a move whose notation
// on that board parses back to the same move.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"D8 (Q)UIZ", "d8 .UIZ", "J7 H(EaT)S", "8H CAT", "H8 cat", "-ABC?", "exch ABC?", "pass", "-",
		"O1 " + strings.Repeat("A", 20), "1A (QU)I(Z)ZES", "15O A", "8p A", "Z99 X", "8H ", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, b := range []*rules.Board{{}, grid(t, testGrid)} {
			m, err := move.Parse(s, b)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "move ") {
					t.Fatalf("Parse(%q): error %q does not quote the move", s, err)
				}
				continue
			}
			n := m.NotationOn(b)
			again, err := move.Parse(n, b)
			if err != nil {
				t.Fatalf("Parse(%q) = %s, which does not parse back: %v", s, n, err)
			}
			if again.NotationOn(b) != n {
				t.Fatalf("Parse(%q) = %s, read back as %s", s, n, again.NotationOn(b))
			}
		}
	})
}
