package endgame

import (
	"scrabble/internal/splitmix"
	"scrabble/move"
	"scrabble/rules"
)

// Two-move outs in the move order: a play whose leave another play of the
// same node puts down whole (the side can go out with its next move, if
// the first play leaves that spot open) is tried before plays of the same
// estimate that leave tiles with nowhere to go. A side left holding tiles
// it cannot play makes a long game, and proving a bound on a long game
// means answering every sequence of the other side's moves to the end:
// the first move that meets a null-window test is kept, so which one
// comes first decides the size of the proof.

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

// twoOutWeight is what a play whose leave can go out next adds to its
// ordering key (see order). Nodes over the 60 shared endgames, one thread,
// by weight: 0 2.069 million, 20 1.990, 40 1.954, 60 1.938, 100 1.942,
// 150-500 1.941; over eight one-tile pre-endgames solved in full (p000,
// p002-p007, p009): 0 13.11 million, 60 8.96, 100 8.86, 150 8.86. A var
// so that a test can switch it off.
var twoOutWeight int32 = 100

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
	sums []uint64
	gens []uint32
	gen  uint32
	mask uint64
}

// reset empties the set, with room for n sums at half load.
func (z *sumSet) reset(n int) {
	size := 64
	for size < 2*n {
		size *= 2
	}
	if len(z.sums) < size {
		z.sums = make([]uint64, size)
		z.gens = make([]uint32, size)
		z.gen = 0
	}
	z.mask = uint64(len(z.sums) - 1)
	if z.gen++; z.gen == 0 { // wrapped: old stamps could match again
		clear(z.gens)
		z.gen = 1
	}
}

func (z *sumSet) add(h uint64) {
	for i := h & z.mask; ; i = (i + 1) & z.mask {
		if z.gens[i] != z.gen {
			z.sums[i], z.gens[i] = h, z.gen
			return
		}
		if z.sums[i] == h {
			return
		}
	}
}

func (z *sumSet) has(h uint64) bool {
	for i := h & z.mask; ; i = (i + 1) & z.mask {
		if z.gens[i] != z.gen {
			return false
		}
		if z.sums[i] == h {
			return true
		}
	}
}

// twoOuts fills s.outSet with the sums of the tiles each play of moves
// puts down, and s.rackSum with the side's rack's, when the side can go
// out (tiles is its rack's count, -1 while the bag holds tiles) in two
// moves at all; it reports whether it did.
func (s *searcher) twoOuts(moves []move.Move, side, tiles int) bool {
	if tiles < 2 || twoOutWeight == 0 {
		return false
	}
	var rs uint64
	for slot, c := range s.racks[side] {
		rs += uint64(c) * zTile[slot]
	}
	s.rackSum = rs
	s.outSet.reset(len(moves))
	for i := range moves {
		if m := &moves[i]; m.Kind == move.Play && int(m.NumTiles) < tiles {
			s.outSet.add(usedSum(m))
		}
	}
	return true
}
