package endgame

import (
	"math/bits"
	"sync/atomic"
)

// Bound says what a stored value is: the exact value, or a bound found by
// a cut-off.
type bound uint8

const (
	boundNone  bound = iota
	boundExact       // value is the node's value
	boundLower       // the node is worth at least value (a fail high)
	boundUpper       // the node is worth at most value (a fail low)
)

// ttEntry is one slot of the table. Data packs the rest of the entry and
// the stored key is the position's key XOR data, so a slot torn by two
// threads writing it at once (two separate 64-bit stores) reads back as a
// miss rather than as another position's entry: the lock-free scheme of
// Hyatt and Mann, which Lazy SMP relies on.
type ttEntry struct {
	key  atomic.Uint64
	data atomic.Uint64
}

// Data layout: bits 0-31 the best move's ID (see moveID), 32-47 the value
// (int16, relative to the side to move), 48-55 the depth searched (plies
// left), 56-57 the bound, 58 complete (every line under the node reached the
// end of the game, so the value holds at any depth).
const (
	completeBit = 1 << 58
)

type ttData struct {
	move     uint32
	value    int
	depth    int
	bound    bound
	complete bool
}

func (d ttData) pack() uint64 {
	v := uint64(d.move) | uint64(uint16(int16(d.value)))<<32 | uint64(uint8(d.depth))<<48 | uint64(d.bound&3)<<56
	if d.complete {
		v |= completeBit
	}
	return v
}

func unpack(v uint64) ttData {
	return ttData{
		move:     uint32(v),
		value:    int(int16(uint16(v >> 32))),
		depth:    int(uint8(v >> 48)),
		bound:    bound(v>>56) & 3,
		complete: v&completeBit != 0,
	}
}

// table is the transposition table shared by every thread of a solve. It
// holds buckets of two slots: the first keeps the deeper search (an
// expensive result survives), the second always takes the newest.
type table struct {
	slots []ttEntry
	mask  uint64 // bucket index mask
}

// entryBytes is the size of one slot.
const entryBytes = 16

// newTable makes a table of at most mb megabytes (a power of two of
// buckets, at least one).
func newTable(mb int) *table {
	if mb < 1 {
		mb = 1
	}
	buckets := uint64(mb) << 20 / (2 * entryBytes)
	buckets = 1 << (63 - bits.LeadingZeros64(buckets))
	return &table{slots: make([]ttEntry, 2*buckets), mask: buckets - 1}
}

// probe returns the entry stored for key, if any.
func (t *table) probe(key uint64) (ttData, bool) {
	i := (key & t.mask) * 2
	for j := i; j < i+2; j++ {
		d := t.slots[j].data.Load()
		if t.slots[j].key.Load()^d == key && d != 0 {
			return unpack(d), true
		}
	}
	return ttData{}, false
}

// store records a search's result for key.
func (t *table) store(key uint64, d ttData) {
	i := (key & t.mask) * 2
	s := &t.slots[i]
	old := s.data.Load()
	if s.key.Load()^old != key && unpack(old).depth > d.depth {
		s = &t.slots[i+1]
	}
	v := d.pack()
	s.key.Store(key ^ v)
	s.data.Store(v)
}
