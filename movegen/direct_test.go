package movegen

import (
	"math/rand/v2"
	"testing"

	"scrabble/rules"
)

// TestPackedDot checks the packed dot product of tile values and span
// coefficients against the plain sum, up to the largest of each.
func TestPackedDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for range 10000 {
		var vals [rules.RackSize]int8
		var coef [rules.RackSize]int32
		var packed [2]uint64
		k := 1 + rng.IntN(rules.RackSize)
		want := int32(0)
		for i := range k {
			vals[i] = int8(rng.IntN(11))
			coef[i] = int32(rng.IntN(85))
			if rng.IntN(4) == 0 {
				vals[i], coef[i] = 10, 84
			}
			packValue(&packed, i, vals[i])
			want += int32(vals[i]) * coef[i]
		}
		rev := reversedLanes(&coef)
		if got := packedDot(&packed, &rev); got != want {
			t.Fatalf("values %v, coefficients %v: packed dot %d, want %d", vals, coef, got, want)
		}
	}
}
