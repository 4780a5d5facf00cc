package referee

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"scrabble/gaddag"
	"scrabble/move"
	"scrabble/rules"
)

// ValidateMove reports why a move is illegal for a player holding rack
// with bagLen tiles in the bag, or nil when it is legal:
//
//   - a play must pass rules.CheckPlacement (on the board, the whole main
//     word, connected, the first play covering the centre), its NumTiles
//     must match the tiles it places, its tiles must be on the rack (a
//     lower-case blank needs a '?'), and every word it forms must be in lex
//     (all phonies are listed, the main word first); a nil lex skips the
//     word check;
//   - an exchange needs 1 to 7 tiles, all on the rack, and at least
//     rules.ExchangeMinBag tiles in the bag;
//   - a pass is always legal.
//
// A nil board is empty.
func ValidateMove(m *move.Move, b *rules.Board, rack rules.Rack, bagLen int, lex *gaddag.GADDAG) error {
	_, err := CheckMove(m, b, rack, bagLen, lex)
	return err
}

// CheckMove is ValidateMove that also returns the move's score as
// rules.Board.ScorePlay counts it (0 for an exchange or a pass), from the
// same walk over the words formed. A play whose only fault is its words
// gets a *PhonyError.
func CheckMove(m *move.Move, b *rules.Board, rack rules.Rack, bagLen int, lex *gaddag.GADDAG) (int, error) {
	switch m.Kind {
	case move.Pass:
		return 0, nil
	case move.Exchange:
		return 0, validateExchange(m, rack, bagLen)
	case move.Play:
	default:
		return 0, fmt.Errorf("unknown move kind %d", m.Kind)
	}
	if b == nil {
		b = &rules.Board{}
	}
	if m.Len < 1 || int(m.Len) > rules.Size {
		return 0, fmt.Errorf("the play covers %d squares; a play covers 1 to %d", m.Len, rules.Size)
	}
	p := m.PlacedView()
	if err := b.CheckPlacement(p); err != nil {
		return 0, err
	}
	if n := p.NewTiles(); n != int(m.NumTiles) {
		return 0, fmt.Errorf("the move says it places %d tiles but places %d", m.NumTiles, n)
	}
	if err := checkOnRack(tiles(m), true, rack); err != nil {
		return 0, err
	}
	score := 0
	if m.NumTiles == rules.RackSize {
		score = rules.BingoBonus
	}
	var phonies []string
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	words, _ := b.AppendWordsFormed(sc.words[:0], sc.letters[:0], p)
	for _, w := range words {
		score += w.Score
		if lex == nil || lex.ContainsLetters(w.Letters) {
			continue
		}
		s := rules.WordString(w.Letters)
		dup := false
		for _, q := range phonies {
			dup = dup || q == s
		}
		if !dup {
			phonies = append(phonies, s)
		}
	}
	if len(phonies) == 0 {
		return score, nil
	}
	return 0, &PhonyError{Words: phonies, Score: score}
}

// scratch is CheckMove's room for the words formed. On CheckMove's stack
// the letters escaped (the words hold slices of them): one allocation a
// move, most of a self-play game's.
type scratch struct {
	words   [rules.RackSize + 1]rules.FormedWord
	letters [4 * rules.Size]rules.Letter
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// PhonyError is CheckMove's error for a play that is legal in every way but
// its words: one or more are not in the lexicon. A challenge takes such a
// play back.
type PhonyError struct {
	Words []string // the phonies, each once, in the order formed
	Score int      // what the play would score if its words were good
}

func (e *PhonyError) Error() string {
	if len(e.Words) == 1 {
		return "phony word " + e.Words[0]
	}
	return "phony words " + strings.Join(e.Words, ", ")
}

func validateExchange(m *move.Move, rack rules.Rack, bagLen int) error {
	switch {
	case m.Len < 1:
		return errors.New("cannot exchange: no tiles named")
	case m.Len > rules.RackSize:
		return fmt.Errorf("cannot exchange %d tiles: a rack holds only %d", m.Len, rules.RackSize)
	case m.NumTiles != m.Len:
		return fmt.Errorf("the exchange lists %d tiles but says it exchanges %d", m.Len, m.NumTiles)
	case !rules.CanExchange(bagLen):
		return fmt.Errorf("cannot exchange: only %s in the bag, %d needed", plural(bagLen, "tile"), rules.ExchangeMinBag)
	}
	for _, t := range tiles(m) {
		if t != rules.Blank && !t.IsLetter() {
			return fmt.Errorf("cannot exchange: %#x is not a tile", uint8(t))
		}
	}
	if err := checkOnRack(tiles(m), false, rack); err != nil {
		return fmt.Errorf("cannot exchange: %w", err)
	}
	return nil
}

// checkOnRack reports the tiles that are not on rack. In a play
// (play=true) PlayedThrough squares are skipped; otherwise 0 is a blank.
func checkOnRack(tiles []rules.Letter, play bool, rack rules.Rack) error {
	left := rack
	var missing []string
	for _, t := range tiles {
		if play && t == rules.PlayedThrough {
			continue
		}
		if left.Remove(t) {
			continue
		}
		switch {
		case t.IsBlanked():
			missing = append(missing, "? (for "+t.String()+")")
		case t == rules.Blank:
			missing = append(missing, "?")
		default:
			missing = append(missing, t.String())
		}
	}
	if len(missing) == 0 {
		return nil
	}
	r := rack.String()
	if r == "" {
		r = "(empty)"
	}
	if len(missing) == 1 {
		return fmt.Errorf("tile %s not on rack %s", missing[0], r)
	}
	return fmt.Errorf("tiles %s not on rack %s", strings.Join(missing, ", "), r)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// tiles returns m.Tiles[:m.Len], clamped to the array.
func tiles(m *move.Move) []rules.Letter {
	n := max(0, min(int(m.Len), len(m.Tiles)))
	return m.Tiles[:n]
}
