package endgame

import (
	"scrabble/eval"
	"scrabble/move"
	"scrabble/position"
	"scrabble/rules"
)

// LineStep is a step of a principal variation replayed from its position.
type LineStep struct {
	Step
	// Board and Rack are as they were before the move: the board and the
	// mover's rack. Move (in Step) carries its static equity: the score
	// plus the end-of-game valuation of the tiles kept against the other
	// rack (StaticEquity).
	Board rules.Board
	Rack  rules.Rack
	// Scores are both players' after the move, the root mover's first,
	// from the position's; the end-of-game adjustment of the move that
	// ends the game included, on the side it falls on.
	Scores [2]int
}

// Line replays the principal variation of r, a solve of pos, move by move.
// The opponent's rack is pos's, or the unseen tiles when pos leaves it empty.
func (r *Result) Line(pos *position.Position) []LineStep {
	opp := pos.Racks[1]
	if opp.Count() == 0 {
		opp, _ = rules.Unseen(&pos.Board, pos.Racks[0])
	}
	board, racks := pos.Board, [2]rules.Rack{pos.Racks[0], opp}
	scores := [2]int{pos.Scores[0], pos.Scores[1]}
	out := make([]LineStep, 0, len(r.PV))
	for _, st := range r.PV {
		p := st.Player & 1
		ls := LineStep{Step: st, Board: board, Rack: racks[p]}
		ls.Move = StaticEquity(st.Move, racks[p], racks[1-p])
		scores[p] += st.Score
		if st.Move.Kind == move.Play {
			racks[p].Sub(st.Move.Used())
			board.Apply(st.Move.Placed())
		}
		switch st.End {
		case "out": // twice the tiles left on the other rack
			scores[p] += rules.OutBonus(racks[1-p])
		case "scoreless": // each side loses its own tiles
			scores[0] -= racks[0].Value()
			scores[1] -= racks[1].Value()
		}
		ls.Scores = scores
		out = append(out, ls)
	}
	return out
}

// StaticEquity returns m with the static equity of a bag-empty position:
// the score, plus twice the opponent's tiles for going out, less twice the
// tiles kept (eval.Equity with the bag empty), as moves --json shows it.
func StaticEquity(m move.Move, rack, opp rules.Rack) move.Move {
	leave := m.Leave(rack)
	m.Equity = rules.FromPoints(m.Score) + eval.Equity(nil, 0, opp).LeaveValue(&leave)
	return m
}
