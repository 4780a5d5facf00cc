package protocol

import (
	"fmt"
	"strings"

	"scrabble/move"
	"scrabble/rules"
)

// FormatMove writes m as the protocol sends it, one word without spaces:
//
//	8D.QUIXOTE   a play across (row first), tiles already on the board as
//	             their letters, a blank in lower case
//	D8.QUIXOTE   a play down (column first)
//	ex.ABC?      an exchange ('?' a blank)
//	pass         a pass
//
// b is the board before the move; played-through squares are read from it.
func FormatMove(m *move.Move, b *rules.Board) string {
	switch m.Kind {
	case move.Pass:
		return "pass"
	case move.Exchange:
		return "ex." + strings.TrimPrefix(m.NotationOn(nil), "-")
	}
	n := m.NotationOn(b)
	n = strings.NewReplacer("(", "", ")", "").Replace(n)
	return strings.Replace(n, " ", ".", 1)
}

// ParseMove reads a move written by FormatMove on board b (also accepted:
// a play's position and word separated by a space, "(Q)" or '.' for a tile
// on the board, "-ABC" for an exchange and "-" for a pass, as
// move.Parse reads them). A play's score is set; its legality (tiles on the
// rack, words) is the caller's to check.
func ParseMove(s string, b *rules.Board) (move.Move, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "pass":
		return move.Move{Kind: move.Pass}, nil
	case strings.HasPrefix(s, "ex."):
		if s == "ex." {
			return move.Move{}, fmt.Errorf("move %q: an exchange names its tiles, e.g. ex.ABC", s)
		}
		return move.Parse("-"+s[3:], b)
	}
	if pos, word, ok := strings.Cut(s, "."); ok && !strings.Contains(pos, " ") && pos != "" && word != "" && isCoordinate(pos) {
		s = pos + " " + word
	}
	return move.Parse(s, b)
}

// isCoordinate says whether p looks like "8D" or "D8": a letter and digits.
func isCoordinate(p string) bool {
	if len(p) < 2 || len(p) > 3 {
		return false
	}
	letters, digits := 0, 0
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
			letters++
		case c >= '0' && c <= '9':
			digits++
		}
	}
	return letters == 1 && digits == len(p)-1
}
