package position

import (
	"io"
	"strconv"
	"strings"

	"scrabble/rules"
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
	renderNew   = "\x1b[1;30;48;5;214m" // bold black on orange: the last move's tiles
)

// renderMark is the symbol of an empty square: = triple word, - double word,
// " triple letter, ' double letter, * the centre star, . plain.
func renderMark(row, col int) (mark byte, colour string) {
	if row == rules.CenterRow && col == rules.CenterCol {
		return '*', renderDW
	}
	switch rules.PremiumAt(row, col) {
	case rules.TripleWord:
		return '=', renderTW
	case rules.DoubleWord:
		return '-', renderDW
	case rules.TripleLetter:
		return '"', renderTL
	case rules.DoubleLetter:
		return '\'', renderDL
	}
	return '.', renderPlain
}

// RenderBoard prints the board for people: column letters A-O across the
// top, row numbers 1-15 down the side, tiles as letters (blanks in lower
// case) and empty squares by their premium (= triple word, - double word,
// " triple letter, ' double letter, * centre, . plain). With color, premium
// squares and tiles get ANSI background colours.
func RenderBoard(w io.Writer, b *rules.Board, color bool) error {
	return RenderBoardWith(w, b, RenderOptions{Color: color})
}

// RenderOptions are the choices of RenderBoardWith.
type RenderOptions struct {
	// Color draws squares with ANSI background colours.
	Color bool
	// Highlight marks squares (row*Size+col), the last move's new tiles:
	// in colour with their own background, without colour in brackets
	// ("[W O R D]", "[W O]R[D]" when R was on the board) that take the
	// place of the spaces between squares, so the columns stay aligned.
	Highlight []int
}

// RenderBoardWith prints the board as RenderBoard does, with opt.
func RenderBoardWith(w io.Writer, b *rules.Board, opt RenderOptions) error {
	var marked [rules.Squares]bool
	for _, sq := range opt.Highlight {
		if sq >= 0 && sq < rules.Squares {
			marked[sq] = true
		}
	}
	color := opt.Color
	var sb strings.Builder
	sb.WriteString("  ")
	for c := 0; c < rules.Size; c++ {
		if color {
			sb.WriteByte(' ')
		}
		sb.WriteString(" " + string(rune('A'+c)))
	}
	sb.WriteByte('\n')
	for r := 0; r < rules.Size; r++ {
		n := strconv.Itoa(r + 1)
		if len(n) < 2 {
			n = " " + n
		}
		sb.WriteString(n)
		if color {
			sb.WriteByte(' ')
		}
		row := marked[r*rules.Size : (r+1)*rules.Size]
		for c := 0; c < rules.Size; c++ {
			l := b.At(r, c)
			var ch, colour string
			switch {
			case l != rules.Empty && row[c]:
				ch, colour = string(l.Rune()), renderNew
			case l != rules.Empty:
				ch, colour = string(l.Rune()), renderTile
			default:
				m, col := renderMark(r, c)
				ch, colour = string(m), col
			}
			if color {
				sb.WriteString(colour + " " + ch + " " + renderReset)
				continue
			}
			// The gap before a square opens a bracket when a marked run
			// starts there, closes one when it ends.
			switch {
			case row[c] && (c == 0 || !row[c-1]):
				sb.WriteByte('[')
			case !row[c] && c > 0 && row[c-1]:
				sb.WriteByte(']')
			default:
				sb.WriteByte(' ')
			}
			sb.WriteString(ch)
		}
		if !color && row[rules.Size-1] {
			sb.WriteByte(']')
		}
		sb.WriteByte('\n')
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// RenderLegend prints one line that explains the marks RenderBoardWith
// draws (in colour, each mark on its colour), and the last move's when
// lastMove is set.
func RenderLegend(w io.Writer, color, lastMove bool) error {
	type entry struct{ mark, colour, what string }
	entries := []entry{
		{"=", renderTW, "triple word"},
		{"-", renderDW, "double word"},
		{"\"", renderTL, "triple letter"},
		{"'", renderDL, "double letter"},
		{"*", renderDW, "centre (double word)"},
	}
	if lastMove {
		if color {
			entries = append(entries, entry{"A", renderNew, "last move"})
		} else {
			entries = append(entries, entry{"[A]", "", "last move"})
		}
	}
	var sb strings.Builder
	sb.WriteString("Legend:")
	for i, e := range entries {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteByte(' ')
		if color && e.colour != "" {
			sb.WriteString(e.colour + " " + e.mark + " " + renderReset)
		} else {
			sb.WriteString(e.mark)
		}
		sb.WriteString(" " + e.what)
	}
	sb.WriteByte('\n')
	_, err := io.WriteString(w, sb.String())
	return err
}
