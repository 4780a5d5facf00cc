package eval

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"sync/atomic"

	"scrabble/rules"
)

// MaxLeave is the largest leave the table holds. A leave is what stays on
// the rack after a play of at least one tile, so at most 6 tiles.
const MaxLeave = rules.RackSize - 1

// LeaveTable holds a value in millipoints for every leave of 1 to MaxLeave
// tiles that rules.Distribution() allows. The empty leave and leaves of more
// than MaxLeave tiles are worth 0 and are not stored.
//
// Leaves are numbered densely from their letter counts (see Index), so a
// look-up is a few table reads and one array read: no hashing, no
// allocation. The zero LeaveTable is an all-zero table ready for use.
// Look-ups may run concurrently with each other, not with Set or SetAt.
type LeaveTable struct {
	vals []rules.Equity // by Index; nil until the first Set on a zero LeaveTable
	// key names the values (see LeaveKey): a new one for every table and
	// every change; 0 for a zero LeaveTable never set.
	key uint64
}

// tableKeys hands out LeaveTable keys, below 1<<60: the other valuers'
// keys have a top bit set (see zeroLeaves, endgame, balanced).
var tableKeys atomic.Uint64

// NewLeaveTable returns a table with every leave worth 0.
func NewLeaveTable() *LeaveTable {
	return &LeaveTable{vals: make([]rules.Equity, numLeaves), key: tableKeys.Add(1)}
}

// LeaveKey names the table's values for movegen.KeyedLeaveValuer: it
// changes whenever a value does.
func (t *LeaveTable) LeaveKey() uint64 { return t.key }

// Equal reports whether t and o value every leave the same.
func (t *LeaveTable) Equal(o *LeaveTable) bool {
	for i := range numLeaves {
		if t.At(i) != o.At(i) {
			return false
		}
	}
	return true
}

// Len is the number of leaves in the table: every multiset of 1 to MaxLeave
// tiles the distribution allows.
func (t *LeaveTable) Len() int { return numLeaves }

// Value returns the value of leave r: 0 for the empty leave,
// for leaves of more than MaxLeave tiles and for leaves the distribution does
// not allow (such as two Qs).
func (t *LeaveTable) Value(r *rules.Rack) rules.Equity {
	i, ok := leaveIndex(r)
	if ok && uint(i) < uint(len(t.vals)) {
		return t.vals[i]
	}
	return 0
}

// LeaveValue is Value; it makes a LeaveTable a movegen.LeaveValuer.
func (t *LeaveTable) LeaveValue(r *rules.Rack) rules.Equity { return t.Value(r) }

// RackLeaveValues stores the value of every leave of rack in out, numbered
// by the tiles used as movegen.RackLeaveValuer describes (out[u] for the
// leave after using u): it makes a LeaveTable a movegen.RackLeaveValuer.
// The leaves are ranked together, each rank one step from its parent's, so
// the cost is about one table read a leave.
func (t *LeaveTable) RackLeaveValues(rack *rules.Rack, out []rules.Equity) {
	var radix [rules.RackSlots]int32
	place, used := int32(1), int32(0)
	for l, c := range rack {
		if c > 0 {
			radix[l] = place
			used += place * int32(c)
			place *= int32(c) + 1
		}
	}
	if len(out) != int(place) {
		panic(fmt.Sprintf("eval: RackLeaveValues(%q): %d values, want %d", rack.String(), len(out), place))
	}
	// The rack's letters in slotOrder are the wheels of an odometer of the
	// tiles kept, the last turning fastest. A leave's rank is the sum of
	// its letters' rankSteps (see leaveIndex), each depending on the tiles
	// kept of the letters before it; a wheel at 0 adds nothing. So when
	// wheel i turns (and the ones after it go back to 0), only its step
	// changes: at[i] holds the rank, validity and tiles left to keep up to
	// wheel i, and at[i+1] follows. A leave is one step and one table read.
	type wheel struct {
		slot  uint8
		count uint8 // tiles of the letter on the rack
		kept  uint8
		radix int32
	}
	type partial struct {
		rank, bad int32
		s         uint // tiles that may still be kept
	}
	var wheels [rules.RackSlots]wheel
	n := 0
	for _, j := range slotOrder {
		if rack[j] > 0 {
			wheels[n] = wheel{slot: j, count: rack[j], radix: radix[j]}
			n++
		}
	}
	var at [rules.RackSlots]partial
	for i := range n {
		at[i].s = MaxLeave
	}
	vals := t.vals
	// The leaves are ranked first and read afterwards, in a loop of
	// independent loads: the table is beyond the caches, and the
	// odometer's work between reads would keep only a few of them in
	// flight at a time.
	var ranks, uses [128]int32
	num := 0
	// The first leave is the empty one (every tile used): worth 0.
	out[used] = 0
	for {
		i := n - 1
		for ; i >= 0 && wheels[i].kept == wheels[i].count; i-- {
			used += wheels[i].radix * int32(wheels[i].kept)
			wheels[i].kept = 0
		}
		if i < 0 {
			break
		}
		w := &wheels[i]
		w.kept++
		used -= w.radix
		c := uint(w.kept)
		step := rankStep[w.slot][at[i].s&7][c&7]
		next := partial{at[i].rank + step, at[i].bad | step | -int32(c>>3), at[i].s - c}
		for k := i + 1; k < n; k++ {
			at[k] = next
		}
		r := int32(-1)
		if next.bad >= 0 && next.rank > 0 && int(next.rank) <= len(vals) {
			r = next.rank - 1
		}
		ranks[num&127], uses[num&127] = r, used
		num++
	}
	for j := range num {
		v := rules.Equity(0)
		if r := ranks[j&127]; r >= 0 {
			v = vals[r]
		}
		out[uses[j&127]] = v
	}
}

