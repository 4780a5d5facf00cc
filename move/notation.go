package move

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"scrabble/rules"
)

// Move notation as players write it:
//
//	8D QUIXOTE    across: row number, then column letter
//	D8 QUIXOTE    down: column letter, then row number
//	H4 (Q)UIZ     letters already on the board in parentheses
//	8D QUIxOTE    a blank in lower case
//	-ABC?         exchange of A, B, C and a blank
//	-             pass
//
// Squares in error messages are named row first ("8H"), by rules.SquareName.

// Notation renders the move without a board: a play's played-through
// squares come out as '.' (e.g. "H4 .UIZ"); NotationOn fills them in. An
// exchange is "-" followed by the tiles in order ('?' for a blank), a pass
// "-".
func (m *Move) Notation() string { return m.NotationOn(nil) }

// String returns Notation.
func (m *Move) String() string { return m.Notation() }

// NotationOn renders the move with the letters of b on its played-through
// squares, consecutive ones grouped in parentheses: "H4 (Q)UIZ",
// "8A (QU)I(Z)ZES". Board blanks are lower case. With a nil board (or an
// empty square where the move plays through) it writes '.' instead.
func (m *Move) NotationOn(b *rules.Board) string {
	switch m.Kind {
	case Pass:
		return "-"
	case Exchange:
		var sb strings.Builder
		sb.WriteByte('-')
		for _, t := range m.tiles() {
			if t == rules.Blank || t.IsBlanked() {
				sb.WriteByte('?')
			} else {
				sb.WriteRune(t.Rune())
			}
		}
		return sb.String()
	}
	var sb strings.Builder
	sb.WriteString(rules.Coordinate(int(m.Row), int(m.Col), m.Dir))
	sb.WriteByte(' ')
	dr, dc := m.Dir.Step()
	open := false
	for i, t := range m.tiles() {
		r, c := int(m.Row)+i*dr, int(m.Col)+i*dc
		var bl rules.Letter
		if t == rules.PlayedThrough && b != nil && rules.InBounds(r, c) {
			bl = b.At(r, c)
		}
		through := t == rules.PlayedThrough && bl != rules.Empty
		if through != open {
			if through {
				sb.WriteByte('(')
			} else {
				sb.WriteByte(')')
			}
			open = through
		}
		switch {
		case through:
			sb.WriteRune(bl.Rune())
		case t == rules.PlayedThrough:
			sb.WriteByte('.')
		default:
			sb.WriteRune(t.Rune())
		}
	}
	if open {
		sb.WriteByte(')')
	}
	return sb.String()
}

// tiles returns Tiles[:Len], clamped to the array.
func (m *Move) tiles() []rules.Letter {
	n := max(0, min(int(m.Len), len(m.Tiles)))
	return m.Tiles[:n]
}

// boardTileName describes a board tile for a message: "Q", or "a blank a".
func boardTileName(l rules.Letter) string {
	if l.IsBlanked() {
		return "a blank " + l.String()
	}
	return l.String()
}

// MainWord returns the whole main word of a play with the board's letters
// filled in (blanks lower case), or "" for an exchange or a pass. A
// played-through square that is empty or off the board (or any, with a nil
// board) comes out as '.'.
func (m *Move) MainWord(b *rules.Board) string {
	if m.Kind != Play {
		return ""
	}
	dr, dc := m.Dir.Step()
	out := make([]rune, 0, m.Len)
	for i, t := range m.tiles() {
		r, c := int(m.Row)+i*dr, int(m.Col)+i*dc
		switch {
		case t != rules.PlayedThrough:
			out = append(out, t.Rune())
		case b != nil && rules.InBounds(r, c) && b.At(r, c) != rules.Empty:
			out = append(out, b.At(r, c).Rune())
		default:
			out = append(out, '.')
		}
	}
	return string(out)
}

// Words lists every word a play forms (blanks lower case): the main word
// when at least two letters long, then the cross-words in the order of the
// new tiles, as rules.WordsFormed does. It returns nil for an exchange, a
// pass, or a play that fails rules.CheckPlacement. A nil board is empty.
func (m *Move) Words(b *rules.Board) []string {
	if m.Kind != Play {
		return nil
	}
	if b == nil {
		b = &rules.Board{}
	}
	p := m.Placed()
	if b.CheckPlacement(p) != nil {
		return nil
	}
	formed := b.WordsFormed(p)
	words := make([]string, len(formed))
	for i, w := range formed {
		words[i] = rules.WordString(w.Letters)
	}
	return words
}

