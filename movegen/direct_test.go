package movegen

import (
	"math/rand/v2"
	"slices"
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

// TestBucketQueue checks Best's queue against a sorted list: every entry
// comes out once, never before an entry of a higher bucket, the ceiling
// bounds every entry still in, and reset empties it (bounds far out of
// the buckets' range included).
func TestBucketQueue(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	var q bucketQueue
	for round := range 50 {
		q.reset()
		var in []int64
		for i := range 1 + rng.IntN(300) {
			bound := rules.Equity(rng.IntN(1_200_000) - 400_000)
			switch rng.IntN(20) {
			case 0:
				bound = minEquity + rules.Equity(rng.IntN(1000))
			case 1:
				bound = rules.Equity(2_000_000 + rng.IntN(1000))
			}
			key := queueKey(rules.Equity(bound), i, i%3)
			q.push(key)
			in = append(in, key)
		}
		if round%5 == 4 {
			continue // left full: reset must empty it
		}
		for len(in) > 0 {
			if q.top == 0 {
				t.Fatalf("round %d: queue empty with %d entries in", round, len(in))
			}
			ceil := q.ceiling()
			for _, k := range in {
				if rules.Equity(k>>queueShift) > ceil {
					t.Fatalf("round %d: ceiling %d below entry bound %d", round, ceil, rules.Equity(k>>queueShift))
				}
			}
			key := q.pop()
			j := slices.Index(in, key)
			if j < 0 {
				t.Fatalf("round %d: popped %x, not in the queue", round, key)
			}
			for _, k := range in {
				if bucketOf(rules.Equity(k>>queueShift)) > bucketOf(rules.Equity(key>>queueShift)) {
					t.Fatalf("round %d: popped bound %d before %d", round, rules.Equity(key>>queueShift), rules.Equity(k>>queueShift))
				}
			}
			in = slices.Delete(in, j, j+1)
		}
		if q.top != 0 {
			t.Fatalf("round %d: entries left after all came out", round)
		}
	}
}
