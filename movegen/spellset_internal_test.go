package movegen

import (
	"math/rand/v2"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/rules"
)

// TestMultisetRankIsDense: the ranks of all multisets of k tiles (27
// symbols, blanks included) are exactly 0 to C(26+k, k)-1, each once, for
// the sizes small enough to list.
func TestMultisetRankIsDense(t *testing.T) {
	for k := 1; k <= 4; k++ {
		size := binomial(rules.RackSlots-1+k, k)
		seen := make([]bool, size)
		var counts [rules.RackSlots]uint8
		var walk func(from, left int)
		walk = func(from, left int) {
			if left == 0 {
				got, rank := multisetRank(&counts)
				if got != k || int(rank) >= size || seen[rank] {
					t.Fatalf("multiset %v: size %d rank %d (of %d; seen before: %v)", counts, got, rank, size, int(rank) < size && seen[rank])
				}
				seen[rank] = true
				return
			}
			for l := from; l < rules.RackSlots; l++ {
				counts[l]++
				walk(l, left-1)
				counts[l]--
			}
		}
		walk(0, k)
		for r, ok := range seen {
			if !ok {
				t.Fatalf("size %d: rank %d of %d unused", k, r, size)
			}
		}
	}
}

// TestRackSubsetsMatchPlainCounts: every subset the rack's set-up lists
// (steps by the rack's shape, summing each field as they go) has the size,
// blanks, letters, fingerprint, dense rank, leave number and packed tile
// values (highest first) that its letter counts give when worked out
// plainly; the subsets are all the rack's non-empty sub-multisets, once
// each; and whether each spells a word on its own agrees with the index.
func TestRackSubsetsMatchPlainCounts(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	g := New(tablesFor(lex))
	var empty rules.Board
	g.SetBoard(&empty)
	g.SetLeaves(fnvLeaves{})
	rng := rand.New(rand.NewPCG(3, 5))
	spelling := 0
	for i := 0; i < 2000; i++ {
		bag := rules.NewBag(rng.Uint64())
		var rack rules.Rack
		bag.DrawInto(&rack, 1+rng.IntN(rules.RackSize))
		g.Best(&rack, 50, Options{})
		ri := g.ri
		want := 1
		for _, c := range rack {
			want *= int(c) + 1
		}
		if ri.numSubsets != want-1 {
			t.Fatalf("rack %s: %d subsets, want %d", rack.String(), ri.numSubsets, want-1)
		}
		seen := map[int32]bool{}
		for j := range ri.numSubsets {
			sub := &ri.subsets[j]
			var counts [rules.RackSlots]uint8
			used := int32(0)
			for s := range ri.numSlots {
				l := ri.subsetSlots[s]
				c := uint8(sub.counts >> (4 * s) & 15)
				counts[l] = c
				used += int32(c) * g.leaves.radix[l]
			}
			k, rank := multisetRank(&counts)
			letters := uint32(0)
			for l := 1; l < rules.RackSlots; l++ {
				if counts[l] > 0 {
					letters |= 1 << l
				}
			}
			switch {
			case int(sub.k) != k || sub.rank != rank:
				t.Fatalf("rack %s, subset %v: size %d rank %d, want %d and %d", rack.String(), counts, sub.k, sub.rank, k, rank)
			case sub.blanks != int8(counts[rules.Blank]) || sub.letters != letters || sub.fp != fingerprint(&counts):
				t.Fatalf("rack %s, subset %v: blanks, letters or fingerprint differ", rack.String(), counts)
			case sub.idx != used || sub.leave != g.leaves.value[used] || seen[used]:
				t.Fatalf("rack %s, subset %v: leave number %d (want %d, seen before %v)", rack.String(), counts, sub.idx, used, seen[used])
			}
			// Its tile values, highest first, packed for packedDot.
			var packed [2]uint64
			at := 0
			for _, l := range lettersByValue {
				for range counts[l] {
					packValue(&packed, at, int8(l.Value()))
					at++
				}
			}
			if sub.packed != packed {
				t.Fatalf("rack %s, subset %v: packed values %x, want %x", rack.String(), counts, sub.packed, packed)
			}
			seen[used] = true
			if k >= 2 {
				if sub.spells != g.anagrams.words.hasCounts(&counts) {
					t.Fatalf("rack %s, subset %v: spells %v", rack.String(), counts, sub.spells)
				}
				if sub.spells {
					spelling++
				}
			}
		}
	}
	if spelling < 1000 {
		t.Errorf("only %d subsets spell a word: the test is too weak", spelling)
	}
}
