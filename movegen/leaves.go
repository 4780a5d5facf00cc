package movegen

import "scrabble/rules"

// LeaveValuer values the tiles a player keeps, in millipoints. It is asked
// about every subset of the rack, the empty leave (going out) included.
type LeaveValuer interface {
	LeaveValue(leave *rules.Rack) rules.Equity
}

// KeyedLeaveValuer is a LeaveValuer that names its values: two valuers
// with the same non-zero LeaveKey value every leave the same, so Best may
// reuse what it worked out about a rack under one for the other (a
// simulation asks about one rack on many boards). A valuer without a key,
// or with key 0, is never taken for another.
type KeyedLeaveValuer interface {
	LeaveValuer
	LeaveKey() uint64
}

// RackLeaveValuer is a LeaveValuer that values every leave of a rack at
// once, faster than one by one.
type RackLeaveValuer interface {
	LeaveValuer
	// RackLeaveValues stores in out[u] the value of the tiles the rack
	// keeps after using the sub-multiset numbered u, for every u: the
	// rack's letters are taken in slot order (the blank first), and using
	// c of the i-th adds c times the product of (count+1) over the letters
	// before it. len(out) is the product over all of them.
	RackLeaveValues(rack *rules.Rack, out []rules.Equity)
}

// SetLeaves makes equity count leave values (nil: equity is score only).
// Best reuses a rack's leave values while valuers of the same key are set
// (see KeyedLeaveValuer), so a valuer must not change its values while it
// is set.
func (g *Generator) SetLeaves(v LeaveValuer) { g.valuer = v }

// rackLeaves holds the value of every leave of the current rack, looked up
// once per rack. A subset of the rack's tiles is numbered in mixed radix (how
// many of each letter are used), so taking a tile adds radix[letter] to used
// and a play's leave value is one array read.
type rackLeaves struct {
	radix [rules.RackSlots]int32
	used  int32
	// subsets counts the rack's subsets, numbered 0 (none used) to
	// subsets-1 (the whole rack).
	subsets int32
	value   [128]rules.Equity // by used-subset number; a 7-tile rack has at most 2^7
	// best[k] is the highest leave value after playing k tiles (Best
	// sets it with the rack's subsets in leave order: analyzeRack).
	best [rules.RackSize + 1]rules.Equity
}

// leaveScratch is rackLeaves.set's working space.
type leaveScratch struct {
	kept rules.Rack // a pointer to a local would escape to the heap
}

func (lv *rackLeaves) set(rack *rules.Rack, v LeaveValuer, sc *leaveScratch) {
	lv.used = 0
	place := int32(1)
	var slots []int // distinct letters on the rack
	var buf [rules.RackSlots]int
	slots = buf[:0]
	for l := 0; l < rules.RackSlots; l++ {
		lv.radix[l] = 0
		if rack[l] > 0 {
			lv.radix[l] = place
			place *= int32(rack[l]) + 1
			slots = append(slots, l)
		}
	}
	lv.subsets = place
	if place > int32(len(lv.value)) {
		// More than 7 tiles (a position outside the rules): no leave values.
		clear(lv.value[:])
		return
	}
	if all, ok := v.(RackLeaveValuer); ok {
		all.RackLeaveValues(rack, lv.value[:place])
		return
	}
	// Count through the subsets like an odometer (slot 0 the fastest
	// wheel), keeping the leave up to date: no division.
	kept := &sc.kept
	*kept = *rack
	for n := int32(0); ; n++ {
		lv.value[n] = 0
		if v != nil { // the empty leave too: going out may be worth something
			lv.value[n] = v.LeaveValue(kept)
		}
		i := 0
		for ; i < len(slots); i++ {
			l := slots[i]
			if kept[l] > 0 {
				kept[l]--
				break
			}
			kept[l] = rack[l]
		}
		if i == len(slots) {
			return
		}
	}
}

// minEquity is below any real equity.
const minEquity rules.Equity = -1 << 30
