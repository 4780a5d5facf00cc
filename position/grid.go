package position

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"scrabble/rules"
)

// ParseGrid reads a board written as 15 lines of 15 squares: '.' for an
// empty square, A-Z for a tile, a-z for a blank standing for that letter.
// Squares may be separated by spaces or tabs. Blank lines, lines whose first
// non-blank character is '#', trailing spaces and CRLF line ends are ignored.
// The position has empty racks and zero scores. ParseGrid does not validate
// the board (Parse does); errors are *Error with the line and
// byte column of the problem.
func ParseGrid(file string, data []byte) (*Position, error) {
	p, _, err := parseGrid(file, data)
	if err != nil {
		return nil, err
	}
	return p, nil
}

func parseGrid(file string, data []byte) (*Position, *location, error) {
	data = bytes.TrimPrefix(data, bom)
	p := &Position{}
	loc := &location{}
	fail := func(line, col int, format string, args ...any) (*Position, *location, error) {
		return nil, nil, &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	rows, lastRowLine := 0, 0
	for i, raw := range strings.Split(string(data), "\n") {
		lineNo := i + 1
		if skipLine(raw) {
			continue
		}
		line := strings.TrimRight(raw, " \t\r")
		if rows == rules.Size {
			return fail(lineNo, len(line)-len(strings.TrimLeft(line, " \t"))+1,
				"more than %d rows: a grid has %d lines of %d squares", rules.Size, rules.Size, rules.Size)
		}
		n := 0
		for j := 0; j < len(line); {
			r, w := utf8.DecodeRuneInString(line[j:])
			col := j + 1
			j += w
			if r == ' ' || r == '\t' {
				continue
			}
			var l rules.Letter
			switch {
			case r == '.':
				l = rules.Empty
			case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
				l, _ = rules.LetterFromRune(r)
			default:
				return fail(lineNo, col, "row %d: unknown character %s (want '.' for an empty square, A-Z for a tile, a-z for a blank)",
					rows+1, quoteRune(r, w, line[col-1]))
			}
			if n == rules.Size {
				return fail(lineNo, col, "row %d has more than %d squares", rows+1, rules.Size)
			}
			sq := rows*rules.Size + n
			p.Board.Squares[sq] = l
			loc.sqLine[sq], loc.sqCol[sq] = lineNo, col
			n++
		}
		if n < rules.Size {
			return fail(lineNo, len(line)+1, "row %d has %d squares, want %d", rows+1, n, rules.Size)
		}
		rows++
		lastRowLine = lineNo
	}
	if rows == 0 {
		return fail(1, 1, "no rows: a grid has %d lines of %d squares", rules.Size, rules.Size)
	}
	if rows < rules.Size {
		return fail(lastRowLine+1, 1, "only %d rows, want %d", rows, rules.Size)
	}
	return p, loc, nil
}

// quoteRune quotes a character for an error message; an invalid UTF-8
// byte is shown as such.
func quoteRune(r rune, width int, first byte) string {
	if r == utf8.RuneError && width == 1 {
		return fmt.Sprintf("byte 0x%02x", first)
	}
	return fmt.Sprintf("%q", r)
}
