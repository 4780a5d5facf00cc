package movegen

import (
	"math/rand/v2"
	"slices"
	"testing"

	"scrabble/rules"
)

// TestShadowOnceMatchesSort checks shadowOnce's sorting network against a
// plain sort of the span's coefficients, on random spans of 0 to 7 tiles
// (the entries past the span's tiles hold garbage, which must not count).
func TestShadowOnceMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var g Generator
	for range 100000 {
		var s shadowSpan
		s.k = rng.IntN(rules.RackSize + 1)
		s.wordMul = []int32{1, 2, 3, 4, 9, 27}[rng.IntN(6)]
		s.fixed, s.crossBase = rng.Int32N(40), rng.Int32N(40)
		for i := range s.tileLM {
			s.tileLM[i], s.tileX[i] = rng.Int32N(4), rng.Int32N(10)
		}
		var values [rules.RackSize]int32
		for i := range values {
			values[i] = rng.Int32N(11)
		}
		var coef []int32
		for i := range s.k {
			coef = append(coef, s.tileLM[i]*s.wordMul+s.tileX[i])
		}
		slices.Sort(coef)
		slices.Reverse(coef)
		want := s.fixed*s.wordMul + s.crossBase
		for i, c := range coef {
			want += c * values[i]
		}
		if s.k == rules.RackSize {
			want += rules.BingoBonus
		}
		if got := g.shadowOnce(&s, &values); got != want {
			t.Fatalf("span %+v, values %v: %d, want %d", s, values, got, want)
		}
	}
}
