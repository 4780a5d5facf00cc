package movegen

import (
	"slices"

	"scrabble/rules"
)

// rackInfo is what Best works out about a rack before searching, kept for
// the next searches with the same rack and leave valuer: a simulation asks
// about one rack on many boards. The memo stays valid too: its entries
// depend on the rack and the board letters a span holds, not on where.
type rackInfo struct {
	rack   rules.Rack
	valuer LeaveValuer
	valid  bool
	leaves rackLeaves
	// The rack's subsets (see spellSubsets), and by size, best leave
	// first.
	subsets    [128]rackSubset // the last, emptySubset, stays empty
	numSubsets int
	bySize     [rules.RackSize + 1][]uint8
	spell      rackWords
	// The rack's letters, highest value first (see analyzeRack).
	subsetSlots [rules.RackSlots]uint8
	numSlots    int
	rackPrint   uint64 // fingerprint of the rack (shadow)
	memo        throughMemo
	lanes       [2 * n][2]laneBounds // by lane (d*n+lane)
}

// setRackCached is setRack for Best, reusing the rack's leave values and
// the rest of its rackInfo (g.ri) when one of the last two searches had the
// same rack and valuer. known reports such a hit; otherwise g.ri is an
// entry to fill.
func (g *Generator) setRackCached(rack *rules.Rack) (known bool) {
	g.setRackTiles(rack)
	for i := range g.racks {
		ri := &g.racks[i]
		if ri.valid && ri.rack == *rack && sameValuer(ri.valuer, g.valuer) {
			g.ri, g.leaves = ri, ri.leaves
			g.leaves.used = 0
			g.riNext = 1 - i
			return true
		}
	}
	g.leaves.set(rack, g.valuer, &g.leaveScratch)
	g.ri = &g.racks[g.riNext]
	g.ri.valid = false
	for i := range g.ri.lanes {
		g.ri.lanes[i][0].valid, g.ri.lanes[i][1].valid = false, false
	}
	g.riNext = 1 - g.riNext
	return false
}

// ForgetRacks drops what Best kept about recent racks, so that the next
// search does all its own work. Benchmarks that search the same positions
// over and over call it before each search, to measure a search as a new
// position gets it.
func (g *Generator) ForgetRacks() {
	for i := range g.racks {
		g.racks[i].valid = false
	}
}

// sameValuer reports whether a and b value every leave the same, as far
// as their keys tell (see KeyedLeaveValuer).
func sameValuer(a, b LeaveValuer) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ka, ok := a.(KeyedLeaveValuer)
	if !ok {
		return false
	}
	kb, ok := b.(KeyedLeaveValuer)
	if !ok {
		return false
	}
	key := ka.LeaveKey()
	return key != 0 && key == kb.LeaveKey()
}

// emptySubset is the place in rackInfo.subsets of the empty subset: at
// most 127 are listed, so it is never written.
const emptySubset = 127

// rackSubset is a sub-multiset of the rack: its size, blanks, fingerprint
// and the leave value of playing it.
type rackSubset struct {
	// Its tile values, highest first, packed for packedDot.
	packed [2]uint64
	fp     uint64
	// counts holds how many of the rack's i-th letter (see
	// rackInfo.subsetSlots) it has in bits 4i to 4i+3.
	counts    uint32
	letters   uint32 // its letters (bit l), blanks aside
	leave     rules.Equity
	idx       int32  // its number in rackLeaves
	rank      uint32 // its rank among multisets of k tiles (see spellSet)
	k, blanks int8
	spells    bool // it spells a word on its own
}

// throughMemo remembers throughLeave's answers for the current rack: many
// anchors share spans' board letters. Entries of earlier racks are told
// apart by their stamp, so nothing needs clearing.
type throughMemo struct {
	entries [1 << memoBits]memoEntry
	stamp   uint32
}

const memoBits = 8

// slot returns the entry for spans whose board letters have fingerprint
// board, left tiles kept, its key, and whether it holds them (else it is
// the slot to fill).
func (m *throughMemo) slot(board uint64, left int) (e *memoEntry, key uint64, found bool) {
	key = board + uint64(left)*0x9e3779b97f4a7c15
	e = &m.entries[key>>(64-memoBits)]
	return e, key, e.stamp == m.stamp && e.key == key
}

type memoEntry struct {
	key   uint64
	leave rules.Equity // minEquity: no play found
	// floor: every subset keeping at least this much was checked (no play
	// found keeps less than leave, or anything when leave is minEquity).
	floor rules.Equity
	stamp uint32
}

