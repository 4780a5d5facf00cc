package movegen

import (
	"math/rand/v2"
	"slices"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/rules"
)

// TestAnagramIndex checks the index against a plain map of sorted words:
// random multisets of 2-7 tiles, with up to two blanks, spell a word per
// the index exactly when some designation of the blanks is a sorted word.
func TestAnagramIndex(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	wl := testlex.WordList(t, testlex.Name())
	sorted := map[string]bool{}
	for _, w := range wl.Words {
		if len(w) >= 2 && len(w) <= 7 {
			b := []byte(w)
			slices.Sort(b)
			sorted[string(b)] = true
		}
	}
	idx := tablesFor(lex).anagramIndex()
	rng := rand.New(rand.NewPCG(7, 7))
	found := 0
	for i := 0; i < 3000; i++ {
		var counts [rules.RackSlots]uint8
		n := 2 + rng.IntN(6)
		if i%2 == 0 { // a real word's letters, so that hits are common
			w := wl.Words[rng.IntN(len(wl.Words))]
			if len(w) > 7 || len(w) < 2 {
				continue
			}
			for _, c := range []byte(w) {
				counts[c-'A'+1]++
			}
			n = len(w)
		} else {
			for j := 0; j < n; j++ {
				counts[1+rng.IntN(26)]++
			}
		}
		for b := 0; b < rng.IntN(3) && b < n; b++ { // turn letters into blanks
			for l := 1; l < rules.RackSlots; l++ {
				if counts[l] > 0 {
					counts[l]--
					counts[0]++
					break
				}
			}
		}
		want := spellsBrute(sorted, counts)
		if got := idx.words.hasCounts(&counts); got != want {
			t.Fatalf("multiset %v: index says %v, brute force %v", counts, got, want)
		}
		if want {
			found++
		}
	}
	if found < 1000 {
		t.Errorf("only %d hits: the test is too weak", found)
	}
}

func spellsBrute(sorted map[string]bool, counts [rules.RackSlots]uint8) bool {
	if counts[0] == 0 {
		var b []byte
		for l := 1; l < rules.RackSlots; l++ {
			for c := uint8(0); c < counts[l]; c++ {
				b = append(b, byte('A'+l-1))
			}
		}
		return sorted[string(b)]
	}
	counts[0]--
	for l := 1; l < rules.RackSlots; l++ {
		counts[l]++
		if spellsBrute(sorted, counts) {
			return true
		}
		counts[l]--
	}
	return false
}
