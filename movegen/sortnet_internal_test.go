package movegen

import (
	"math/rand/v2"
	"scrabble/internal/testlex"
	"scrabble/rules"
	"slices"
	"testing"
)

// TestSortNetworks checks every network against slices.Sort, on random
// keys with many ties and on every 0-1 input of up to 16 keys (a network
// that sorts all 0-1 inputs sorts everything).
func TestSortNetworks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range len(sortNetworks) {
		for trial := range 200 {
			var keys [64]int64
			for i := range n {
				keys[i] = rng.Int64N(int64(1 + trial%20))
			}
			want := slices.Clone(keys[:n])
			slices.Sort(want)
			slices.Reverse(want)
			for _, c := range sortNetworks[n] {
				a, b := keys[c[0]], keys[c[1]]
				keys[c[0]], keys[c[1]] = max(a, b), min(a, b)
			}
			if !slices.Equal(keys[:n], want) {
				t.Fatalf("n=%d: got %v, want %v", n, keys[:n], want)
			}
		}
	}
	for n := 0; n <= 16; n++ {
		for bits := 0; bits < 1<<n; bits++ {
			var keys [64]int64
			for i := range n {
				keys[i] = int64(bits >> i & 1)
			}
			for _, c := range sortNetworks[n] {
				a, b := keys[c[0]], keys[c[1]]
				keys[c[0]], keys[c[1]] = max(a, b), min(a, b)
			}
			for i := 1; i < n; i++ {
				if keys[i-1] < keys[i] {
					t.Fatalf("n=%d, input %b: not sorted: %v", n, bits, keys[:n])
				}
			}
		}
	}
}

// hashValuer gives every leave a pseudo-random value (many ties at the
// small sizes), so the order of a rack's subsets is not the odometer's.
type hashValuer struct{}

func (hashValuer) LeaveValue(r *rules.Rack) rules.Equity {
	h := uint64(1469598103934665603)
	for _, c := range r {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return rules.Equity(h%64)*500 - 16000
}

// TestSubsetsByLeave checks the rack's subsets of each size against a
// stable sort by leave, best first, on racks drawn from bags.
func TestSubsetsByLeave(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	g := New(tablesFor(lex))
	g.valuer = hashValuer{}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		var rack rules.Rack
		for _, l := range rules.NewBag(rng.Uint64()).Draw(1 + rng.IntN(rules.RackSize)) {
			rack.Add(l)
		}
		g.setRackTiles(&rack)
		g.leaves.set(&rack, g.valuer, &g.leaveScratch)
		g.analyzeRack(&rack)
		for k, got := range g.ri.bySize {
			var want []uint8
			for i := range g.ri.numSubsets {
				if int(g.ri.subsets[i].k) == k {
					want = append(want, uint8(i))
				}
			}
			slices.SortStableFunc(want, func(a, b uint8) int {
				return int(g.ri.subsets[b].leave) - int(g.ri.subsets[a].leave)
			})
			if !slices.Equal(got, want) {
				t.Fatalf("rack %s, %d tiles: subsets %v, want %v", rack.String(), k, got, want)
			}
		}
	}
}
