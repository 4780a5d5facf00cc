package infer

import (
	"errors"
	"fmt"

	"scrabble/move"
	"scrabble/position"
	"scrabble/rules"
)

// FromPosition is the situation of the player to move in pos, whose last
// move (the lm opcode) led to it, with rack as the player's rack: the board
// before the move is pos's less the move's new tiles. A play challenged off
// tells that its tiles are back on the opponent's rack (Known) and no more.
// Inference reads two-player positions: with more players the last
// move is not the next opponent's.
func FromPosition(pos *position.Position, rack rules.Rack) (*Situation, error) {
	if n := pos.Players(); n != 2 {
		return nil, fmt.Errorf("infer: a %d-player position: inference handles two players", n)
	}
	lm, err := pos.LastMove()
	if err != nil {
		return nil, err
	}
	if lm == nil {
		return nil, errors.New("the position has no last move (no lm opcode)")
	}
	s := &Situation{Board: pos.Board, Rack: rack}
	switch lm.Kind {
	case position.LastPass:
		s.Last = move.Move{Kind: move.Pass}
	case position.LastExchange:
		s.Last = move.Move{Kind: move.Exchange, NumTiles: int8(lm.Count)}
		if lm.Exchanged.Count() > 0 {
			for _, l := range lm.Exchanged.Tiles() {
				s.Last.Tiles[s.Last.Len] = l
				s.Last.Len++
			}
		}
	case position.LastPlay:
		p := lm.Play
		if len(p.Tiles) > rules.Size {
			return nil, fmt.Errorf("last move %s: longer than the board", lm)
		}
		m := move.Move{Kind: move.Play, Row: int8(p.Row), Col: int8(p.Col), Dir: p.Dir, Len: int8(len(p.Tiles))}
		copy(m.Tiles[:], p.Tiles)
		for _, t := range p.Tiles {
			if t != rules.PlayedThrough {
				m.NumTiles++
			}
		}
		if lm.ChallengedOff {
			// The tiles went back to the rack: known, and the turn was
			// lost as a pass is.
			s.Known = m.Used()
			s.Last = move.Move{Kind: move.Pass}
			break
		}
		for _, sq := range lm.NewSquares() {
			s.Board.Set(sq/rules.Size, sq%rules.Size, rules.Empty)
		}
		s.Last = m
	default:
		return nil, fmt.Errorf("last move %s: unknown kind", lm)
	}
	return s, nil
}

// After is the situation of the player holding rack who sees board after
// the opponent's move last: the board before it is board less last's new
// tiles. An exchange's tiles the player did not see must have Len 0.
func After(board *rules.Board, rack rules.Rack, last move.Move) Situation {
	s := Situation{Board: *board, Rack: rack, Last: last}
	if last.Kind == move.Play {
		dr, dc := last.Dir.Step()
		for i := range int(last.Len) {
			if last.Tiles[i] != rules.PlayedThrough {
				s.Board.Set(int(last.Row)+i*dr, int(last.Col)+i*dc, rules.Empty)
			}
		}
	}
	return s
}
