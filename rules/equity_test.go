package rules

import (
	"math"
	"testing"
)

func TestEquity(t *testing.T) {
	tests := []struct {
		points float64
		round  Equity
		trunc  Equity
		str    string
	}{
		{0, 0, 0, "0"},
		{12, 12000, 12000, "12"},
		{-3.5, -3500, -3500, "-3.5"},
		{0.125, 125, 125, "0.125"},
		{25.1255, 25126, 25125, "25.126"},
		{-0.0005, -1, 0, "-0.001"},
		{-7.0004, -7000, -7000, "-7"},
	}
	for _, tc := range tests {
		if got := RoundPoints(tc.points); got != tc.round {
			t.Errorf("RoundPoints(%v) = %d, want %d", tc.points, got, tc.round)
		}
		if got := TruncPoints(tc.points); got != tc.trunc {
			t.Errorf("TruncPoints(%v) = %d, want %d", tc.points, got, tc.trunc)
		}
		if got := tc.round.String(); got != tc.str {
			t.Errorf("%d.String() = %q, want %q", tc.round, got, tc.str)
		}
		if got := tc.round.Points(); got != float64(tc.round)/1000 {
			t.Errorf("%d.Points() = %v", tc.round, got)
		}
		if got := RoundMilli(tc.points); got != tc.round.Points() {
			t.Errorf("RoundMilli(%v) = %v, want %v", tc.points, got, tc.round.Points())
		}
	}
	if FromPoints(int32(-41)) != -41000 || FromPoints(7) != 7000 {
		t.Error("FromPoints")
	}
	if MilliToPoints(1500) != 1.5 {
		t.Error("MilliToPoints")
	}
	for _, tc := range []struct {
		points float64
		ok     bool
	}{{MaxPoints, true}, {2147483.647, true}, {2147483.6476, false}, {-2147483.648, true}, {-2147483.649, false}, {math.Inf(1), false}} {
		if got := InRange(tc.points); got != tc.ok {
			t.Errorf("InRange(%v) = %v", tc.points, got)
		}
	}
	// Every millipoint from -3 to 3 points comes back through String.
	for e := Equity(-3000); e <= 3000; e++ {
		if back := RoundPoints(e.Points()); back != e {
			t.Fatalf("%d -> %q -> %d", e, e.String(), back)
		}
	}
}
