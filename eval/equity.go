package eval

import (
	"scrabble/movegen"
	"scrabble/rules"
)

// Equity chooses how a static player values the tiles it keeps, given what
// it knows of the game: the leave table while tiles remain to be drawn;
// with the bag empty, no leave term but the end-of-game arithmetic instead.
func Equity(leaves movegen.LeaveValuer, bagLen int, opponentRack rules.Rack) movegen.LeaveValuer {
	if bagLen > 0 {
		if leaves == nil {
			return zeroLeaves{}
		}
		return leaves
	}
	return endgame{opponent: rules.FromPoints(int32(opponentRack.Value()))}
}

type zeroLeaves struct{}

func (zeroLeaves) LeaveValue(*rules.Rack) rules.Equity { return 0 }

// Keys of the valuers other than LeaveTables: top bits 01 for zeroLeaves,
// 10 for endgame, 11 for balanced (terms.go).
const (
	zeroKey    = 1 << 62
	endgameKey = 2 << 62
	termsKey   = 3 << 62
)

func (zeroLeaves) LeaveKey() uint64 { return zeroKey }

// endgame values a leave when the bag is empty. Going out ends the game and
// earns twice the opponent's rack; tiles kept are stuck for at least a turn,
// and cost their value twice over if the opponent goes out next (once off
// this player's score, once onto the opponent's).
type endgame struct{ opponent rules.Equity }

func (e endgame) LeaveKey() uint64 { return endgameKey | uint64(uint32(e.opponent)) }

func (e endgame) LeaveValue(leave *rules.Rack) rules.Equity {
	if leave.Count() == 0 {
		return 2 * e.opponent
	}
	return -2 * rules.FromPoints(int32(leave.Value()))
}
