package endgame

import (
	"scrabble/internal/splitmix"
	"scrabble/move"
	"scrabble/rules"
)

// maxScoreless bounds Options.ScorelessTurns, so the scoreless-turn count
// has a key of its own for every value it can take.
const maxScoreless = 15

// Zobrist keys: one random word per (square, tile), per (player, rack slot,
// count), per scoreless-turn count, and one for the side to move. A
// position's key is the XOR of the words of what it holds, so a move
// updates it with a few XORs.
var (
	zBoard     [rules.Squares][64]uint64 // tile index: see tileIndex
	zRack      [2][rules.RackSlots][rules.RackSize + 1]uint64
	zScoreless [maxScoreless + 1]uint64
	zSide      uint64
	// zRule[n] is in every key of a search under the n-turn rule, and
	// zPlayouts in those valuing leaves by playouts: tables outlive a
	// solve, and their entries hold only under the same rules.
	zRule     [maxScoreless + 1]uint64
	zPlayouts uint64
	// zDrawn[k] marks k tiles drawn from a known bag (Options.Bag); none
	// drawn is 0, so a search without a bag keys as before.
	zDrawn [MaxBag + 1]uint64
	// zBag[i][t] is in the key of a search whose known bag holds tile t
	// at i: the tiles still to be drawn are part of a position.
	zBag [MaxBag][64]uint64
)

func init() {
	// A fixed seed: keys, and so node counts, are the same from run to run.
	s := uint64(0x5eed_e4d9_a3e5_0001)
	next := func() uint64 {
		s += 0x9E37_79B9_7F4A_7C15
		return splitmix.Mix(s)
	}
	for sq := range zBoard {
		for t := range zBoard[sq] {
			zBoard[sq][t] = next()
		}
	}
	for p := range zRack {
		for slot := range zRack[p] {
			for c := range zRack[p][slot] {
				zRack[p][slot][c] = next()
			}
		}
	}
	for i := range zScoreless {
		zScoreless[i] = next()
	}
	zSide = next()
	for i := range zRule {
		zRule[i] = next()
	}
	zPlayouts = next()
	for i := 1; i < len(zDrawn); i++ {
		zDrawn[i] = next()
	}
	for i := range zBag {
		for t := range zBag[i] {
			zBag[i][t] = next()
		}
	}
}

// tileIndex maps a board tile (1..26, blanks with BlankBit) to 0..63.
func tileIndex(l rules.Letter) int {
	i := int(l.Unblanked())
	if l.IsBlanked() {
		i += 32
	}
	return i
}

// bagKey is the key of a known bag's tiles, in their order.
func bagKey(bag []rules.Letter) uint64 {
	var k uint64
	for i, t := range bag {
		k ^= zBag[i][tileIndex(t)]
	}
	return k
}

// boardKey is the key of the tiles on a board.
func boardKey(b *rules.Board) uint64 {
	var k uint64
	for sq, l := range b.Squares {
		if l != rules.Empty {
			k ^= zBoard[sq][tileIndex(l)]
		}
	}
	return k
}

// rackKey is the key of player p's rack.
func rackKey(p int, r *rules.Rack) uint64 {
	var k uint64
	for slot, c := range r {
		k ^= zRack[p][slot][c]
	}
	return k
}

// playDelta is what a play's new tiles change in the board key. It also
// names the play in the transposition table (see moveID): two different
// plays put different tiles on different squares.
func playDelta(m *move.Move) uint64 {
	var k uint64
	dr, dc := m.Dir.Step()
	r, c := int(m.Row), int(m.Col)
	for i := 0; i < int(m.Len); i++ {
		if t := m.Tiles[i]; t != rules.PlayedThrough {
			k ^= zBoard[(r+i*dr)*rules.Size+c+i*dc][tileIndex(t)]
		}
	}
	return k
}

// passID is the table's name for a pass; a play's name has its top bit set,
// so the two never meet, and 0 means no move.
const passID = 1

// moveID names a move in 24 bits for the transposition table. Two moves of
// a position may share a name (one chance in millions): the wrong one is
// then only tried first.
func moveID(m *move.Move) uint32 {
	if m.Kind != move.Play {
		return passID
	}
	return uint32(playDelta(m)>>40) | 1<<23
}
