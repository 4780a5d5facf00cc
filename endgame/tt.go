package endgame

import (
	"math/bits"
	"scrabble/internal/hugemem"
	"sync"
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

// Data layout: bits 0-23 the best move's ID (see moveID), 24-31 the
// table's generation (the solve that wrote it), 32-47 the value (int16,
// relative to the side to move), 48-55 the depth searched (plies left),
// 56-57 the bound, 58 complete (every line under the node reached the end
// of the game, so the value holds at any depth).
const (
	completeBit = 1 << 58
	moveBits    = 24
	moveMask    = 1<<moveBits - 1
)

type ttData struct {
	move     uint32 // 24 bits
	gen      uint8
	value    int
	depth    int
	bound    bound
	complete bool
}

func (d ttData) pack() uint64 {
	v := uint64(d.move&moveMask) | uint64(d.gen)<<moveBits | uint64(uint16(int16(d.value)))<<32 | uint64(uint8(d.depth))<<48 | uint64(d.bound&3)<<56
	if d.complete {
		v |= completeBit
	}
	return v
}

func unpack(v uint64) ttData {
	return ttData{
		move:     uint32(v) & moveMask,
		gen:      uint8(v >> moveBits),
		value:    int(int16(uint16(v >> 32))),
		depth:    int(uint8(v >> 48)),
		bound:    bound(v>>56) & 3,
		complete: v&completeBit != 0,
	}
}

// table is the transposition table shared by every thread of a solve. It
// holds buckets of two slots: the first keeps the deeper search (an
// expensive result survives), the second always takes the newest. A table
// is kept from solve to solve (see getTable): clearing hundreds of
// megabytes took a tenth of the shared set's time, so each solve has a
// generation of its own instead, and an entry of another is a miss.
type table struct {
	slots []ttEntry
	mask  uint64 // bucket index mask
	gen   uint8
}

// tables keeps the tables of finished solves for the next ones.
var tables struct {
	sync.Mutex
	free []*table
}

// maxFreeTables bounds the memory kept between solves.
const maxFreeTables = 2

// getTable returns a table of mb megabytes for a solve, a kept one with a
// new generation when there is one of that size.
func getTable(mb int) *table {
	size := tableSlots(mb)
	tables.Lock()
	defer tables.Unlock()
	for i, t := range tables.free {
		if uint64(len(t.slots)) == size {
			tables.free = append(tables.free[:i], tables.free[i+1:]...)
			t.gen++
			if t.gen == 0 {
				// A wrapped generation would take entries of 256 solves
				// ago as current: harmless for the values (the key holds
				// the rules, and a complete entry is the truth), but
				// node counts would depend on history. Start afresh.
				clear(t.slots)
				t.gen = 1
			}
			return t
		}
	}
	return newTable(size)
}

// newTable makes a table of size slots. Probes land anywhere in hundreds
// of megabytes, so the slots are in huge pages: with 4 KB pages nearly
// every probe also missed the TLB.
func newTable(size uint64) *table {
	return &table{slots: hugemem.Make[ttEntry](int(size)), mask: size/2 - 1, gen: 1}
}

// get returns the shared table, or without one a table of mb megabytes for
// one solve.
func (t *Table) get(mb int) *table {
	if t != nil {
		return t.cur.Load()
	}
	return getTable(mb)
}

// put gives back a table that get returned.
func (t *Table) put(tt *table) {
	if t == nil {
		putTable(tt)
	}
}

// putTable keeps t for a later solve.
func putTable(t *table) {
	tables.Lock()
	defer tables.Unlock()
	if len(tables.free) >= maxFreeTables {
		hugemem.Free(tables.free[0].slots)
		tables.free = tables.free[1:]
	}
	tables.free = append(tables.free, t)
}

// tableSlots is the number of slots of a table of mb megabytes: a power of
// two of buckets, at least one.
func tableSlots(mb int) uint64 {
	if mb < 1 {
		mb = 1
	}
	buckets := uint64(mb) << 20 / (2 * entryBytes)
	return 2 << (63 - bits.LeadingZeros64(buckets))
}

// entryBytes is the size of one slot.
const entryBytes = 16

// probe returns the entry stored for key, if any.
func (t *table) probe(key uint64) (ttData, bool) {
	i := (key & t.mask) * 2
	for j := i; j < i+2; j++ {
		d := t.slots[j].data.Load()
		if t.slots[j].key.Load()^d == key && uint8(d>>moveBits) == t.gen {
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
	if s.key.Load()^old != key && uint8(old>>moveBits) == t.gen && unpack(old).depth > d.depth {
		s = &t.slots[i+1]
	}
	d.gen = t.gen
	v := d.pack()
	s.key.Store(key ^ v)
	s.data.Store(v)
}

// busyTable holds the keys of positions some thread is searching now, for
// the threads to defer each other's moves (see searcher.search). A lost
// entry (two keys in one slot) only costs a little repeated work.
type busyTable []atomic.Uint64

const busySlots = 1 << 15

func newBusyTable() busyTable { return make(busyTable, busySlots) }

func (b busyTable) has(key uint64) bool { return b[key&(busySlots-1)].Load() == key }

func (b busyTable) set(key uint64) { b[key&(busySlots-1)].Store(key) }

func (b busyTable) clear(key uint64) { b[key&(busySlots-1)].CompareAndSwap(key, 0) }
