package move

import (
	"scrabble/rules"
)

// Kind says what a move does.
type Kind uint8

const (
	Play Kind = iota
	Exchange
	Pass
)

func (k Kind) String() string {
	switch k {
	case Exchange:
		return "exchange"
	case Pass:
		return "pass"
	}
	return "play"
}

// Move is a play, an exchange or a pass. The generator hands recorders a
// pointer to its work buffer: a recorder that keeps a move copies it (a Move
// is a plain value with no pointers, so assignment copies it).
type Move struct {
	Kind Kind
	// Row and Col (0-based) locate the first square of the main word.
	Row, Col int8
	Dir      rules.Direction
	// Len is the number of squares in the main word.
	Len int8
	// Tiles[:Len] holds, for a play, the new tile on each square of the main
	// word (blanks with BlankBit) or rules.PlayedThrough for a board tile. For
	// an exchange Tiles[:Len] holds the exchanged tiles (rules.Blank for a
	// blank).
	Tiles [rules.Size]rules.Letter
	// NumTiles is the number of tiles placed or exchanged.
	NumTiles int8
	// Score is the exact score, bingo bonus included.
	Score int32
	// Equity is Score plus the value of the tiles kept, in millipoints
	// (thousandths of a point): integers keep comparisons exact and
	// reproducible. Without leave values it is rules.FromPoints(Score).
	Equity rules.Equity
}

// Placed returns the play as a rules.Play (allocates; for callers outside
// hot loops).
func (m *Move) Placed() rules.Play {
	return rules.Play{Row: int(m.Row), Col: int(m.Col), Dir: m.Dir, Tiles: append([]rules.Letter(nil), m.Tiles[:m.Len]...)}
}

// PlacedView is Placed without the copy: the play's tiles are m's, so it is
// valid only while m is unchanged (a game's referee and board use it once
// a turn).
func (m *Move) PlacedView() rules.Play {
	return rules.Play{Row: int(m.Row), Col: int(m.Col), Dir: m.Dir, Tiles: m.Tiles[:m.Len]}
}

// Used returns the rack tiles the move takes off the rack (placed or
// exchanged), blanks as rules.Blank.
func (m *Move) Used() rules.Rack {
	var r rules.Rack
	for _, t := range m.Tiles[:m.Len] {
		if m.Kind == Play && t == rules.PlayedThrough {
			continue
		}
		r[t.RackIndex()]++
	}
	return r
}
