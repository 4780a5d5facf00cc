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
	return endgame{opponent: int32(opponentRack.Value())}
}

type zeroLeaves struct{}

func (zeroLeaves) LeaveValue(*rules.Rack) int32 { return 0 }

// endgame values a leave when the bag is empty. Going out ends the game and
// earns twice the opponent's rack; tiles kept are stuck for at least a turn,
// and cost their value twice over if the opponent goes out next (once off
// this player's score, once onto the opponent's).
type endgame struct{ opponent int32 }

func (e endgame) LeaveValue(leave *rules.Rack) int32 {
	if leave.Count() == 0 {
		return 2 * e.opponent * 1000
	}
	return -2 * int32(leave.Value()) * 1000
}
