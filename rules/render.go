package rules

import (
	"io"
	"strconv"
	"strings"
)

// ANSI escapes used by RenderBoard in colour.
const (
	renderReset = "\x1b[0m"
	renderTW    = "\x1b[30;41m"         // red
	renderDW    = "\x1b[30;48;5;218m"   // pink
	renderTL    = "\x1b[30;44m"         // blue
	renderDL    = "\x1b[30;48;5;117m"   // light blue
	renderPlain = "\x1b[90m"            // grey dot
	renderTile  = "\x1b[1;30;48;5;229m" // bold black on light yellow
)

// renderMark is the symbol of an empty square: = triple word, - double word,
// " triple letter, ' double letter, * the centre star, . plain.
func renderMark(row, col int) (mark byte, colour string) {
	if row == CenterRow && col == CenterCol {
		return '*', renderDW
	}
	switch PremiumAt(row, col) {
	case TripleWord:
		return '=', renderTW
	case DoubleWord:
		return '-', renderDW
	case TripleLetter:
		return '"', renderTL
	case DoubleLetter:
		return '\'', renderDL
	}
	return '.', renderPlain
}

// RenderBoard prints the board for people: column letters A-O across the
// top, row numbers 1-15 down the side, tiles as letters (blanks in lower
// case) and empty squares by their premium (= triple word, - double word,
// " triple letter, ' double letter, * centre, . plain). With color, premium
// squares and tiles get ANSI background colours.
func RenderBoard(w io.Writer, b *Board, color bool) error {
	var sb strings.Builder
	sb.WriteString("  ")
	for c := 0; c < Size; c++ {
		if color {
			sb.WriteByte(' ')
		}
		sb.WriteString(" " + string(rune('A'+c)))
	}
	sb.WriteByte('\n')
	for r := 0; r < Size; r++ {
		n := strconv.Itoa(r + 1)
		if len(n) < 2 {
			n = " " + n
		}
		sb.WriteString(n)
		if color {
			sb.WriteByte(' ')
		}
		for c := 0; c < Size; c++ {
			l := b.At(r, c)
			var ch, colour string
			if l != Empty {
				ch, colour = string(l.Rune()), renderTile
			} else {
				m, col := renderMark(r, c)
				ch, colour = string(m), col
			}
			if color {
				sb.WriteString(colour + " " + ch + " " + renderReset)
			} else {
				sb.WriteString(" " + ch)
			}
		}
		sb.WriteByte('\n')
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