// Parse reads a move in player notation (see Notation) against board b
// (nil means an empty board):
//
//   - a play: a position, "8D" across or "D8" down (either case), then
//     the whole main word. A square already holding a tile may be written
//     as its letter in parentheses "(Q)", as '.', or as its plain letter;
//     the letter must match the board's (blanks match either case). A lower
//     case letter on an empty square is a blank.
//   - an exchange: "-ABC?", "exchange ABC?" or "exch ABC?" ('?' a blank,
//     letters in either case).
//   - a pass: "-" or "pass".
//
// A play's Score is set when the placement passes rules.CheckPlacement;
// Parse does not otherwise check legality (see referee.ValidateMove).
func Parse(s string, b *rules.Board) (Move, error) {
	m, err := parseMove(strings.TrimSpace(s), b)
	if err != nil {
		return Move{}, fmt.Errorf("move %q: %w", s, err)
	}
	return m, nil
}

func parseMove(s string, b *rules.Board) (Move, error) {
	if s == "" {
		return Move{}, errors.New("empty move")
	}
	fields := strings.Fields(s)
	switch head := strings.ToLower(fields[0]); {
	case s == "-" || head == "pass":
		if len(fields) > 1 {
			return Move{}, fmt.Errorf("unexpected %q after pass", strings.Join(fields[1:], " "))
		}
		return Move{Kind: Pass}, nil
	case strings.HasPrefix(s, "-"):
		return parseExchange(strings.TrimSpace(s[1:]))
	case head == "exchange" || head == "exch":
		return parseExchange(strings.TrimSpace(s[len(head):]))
	}
	if len(fields) != 2 {
		return Move{}, errors.New("want a position and a word, e.g. \"8D QUIXOTE\" (across) or \"D8 QUIXOTE\" (down), \"-ABC\" to exchange or \"-\" to pass")
	}
	row, col, dir, err := parsePosition(fields[0])
	if err != nil {
		return Move{}, err
	}
	if b == nil {
		b = &rules.Board{}
	}
	return parsePlay(row, col, dir, fields[1], b)
}

// parseExchange reads the exchanged tiles.
func parseExchange(s string) (Move, error) {
	m := Move{Kind: Exchange}
	s = strings.Join(strings.Fields(s), "")
	if s == "" {
		return Move{}, errors.New("exchange names no tiles")
	}
	var tiles []rules.Letter
	for i, ch := range []rune(s) {
		var t rules.Letter
		switch {
		case ch == '?':
			t = rules.Blank
		case ch >= 'A' && ch <= 'Z':
			t = rules.Letter(ch-'A') + 1
		case ch >= 'a' && ch <= 'z':
			t = rules.Letter(ch-'a') + 1
		default:
			return Move{}, fmt.Errorf("exchange %q: character %q at position %d is not a tile (A-Z, or ? for a blank)", s, ch, i+1)
		}
		tiles = append(tiles, t)
	}
	if len(tiles) > rules.RackSize {
		return Move{}, fmt.Errorf("cannot exchange %d tiles: a rack holds only %d", len(tiles), rules.RackSize)
	}
	copy(m.Tiles[:], tiles)
	m.Len, m.NumTiles = int8(len(tiles)), int8(len(tiles))
	return m, nil
}

