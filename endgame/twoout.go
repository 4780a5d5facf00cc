package endgame

import (
	"scrabble/internal/splitmix"
	"scrabble/move"
	"scrabble/rules"
)

// Two-move outs in the move order: a play whose leave other plays of the
// same node put down whole (the side can go out with its next move, if
// the first play and the other side's reply leave one of those spots
// open) is tried before plays of the same estimate that leave tiles with
// fewer ways out, or none. A side left holding tiles it cannot play makes
// a long game, and proving a bound on a long game means answering every
// sequence of the other side's moves to the end: the first move that
// meets a null-window test is kept, so which one comes first decides the
// size of the proof. (One "above 0?" test of a pre-endgame's draw took 28
// million nodes when the first move kept a C with one spot, which the
// reply blocked, and 4,760 with the spots counted.)

// zTile[slot] is a random word per rack slot; a multiset's sum is the sum
// of its tiles' words (mod 2^64), so a leave's sum is the rack's less the
// play's.
var zTile [rules.RackSlots]uint64

func init() {
	s := uint64(0x7e0_0a7_5e7)
	for i := range zTile {
		s += 0x9E37_79B9_7F4A_7C15
		zTile[i] = splitmix.Mix(s)
	}
}

// twoOutPerSpot is what each play that puts a play's leave down whole
// adds to that play's ordering key, up to twoOutSpots of them (see order):
// the other side's next move may block a spot, so a leave with several
// ways out is the surer. Nodes over the 60 shared endgames (one thread,
// MAGPIE's rule) and over eight one-tile pre-endgames solved in full
// (p000, p002-p007, p009), by the bonus: none 2.069 and 13.11 million;
// 100 for any spot 1.942 and 8.86; 50 a spot up to 2 1.829 and 5.96, up
// to 3 1.753 and 4.90, up to 4 1.755 and 4.54 (kept), up to 5 1.761 and
// 4.57; 33 up to 3 1.755 and 5.27; 60 up to 4 1.753 and 4.60. Vars so
// that a test can switch them off.
var (
	twoOutPerSpot int32 = 50
	twoOutSpots         = 4
)

// twoOutBonus is the ordering bonus of a play whose leave n plays of the
// node put down whole. (A play whose tiles are its own leave, AB from
// AABB, counts itself: it may go down again elsewhere.)
func twoOutBonus(n int) int32 { return twoOutPerSpot * int32(min(n, twoOutSpots)) }

// usedSum is the multiset sum of the rack tiles a play puts down.
func usedSum(m *move.Move) uint64 {
	var h uint64
	for _, t := range m.Tiles[:m.Len] {
		if t != rules.PlayedThrough {
			h += zTile[t.RackIndex()]
		}
	}
	return h
}

// sumSet is a set of multiset sums, cleared in O(1) by a new generation.
type sumSet struct {
	slots []sumSlot
	gen   uint32
	mask  uint64
}

type sumSlot struct {
	sum   uint64
	gen   uint32
	count uint32 // plays added with the sum
}

// reset empties the set, with room for n sums at half load.
func (z *sumSet) reset(n int) {
	size := 64
	for size < 2*n {
		size *= 2
	}
	if len(z.slots) < size {
		z.slots = make([]sumSlot, size)
		z.gen = 0
	}
	z.mask = uint64(len(z.slots) - 1)
	if z.gen++; z.gen == 0 { // wrapped: old stamps could match again
		clear(z.slots)
		z.gen = 1
	}
}

func (z *sumSet) add(h uint64) {
	for i := h & z.mask; ; i = (i + 1) & z.mask {
		sl := &z.slots[i]
		if sl.gen != z.gen {
			sl.sum, sl.gen, sl.count = h, z.gen, 1
			return
		}
		if sl.sum == h {
			sl.count++
			return
		}
	}
}

// count is how many times h was added since the last reset.
func (z *sumSet) count(h uint64) int {
	for i := h & z.mask; ; i = (i + 1) & z.mask {
		sl := &z.slots[i]
		if sl.gen != z.gen {
			return 0
		}
		if sl.sum == h {
			return int(sl.count)
		}
	}
}

// twoOuts reports, when the side holds at least three tiles and the bag
// is empty (tiles is the rack's count, -1 while the bag holds tiles; with
// two tiles every one-tile play would be raised alike), the sums of what each
// play of moves leaves on the rack (s.leaveSums, by index; 0 for the pass
// and for plays that go out), with s.outSet holding the sums of the
// tiles each play puts down.
func (s *searcher) twoOuts(moves []move.Move, side, tiles int) bool {
	if tiles < 3 || twoOutPerSpot == 0 {
		return false
	}
	var rs uint64
	for slot, c := range s.racks[side] {
		rs += uint64(c) * zTile[slot]
	}
	s.outSet.reset(len(moves))
	if cap(s.leaveSums) < len(moves) {
		s.leaveSums = make([]uint64, len(moves), 2*len(moves))
	}
	sums := s.leaveSums[:len(moves)]
	for i := range moves {
		sums[i] = 0
		if m := &moves[i]; m.Kind == move.Play && int(m.NumTiles) < tiles {
			u := usedSum(m)
			s.outSet.add(u)
			sums[i] = rs - u
		}
	}
	s.leaveSums = sums
	return true
}