// rackWords is what the current rack can spell on its own, by number of
// tiles: whether any subset of that size spells a word; for each rank, the
// highest tile value at that rank among such subsets (sorted high to low);
// and the best leave such a subset keeps.
type rackWords struct {
	formable [rules.RackSize + 1]bool
	values   [rules.RackSize + 1][rules.RackSize]int32
	top      [rules.RackSize + 1][rules.RackSize + 1]int32 // prefix sums of values
	leave    [rules.RackSize + 1]rules.Equity
	// eights holds the board letters a full rack spells an 8-letter word
	// through, once eightsKnown (worked out only when asked: with two
	// blanks it takes hundreds of look-ups).
	eights      uint32
	eightsKnown bool
}

// lettersByValue lists the letters, highest value first, then the blank.
var lettersByValue = func() (ls [rules.RackSlots]rules.Letter) {
	for i := range ls {
		ls[i] = rules.Letter(i)
	}
	slices.SortStableFunc(ls[:], func(a, b rules.Letter) int { return b.Value() - a.Value() })
	return ls
}()

// analyzeRack fills g.ri.spell for the rack (at most 7 tiles) from the anagram
// index: every subset of the rack is one look-up. Subsets are enumerated
// letter by letter, so each one's fingerprint, letters and values are built
// by adding to its parent's.
func (g *Generator) analyzeRack(rack *rules.Rack) {
	if g.anagrams == nil {
		g.anagrams = g.tables.anagramIndex()
	}
	sp := &g.ri.spell
	*sp = rackWords{}
	for k := range sp.leave {
		sp.leave[k] = minEquity
	}
	// The rack's letters, highest value first (blanks, worth 0, last).
	n := 0
	for _, l := range lettersByValue {
		if rack[l] > 0 {
			g.ri.subsetSlots[n] = uint8(l)
			n++
		}
	}
	g.ri.numSlots, g.ri.numSubsets = n, 0
	g.spellSubsets(rack, g.ri.subsetSlots[:n])
	g.spellWords()
	// Index the subsets by size, best leave first.
	for k := range g.ri.bySize {
		g.ri.bySize[k] = g.ri.bySize[k][:0]
	}
	// Sorted by key (leave, then the subset's number) with a sorting
	// network: its compare-exchanges are branch-free min and max, where
	// insertion's loop exits mispredicted (3 us a rack).
	keys := &g.sortKeys
	var lens [rules.RackSize + 1]int
	for i := range g.ri.numSubsets {
		sub := &g.ri.subsets[i]
		k := sub.k & 7
		keys[k][lens[k]&63] = int64(sub.leave)<<8 | int64(255-i)
		lens[k]++
	}
	for k := range g.ri.bySize {
		list := &keys[k]
		for _, c := range sortNetworks[lens[k]&63] {
			a, b := list[c[0]&63], list[c[1]&63]
			list[c[0]&63], list[c[1]&63] = max(a, b), min(a, b)
		}
		out := g.ri.bySize[k][:lens[k]]
		for j := range out {
			out[j] = uint8(255 - list[j&63]&255)
		}
		g.ri.bySize[k] = out
		g.leaves.best[k] = minEquity
		if len(out) > 0 {
			g.leaves.best[k] = rules.Equity(list[0] >> 8)
		}
	}
	g.leaves.best[0] = g.leaves.value[0]
	counts := [rules.RackSlots]uint8(*rack)
	g.ri.rackPrint = fingerprint(&counts)
	g.ri.memo.stamp++
	// Read the memo through once, in order: the search reads it at
	// random, and a generator that has been idle (one of many) has it out
	// of the cache; in order, the loads stream.
	var touch uint32
	for i := 0; i < len(g.ri.memo.entries); i += 2 {
		touch ^= g.ri.memo.entries[i].stamp
	}
	g.sink ^= uint64(touch)
}

// spellSubsets lists the rack's non-empty subsets (every field but
// spells). The rack's letters (slots, highest value first) are the wheels
// of an odometer of the tiles taken, the last turning fastest: the order
// in which they come is a recursion's, each subset's values are appended
// in order, and each is one step from another, its parent, found by index.
// Which wheel turns at each step, and which subset it extends, depend only
// on how many tiles of each letter the rack has (its shape), so they are
// worked out once per shape (subsetSteps): the loop has no branches on the
// wheels, whose exits mispredicted about once a subset. Each field is
// stored once, from the parent's field: a copy of the parent made whole
// and then changed loaded 16 bytes at a time, which waits on the parent's
// field stores when it was made just before. The shapes are those of racks
// of at most RackSize tiles, the only ones Best analyzes (it hands larger
// racks to Generate).
func (g *Generator) spellSubsets(rack *rules.Rack, slots []uint8) {
	subs := &g.ri.subsets
	shape := 0
	tiles := 0
	for _, l := range slots {
		tiles += int(rack[l])
		shape |= 1 << (tiles - 1)
	}
	steps := subsetSteps[shape&127]
	for num, step := range steps {
		p, st := &subs[step.parent&127], &subs[num&127]
		l := rules.Letter(slots[step.wheel&7])
		k := p.k
		st.packed[0], st.packed[1] = p.packed[0], p.packed[1]
		packValue(&st.packed, int(k), int8(valueOf[l]))
		st.rank = p.rank + rankStep[k&7][symbolOf[l]]
		st.k = k + 1
		st.fp = p.fp + subsetPrint[l]
		st.blanks = p.blanks + int8(blankCount[l])
		st.letters = p.letters | letterBit[l]
		st.idx = p.idx + g.leaves.radix[l]
		st.counts = p.counts + 1<<(4*step.wheel)
		st.leave = g.leaves.value[st.idx&127]
		st.spells = false
	}
	g.ri.numSubsets = len(steps)
}

