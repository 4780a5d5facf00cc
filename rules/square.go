package rules

import (
	"fmt"
	"strconv"
)

// The one way squares and play coordinates are written, in messages, move
// notation and CGP alike.

// SquareName names a 0-based square the way players write it, row number
// then column letter: (7, 7) is "8H". A square off the board is written
// "(row R, column C)", 1-based.
func SquareName(row, col int) string {
	if !InBounds(row, col) {
		return fmt.Sprintf("(row %d, column %d)", row+1, col+1)
	}
	return strconv.Itoa(row+1) + string(rune('A'+col))
}

// Coordinate names a play's first square with its direction, as move
// notation and CGP write it: row first across ("8D"), column first down
// ("D8"). A column off the board is written '?'.
func Coordinate(row, col int, d Direction) string {
	colName := "?"
	if col >= 0 && col < Size {
		colName = string(rune('A' + col))
	}
	if d == Down {
		return colName + strconv.Itoa(row+1)
	}
	return strconv.Itoa(row+1) + colName
}

// Coordinate names the play's first square as move notation does: row
// first ("8D") across, column first ("D8") down.
func (p Play) Coordinate() string { return Coordinate(p.Row, p.Col, p.Dir) }

// ParseCoordinate reads what Coordinate writes, "8D" (row 8, column D,
// across) or "D8" (down), strictly: upper case, no leading zero, on the
// board.
func ParseCoordinate(s string) (row, col int, dir Direction, ok bool) {
	upper := func(b byte) bool { return b >= 'A' && b <= 'Z' }
	switch {
	case len(s) >= 2 && upper(s[len(s)-1]):
		row, col, dir = 0, int(s[len(s)-1]-'A'), Across
		s = s[:len(s)-1]
	case len(s) >= 2 && upper(s[0]):
		row, col, dir = 0, int(s[0]-'A'), Down
		s = s[1:]
	default:
		return 0, 0, 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || s[0] < '1' || s[0] > '9' || n > Size || col >= Size {
		return 0, 0, 0, false
	}
	return n - 1, col, dir, true
}

// Step returns the row and column increments of a direction.
func (d Direction) Step() (dr, dc int) {
	if d == Down {
		return 1, 0
	}
	return 0, 1
}
