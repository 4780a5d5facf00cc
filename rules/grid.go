package rules

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ParseGrid reads a board written as 15 lines of 15 squares: '.' for an
// empty square, A-Z for a tile, a-z for a blank standing for that letter.
// Squares may be separated by spaces or tabs. Blank lines, lines whose first
// non-blank character is '#', trailing spaces and CRLF line ends are ignored.
// The position has empty racks and zero scores. ParseGrid does not validate
// the board (ParsePosition does); errors are *PositionError with the line and
// byte column of the problem.
func ParseGrid(file string, data []byte) (*Position, error) {
	p, _, err := parseGrid(file, data)
	if err != nil {
		return nil, err
	}
	return p, nil
}

func parseGrid(file string, data []byte) (*Position, *posLoc, error) {
	data = bytes.TrimPrefix(data, posBOM)
	p := &Position{}
	loc := &posLoc{}
	fail := func(line, col int, format string, args ...any) (*Position, *posLoc, error) {
		return nil, nil, &PositionError{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	rows, lastRowLine := 0, 0
	for i, raw := range strings.Split(string(data), "\n") {
		lineNo := i + 1
		if posSkipLine(raw) {
			continue
		}
		line := strings.TrimRight(raw, " \t\r")
		if rows == Size {
			return fail(lineNo, len(line)-len(strings.TrimLeft(line, " \t"))+1,
				"more than %d rows: a grid has %d lines of %d squares", Size, Size, Size)
		}
		n := 0
		for j := 0; j < len(line); {
			r, w := utf8.DecodeRuneInString(line[j:])
			col := j + 1
			j += w
			if r == ' ' || r == '\t' {
				continue
			}
			var l Letter
			switch {
			case r == '.':
				l = Empty
			case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
				l, _ = LetterFromRune(r)
			default:
				return fail(lineNo, col, "row %d: unknown character %s (want '.' for an empty square, A-Z for a tile, a-z for a blank)",
					rows+1, posQuoteRune(r, w, line[col-1]))
			}
			if n == Size {
				return fail(lineNo, col, "row %d has more than %d squares", rows+1, Size)
			}
			sq := rows*Size + n
			p.Board.Squares[sq] = l
			loc.sqLine[sq], loc.sqCol[sq] = lineNo, col
			n++
		}
		if n < Size {
			return fail(lineNo, len(line)+1, "row %d has %d squares, want %d", rows+1, n, Size)
		}
		rows++
		lastRowLine = lineNo
	}
	if rows == 0 {
		return fail(1, 1, "no rows: a grid has %d lines of %d squares", Size, Size)
	}
	if rows < Size {
		return fail(lastRowLine+1, 1, "only %d rows, want %d", rows, Size)
	}
	return p, loc, nil
}

// posQuoteRune quotes a character for an error message; an invalid UTF-8
// byte is shown as such.
func posQuoteRune(r rune, width int, first byte) string {
	if r == utf8.RuneError && width == 1 {
		return fmt.Sprintf("byte 0x%02x", first)
	}
	return fmt.Sprintf("%q", r)
}

// GridString writes the board as 15 lines of 15 squares ('.' for empty,
// upper case tiles, lower case blanks), each ending in a newline, as
// ParseGrid reads it.
func (b *Board) GridString() string {
	var sb strings.Builder
	sb.Grow(Size * (Size + 1))
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			if l := b.At(r, c); l == Empty {
				sb.WriteByte('.')
			} else {
				sb.WriteRune(l.Rune())
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