// subsetStep is a step of spellSubsets: the subset made by adding a tile of
// the rack's wheel-th letter to the subset at parent.
type subsetStep struct{ wheel, parent uint8 }

// subsetSteps[shape] are spellSubsets' steps for the racks of a shape: bit
// t-1 is set when the letters up to some one hold t tiles in all (so a
// rack of 7 different letters is 127 and AAB is 0b110).
var subsetSteps = func() (all [128][]subsetStep) {
	for shape := 1; shape < 128; shape++ {
		var counts []uint8
		prev := 0
		for t := 1; t <= rules.RackSize; t++ {
			if shape&(1<<(t-1)) != 0 {
				counts = append(counts, uint8(t-prev))
				prev = t
			}
		}
		n := len(counts)
		var taken [rules.RackSize]uint8
		var from [rules.RackSize]uint8
		for i := range from {
			from[i] = emptySubset
		}
		var steps []subsetStep
		for {
			i := n - 1
			for ; i >= 0 && taken[i] == counts[i]; i-- {
				taken[i] = 0
			}
			if i < 0 {
				break
			}
			taken[i]++
			steps = append(steps, subsetStep{wheel: uint8(i), parent: from[i]})
			for j := i; j < n; j++ {
				from[j] = uint8(len(steps) - 1)
			}
		}
		all[shape] = steps
	}
	return all
}()

// Per letter: its fingerprint in a subset (a blank's is the wildcard's),
// the blanks it adds and its bit among the subset's letters (none for a
// blank), so a step needs no branch on blanks.
var subsetPrint, blankCount, letterBit = func() (prints [rules.RackSlots]uint64, blanks [rules.RackSlots]uint8, bits [rules.RackSlots]uint32) {
	for l := range rules.RackSlots {
		if rules.Letter(l) == rules.Blank {
			prints[l], blanks[l] = fingerprints[wildcard], 1
			continue
		}
		prints[l], bits[l] = fingerprints[l], 1<<l
	}
	return prints, blanks, bits
}()

// spellWords fills g.ri.spell from the rack's subsets.
func (g *Generator) spellWords() {
	words := &g.anagrams.words
	sp := &g.ri.spell
	for i := range g.ri.numSubsets {
		sub := &g.ri.subsets[i]
		k := int(sub.k)
		if k < 2 || !words.has(k, sub.rank, sub.fp) {
			continue
		}
		sub.spells = true
		sp.formable[k] = true
		sp.leave[k] = max(sp.leave[k], sub.leave)
		for i := 0; i < k; i++ {
			sp.values[k][i] = max(sp.values[k][i], int32(sub.packed[i>>2]>>(16*(i&3))&0xffff))
		}
	}
	for k := range sp.values {
		prefixSums(&sp.top[k], &sp.values[k])
	}
}

// prefixSums sets top[i] to the sum of the first i values.
func prefixSums(top *[rules.RackSize + 1]int32, values *[rules.RackSize]int32) {
	top[0] = 0
	for i, v := range values {
		top[i+1] = top[i] + v
	}
}

// sortNetworks[n] is a sorting network for n keys: Batcher's odd-even
// merge sort for 64, without the comparators that reach past n (those keys
// would be the lowest and stay last).
var sortNetworks = func() (nets [64][][2]uint8) {
	var all [][2]uint8
	const size = 64
	for p := 1; p < size; p *= 2 {
		for k := p; k >= 1; k /= 2 {
			for j := k % p; j+k < size; j += 2 * k {
				for i := 0; i < k && i+j+k < size; i++ {
					if (i+j)/(2*p) == (i+j+k)/(2*p) {
						all = append(all, [2]uint8{uint8(i + j), uint8(i + j + k)})
					}
				}
			}
		}
	}
	for n := range nets {
		for _, c := range all {
			if int(c[1]) < n {
				nets[n] = append(nets[n], c)
			}
		}
	}
	return nets
}()
