package movegen

import (
	"scrabble/internal/hugemem"
	"scrabble/rules"
)

// spellSet tells which multisets of 2 to 7 tiles spell a word, blanks
// standing for any letter. The rack's subsets are its look-ups, over a
// hundred a new rack, so it is laid out for them: multisets of up to six
// tiles have one bit each at their dense rank (below), 140 KB that mostly
// stays in the cache, where a hash set of fingerprints took a random read
// of 4 MB for each; the few multisets of seven tiles (one a rack) are kept
// by fingerprint.
type spellSet struct {
	small  []uint64
	sevens keyMasks // fingerprint -> 1
}

// Multisets of k tiles rank densely: with the symbols numbered in
// lettersByValue order (blank last, 26) and a multiset's symbols in that
// order s_0 <= s_1 <= ... <= s_{k-1}, the numbers b_i = s_i + i are
// distinct and the rank is the sum of C(b_i, i+1) (the combinatorial number
// system), which is below C(26+k, k). Each term depends on one tile and its
// place only, so subsets built tile by tile in that order (spellSubsets)
// sum their rank as they go: rankStep[i][s] is C(s+i, i+1).
var (
	symbolOf  [rules.RackSlots]uint8
	rankStep  [rules.RackSize][rules.RackSlots]uint32
	rankStart [rules.RackSize]uint32 // the first bit of each size, to 6
	smallBits uint32                 // bits for sizes 2 to 6
)

func init() {
	for i, l := range lettersByValue {
		symbolOf[l] = uint8(i)
	}
	for i := range rankStep {
		for s := range rankStep[i] {
			rankStep[i][s] = uint32(binomial(s+i, i+1))
		}
	}
	next := uint32(0)
	for k := 2; k < rules.RackSize; k++ {
		rankStart[k] = next
		next += uint32(binomial(rules.RackSlots-1+k, k))
	}
	smallBits = next
}

func binomial(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	c := 1
	for i := 1; i <= k; i++ {
		c = c * (n - k + i) / i
	}
	return c
}

// multisetRank is the dense rank of a multiset (counts by rack slot,
// blanks in slot 0) of k tiles, as spellSubsets sums it.
func multisetRank(counts *[rules.RackSlots]uint8) (k int, rank uint32) {
	for _, l := range lettersByValue {
		for c := counts[l]; c > 0; c-- {
			if k < rules.RackSize {
				rank += rankStep[k][symbolOf[l]]
			}
			k++
		}
	}
	return k, rank
}

func (s *spellSet) init(sevens int) {
	s.small = hugemem.Make[uint64](int(smallBits+63) / 64)
	s.sevens.init(sevens)
}

// add records a multiset of 2 to 7 tiles that spells a word, given by its
// symbols (symbolOf) in order and its fingerprint.
func (s *spellSet) add(syms []uint8, fp uint64) {
	k := len(syms)
	switch {
	case k < 2 || k > rules.RackSize:
	case k == rules.RackSize:
		s.sevens.or(fp, 1)
	default:
		b := rankStart[k]
		for i, sym := range syms {
			b += rankStep[i][sym]
		}
		s.small[b>>6] |= 1 << (b & 63)
	}
}

// has reports whether a multiset of k tiles (2 to 7) with the given rank
// and fingerprint spells a word.
func (s *spellSet) has(k int, rank uint32, fp uint64) bool {
	if k == rules.RackSize {
		return s.sevens.get(fp) != 0
	}
	b := rankStart[k] + rank
	return s.small[b>>6]&(1<<(b&63)) != 0
}

// hasCounts is has for a multiset given by its counts.
func (s *spellSet) hasCounts(counts *[rules.RackSlots]uint8) bool {
	k, rank := multisetRank(counts)
	if k < 2 || k > rules.RackSize {
		return false
	}
	return s.has(k, rank, fingerprint(counts))
}
