package movegen

import "scrabble/rules"

// LeaveValuer values the tiles a player keeps, in millipoints. It is asked
// about every subset of the rack, the empty leave (going out) included.
type LeaveValuer interface {
	LeaveValue(leave *rules.Rack) int32
}

// SetLeaves makes equity count leave values (nil: equity is score only).
func (g *Generator) SetLeaves(v LeaveValuer) { g.valuer = v }

// rackLeaves holds the value of every leave of the current rack, looked up
// once per rack. A subset of the rack's tiles is numbered in mixed radix (how
// many of each letter are used), so taking a tile adds radix[letter] to used
// and a play's leave value is one array read.
type rackLeaves struct {
	radix [rules.RackSlots]int32
	used  int32
	value [128]int32 // by used-subset number; a 7-tile rack has at most 2^7
	// best[k] is the highest leave value after playing k tiles.
	best [rules.RackSize + 1]int32
	kept rules.Rack // scratch: a pointer to a local would escape to the heap
}

func (lv *rackLeaves) set(rack *rules.Rack, v LeaveValuer) {
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
	for k := range lv.best {
		lv.best[k] = minEquity
	}
	if place > int32(len(lv.value)) {
		// More than 7 tiles (a position outside the rules): no leave values.
		clear(lv.value[:])
		return
	}
	// Count through the subsets like an odometer (slot 0 the fastest
	// wheel), keeping the leave and its size up to date: no division.
	kept := &lv.kept
	*kept = *rack
	usedTiles := 0
	for idx := int32(0); ; idx++ {
		val := int32(0)
		if v != nil { // the empty leave too: going out may be worth something
			val = v.LeaveValue(kept)
		}
		lv.value[idx] = val
		if usedTiles <= rules.RackSize && val > lv.best[usedTiles] {
			lv.best[usedTiles] = val
		}
		i := 0
		for ; i < len(slots); i++ {
			l := slots[i]
			if kept[l] > 0 {
				kept[l]--
				usedTiles++
				break
			}
			usedTiles -= int(rack[l])
			kept[l] = rack[l]
		}
		if i == len(slots) {
			return
		}
	}
}

// minEquity is below any real equity.
const minEquity = -1 << 30