// Set stores the value of leave r. It panics when r is not in
// the table (see Index): the values of the other leaves are fixed at 0.
func (t *LeaveTable) Set(r *rules.Rack, value rules.Equity) {
	i, ok := leaveIndex(r)
	if !ok {
		panic(fmt.Sprintf("eval: LeaveTable.Set(%q): not a leave of 1 to %d tiles the tile distribution allows", r.String(), MaxLeave))
	}
	t.ensure()
	t.vals[i] = value
	t.key = tableKeys.Add(1)
}

// At returns the value stored at index i (0 <= i < Len()).
func (t *LeaveTable) At(i int) rules.Equity {
	if t.vals == nil {
		if uint(i) >= uint(numLeaves) {
			panic(fmt.Sprintf("eval: leave index %d out of range [0, %d)", i, numLeaves))
		}
		return 0
	}
	return t.vals[i]
}

// SetAt stores the value at index i (0 <= i < Len()).
func (t *LeaveTable) SetAt(i int, value rules.Equity) {
	t.ensure()
	t.vals[i] = value
	t.key = tableKeys.Add(1)
}

func (t *LeaveTable) ensure() {
	if t.vals == nil {
		t.vals = make([]rules.Equity, numLeaves)
	}
}

// Index returns the dense index of leave r in [0, Len()). ok is false for
// the empty leave, leaves of more than MaxLeave tiles and leaves the
// distribution does not allow.
//
// Leaves are ranked in the combinatorial number system for multisets with
// bounded multiplicities: all multisets of at most MaxLeave tiles, ordered
// lexicographically by their counts taken in a fixed slot order
// (?HPXAIQYBJRZCKSDLTEMUFNVGOW, chosen for speed), the empty one first.
// The cost is one table read per distinct letter of the leave. The
// numbering is part of the binary file format.
func (t *LeaveTable) Index(r *rules.Rack) (int, bool) { return leaveIndex(r) }

// LeaveAt returns the leave with index i; it is the inverse of Index. It
// panics unless 0 <= i < Len().
func (t *LeaveTable) LeaveAt(i int) rules.Rack { return leaveAt(i) }

