package eval

import (
	"testing"

	"scrabble/rules"
)

// TestObserveSubsets checks ObserveSubsets against a plain enumeration:
// every subset of the rack's tiles by position, kept once per distinct
// multiset of 1 to MaxLeave tiles.
func TestObserveSubsets(t *testing.T) {
	tests := []struct {
		rack    string
		subsets int // distinct leaves of 1 to 6 tiles
	}{
		{"ABCDEFG", 126},
		{"AEINRST", 126},
		{"AAB", 5},               // A, B, AA, AB, AAB
		{"??EEEQU", 3*4*2*2 - 2}, // less the empty leave and the whole rack
		{"Q", 1},
	}
	for _, tc := range tests {
		s := NewLeaveStats()
		r, err := rules.ParseRack(tc.rack)
		if err != nil {
			t.Fatal(err)
		}
		s.ObserveSubsets(&r, 7000)
		s.ObserveSubsets(&r, 3000)
		want := map[rules.Rack]bool{}
		tiles := r.Tiles()
		for mask := 1; mask < 1<<len(tiles); mask++ {
			var sub rules.Rack
			for i, l := range tiles {
				if mask>>i&1 == 1 {
					sub.Add(l)
				}
			}
			if sub.Count() <= MaxLeave {
				want[sub] = true
			}
		}
		if len(want) != tc.subsets {
			t.Fatalf("%s: the enumeration finds %d leaves, the table says %d", tc.rack, len(want), tc.subsets)
		}
		seen := 0
		for i := range numLeaves {
			if n := s.count[i]; n != 0 {
				seen++
				if n != 2 {
					t.Errorf("%s: leave %d counted %d times, want 2", tc.rack, i, n)
				}
			}
		}
		for sub := range want {
			if s.Count(&sub) != 2 {
				t.Errorf("%s: leave %s counted %d times, want 2", tc.rack, sub.String(), s.Count(&sub))
			}
		}
		if seen != len(want) || s.Observations() != 2 || s.MeanWorth() != 5 {
			t.Errorf("%s: %d leaves counted (want %d), %d observations (want 2), mean %v (want 5)",
				tc.rack, seen, len(want), s.Observations(), s.MeanWorth())
		}
		// Each leave's mean is the mean of what the racks holding it
		// were worth: 0 above the overall mean here.
		one, _ := rules.ParseRack(tc.rack[:1])
		if v := s.Table(0).LeaveValue(&one); v != 0 {
			t.Errorf("%s: leave %s valued %d, want 0", tc.rack, tc.rack[:1], v)
		}
	}
}