// parsePosition reads "8D" (across) or "D8" (down), case-insensitive.
func parsePosition(p string) (row, col int, dir rules.Direction, err error) {
	bad := func() (int, int, rules.Direction, error) {
		return 0, 0, 0, fmt.Errorf("bad position %q: want row then column for across (\"8D\") or column then row for down (\"D8\")", p)
	}
	u := strings.ToUpper(p)
	isLetter := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	digits := func(s string) bool {
		if s == "" || len(s) > 3 {
			return false
		}
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	var colCh byte
	var num string
	switch {
	case len(u) >= 2 && isLetter(u[0]) && digits(u[1:]):
		colCh, num, dir = u[0], u[1:], rules.Down
	case len(u) >= 2 && isLetter(u[len(u)-1]) && digits(u[:len(u)-1]):
		colCh, num, dir = u[len(u)-1], u[:len(u)-1], rules.Across
	default:
		return bad()
	}
	n, _ := strconv.Atoi(num)
	if n < 1 || n > rules.Size {
		return 0, 0, 0, fmt.Errorf("position %q is off the board: rows are 1-%d", p, rules.Size)
	}
	if c := int(colCh - 'A'); c >= rules.Size {
		return 0, 0, 0, fmt.Errorf("position %q is off the board: columns are A-%c", p, 'A'+rules.Size-1)
	}
	return n - 1, int(colCh - 'A'), dir, nil
}

// wordSquare is one square of a written word.
type wordSquare struct {
	l    rules.Letter // the letter written (0 for '.')
	mark byte         // '(' inside parentheses, '.' for a dot, 0 plain
}

// parsePlay reads the word of a play starting at (row, col).
func parsePlay(row, col int, dir rules.Direction, word string, b *rules.Board) (Move, error) {
	var sqs []wordSquare
	open := -1 // index in word of the unclosed '(', or -1
	groupLen := 0
	for i, ch := range []rune(word) {
		switch {
		case ch == '(':
			if open >= 0 {
				return Move{}, fmt.Errorf("word %q: nested '(' at character %d", word, i+1)
			}
			open, groupLen = i, 0
		case ch == ')':
			if open < 0 {
				return Move{}, fmt.Errorf("word %q: ')' at character %d has no matching '('", word, i+1)
			}
			if groupLen == 0 {
				return Move{}, fmt.Errorf("word %q: empty parentheses at character %d", word, open+1)
			}
			open = -1
		case ch == '.':
			sqs = append(sqs, wordSquare{mark: '.'})
			groupLen++
		default:
			l, ok := rules.LetterFromRune(ch)
			if !ok || l == rules.Blank {
				return Move{}, fmt.Errorf("word %q: character %q at position %d is not a letter, '.', '(' or ')'", word, ch, i+1)
			}
			var mark byte
			if open >= 0 {
				mark = '('
			}
			sqs = append(sqs, wordSquare{l: l, mark: mark})
			groupLen++
		}
	}
	if open >= 0 {
		return Move{}, fmt.Errorf("word %q: '(' at character %d is never closed", word, open+1)
	}
	if len(sqs) == 0 {
		return Move{}, fmt.Errorf("word %q has no letters", word)
	}
	dr, dc := dir.Step()
	room := rules.Size - col
	if dir == rules.Down {
		room = rules.Size - row
	}
	if len(sqs) > room {
		return Move{}, fmt.Errorf("word %q runs past the edge of the board: %d squares from %s %s, but only %d fit",
			word, len(sqs), rules.Coordinate(row, col, dir), dir, room)
	}

	m := Move{Kind: Play, Row: int8(row), Col: int8(col), Dir: dir, Len: int8(len(sqs))}
	for i, sq := range sqs {
		r, c := row+i*dr, col+i*dc
		bl := b.At(r, c)
		switch {
		case sq.mark == '.' && bl == rules.Empty:
			return Move{}, fmt.Errorf("square %s is empty, but '.' marks it as holding a tile", rules.SquareName(r, c))
		case sq.mark == '(' && bl == rules.Empty:
			return Move{}, fmt.Errorf("square %s is empty, but (%s) marks it as holding a tile", rules.SquareName(r, c), sq.l)
		case sq.mark != '.' && bl != rules.Empty && bl.Unblanked() != sq.l.Unblanked():
			return Move{}, fmt.Errorf("square %s holds %s, not %s", rules.SquareName(r, c), boardTileName(bl), sq.l)
		case bl != rules.Empty:
			m.Tiles[i] = rules.PlayedThrough
		default:
			m.Tiles[i] = sq.l
			m.NumTiles++
		}
	}
	if p := m.Placed(); b.CheckPlacement(p) == nil {
		m.Score = int32(b.ScorePlay(p))
	}
	return m, nil
}