// Numbering. The slots are taken in a fixed order, slotOrder, that lets
// leaveIndex find a rack's non-zero slots in that order with a few word
// operations (see leaveIndex): slot 8k+i comes at position 8i+k, giving
// ? H P X A I Q Y B J R Z C K S D L T E M U F N V G O W.
//
// fits[q][s] is the number of multisets over the slots at positions q..26
// of slotOrder (each slot at most its count in the distribution) with at
// most s tiles. rankStep[j][s][c], for slot j at position q, is how many of
// the multisets of at most s tiles over positions q..26 come before the
// first one with c tiles in slot j: the sum of fits[q+1][s-c'] for c' < c.
// Entries for a c that slot j cannot hold (over its count in the
// distribution, or over s) are invalidStep. A leave's rank among all
// multisets of at most MaxLeave tiles, ordered lexicographically by their
// counts in slotOrder, is the sum of rankStep over its slots with s the
// tiles not yet used; its index is the rank minus one, the empty multiset
// being rank 0.
var (
	slotOrder [rules.RackSlots]uint8
	fits      [rules.RackSlots + 1][MaxLeave + 1]int32
	rankStep  [rules.RackSlots][8][8]int32 // [slot][s][c]; s = 7 is never valid
	numLeaves int
)

const invalidStep = -1 << 30

func init() {
	q := 0
	for p := 0; p < 64; p++ {
		if slot := p%8*8 + p/8; slot < rules.RackSlots {
			slotOrder[q] = uint8(slot)
			q++
		}
	}
	for s := 0; s <= MaxLeave; s++ {
		fits[rules.RackSlots][s] = 1
	}
	for q := rules.RackSlots - 1; q >= 0; q-- {
		j := slotOrder[q]
		m := int(rules.Distribution()[j])
		for s := 0; s <= MaxLeave; s++ {
			sum := int32(0)
			for c := 0; c <= MaxLeave+1; c++ {
				if c > m || c > s {
					rankStep[j][s][c] = invalidStep
					continue
				}
				rankStep[j][s][c] = sum
				sum += fits[q+1][s-c]
			}
			fits[q][s] = sum
		}
	}
	for j := range rankStep {
		for c := range rankStep[j][7] {
			rankStep[j][7][c] = invalidStep
		}
	}
	numLeaves = int(fits[0][MaxLeave]) - 1
}

// leaveIndex ranks r. It marks the non-zero bytes of the rack eight at a
// time, as the top bit of each byte of four words (slots 0-7, 8-15, 16-23,
// 24-26); shifting word k right by 7-k and combining puts slot 8k+i at bit
// 8i+k, so the set bits come in slotOrder. Then it takes one step per
// distinct letter: a few loads and adds, and one hard-to-predict branch
// (the loop's end).
func leaveIndex(r *rules.Rack) (int, bool) {
	mask := nonZeroTops(binary.LittleEndian.Uint64(r[0:8]))>>7 |
		nonZeroTops(binary.LittleEndian.Uint64(r[8:16]))>>6 |
		nonZeroTops(binary.LittleEndian.Uint64(r[16:24]))>>5 |
		nonZeroTops(binary.LittleEndian.Uint64(r[19:27])>>40)>>4 // slots 24..26
	rank, s, bad := int32(0), uint(MaxLeave), int32(0)
	for mask != 0 {
		p := uint(bits.TrailingZeros64(mask))
		mask &= mask - 1
		j := p&7<<3 | p>>3
		c := uint(r[j])
		// Out-of-range counts and invalid steps only make bad negative;
		// the masks keep the indexes in bounds whatever the input.
		step := rankStep[j][s&7][c&7]
		bad |= step | -int32(c>>3)
		rank += step
		s -= c
	}
	if bad < 0 {
		return 0, false
	}
	return int(rank) - 1, rank > 0
}

// nonZeroTops sets the top bit of each non-zero byte of w and clears the
// rest.
func nonZeroTops(w uint64) uint64 {
	const lo7 = 0x7f7f_7f7f_7f7f_7f7f
	return ((w & lo7) + lo7 | w) &^ lo7
}

func leaveAt(i int) rules.Rack {
	if i < 0 || i >= numLeaves {
		panic(fmt.Sprintf("eval: leave index %d out of range [0, %d)", i, numLeaves))
	}
	var r rules.Rack
	rank, s := int32(i+1), MaxLeave
	for q := 0; q < rules.RackSlots && rank > 0; q++ {
		c := 0
		for rank >= fits[q+1][s-c] {
			rank -= fits[q+1][s-c]
			c++
		}
		r[slotOrder[q]] = uint8(c)
		s -= c
	}
	return r
}
