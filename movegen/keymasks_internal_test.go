package movegen

import (
	"math/rand/v2"
	"testing"
)

// TestKeyMasks checks the open-addressing table against a Go map, growing
// from a tiny table through several doublings, with keys set more than once.
func TestKeyMasks(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var m keyMasks
	m.init(4)
	want := map[uint64]uint32{}
	keys := make([]uint64, 0, 5000)
	for range 20000 {
		var k uint64
		if len(keys) > 0 && r.IntN(3) == 0 {
			k = keys[r.IntN(len(keys))] // again: the sets merge
		} else {
			k = r.Uint64() | 1 // keys are never 0
			keys = append(keys, k)
		}
		set := uint32(1) << r.IntN(27)
		m.or(k, set)
		want[k] |= set
	}
	if m.used != len(want) {
		t.Errorf("used %d, want %d keys", m.used, len(want))
	}
	if len(m.keys) < 2*m.used {
		t.Errorf("%d slots for %d keys: over half full", len(m.keys), m.used)
	}
	for k, set := range want {
		if got := m.get(k); got != set {
			t.Fatalf("get(%#x) = %#x, want %#x", k, got, set)
		}
	}
	for range 1000 {
		k := r.Uint64() | 1
		if _, ok := want[k]; !ok && m.get(k) != 0 {
			t.Fatalf("get(%#x) of an absent key = %#x", k, m.get(k))
		}
	}
}
