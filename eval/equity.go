package eval

import (
	"scrabble/movegen"
	"scrabble/rules"
)

// Equity chooses how a static player values the tiles it keeps, given what
// it knows of the game: the leave table while tiles remain to be drawn;
// with the bag empty, no leave term but the end-of-game arithmetic instead.
func Equity(leaves movegen.LeaveValuer, bagLen int, opponentRack rules.Rack) movegen.LeaveValuer {
	return EquityAmong(leaves, bagLen, opponentRack, 2)
}

// EquityAmong is Equity in a game of players players, 2 to
// rules.MaxPlayers; others are the other players' tiles together (with
// the bag empty, every unseen tile). The end-of-game term then weighs a
// move against the other players on average: going out gains the others'
// tiles and costs each of them their own, N/(N-1) times their sum against
// the average opponent (twice for two players); tiles kept cost their
// value as many times over when another player goes out.
func EquityAmong(leaves movegen.LeaveValuer, bagLen int, others rules.Rack, players int) movegen.LeaveValuer {
	if bagLen > 0 {
		if leaves == nil {
			return zeroLeaves{}
		}
		return leaves
	}
	return endgame{opponent: rules.FromPoints(int32(others.Value())), players: int32(max(2, players))}
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
// this player's score, once onto the opponent's). With more players, the
// factor is players/(players-1) (see EquityAmong).
type endgame struct {
	opponent rules.Equity // the other racks' value
	players  int32
}

func (e endgame) LeaveKey() uint64 {
	return endgameKey | uint64(e.players)<<32 | uint64(uint32(e.opponent))
}

func (e endgame) LeaveValue(leave *rules.Rack) rules.Equity {
	v := -rules.FromPoints(int32(leave.Value()))
	if leave.Count() == 0 {
		v = e.opponent
	}
	return v * rules.Equity(e.players) / rules.Equity(e.players-1)
}
