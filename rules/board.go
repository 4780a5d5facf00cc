package rules

import "strings"

// Size is the side of the board; Squares the number of squares.
const (
	Size    = 15
	Squares = Size * Size
	// CenterRow and CenterCol locate the star (8H), 0-based.
	CenterRow = 7
	CenterCol = 7
)

// Direction of a play.
type Direction uint8

const (
	Across Direction = iota
	Down
)

func (d Direction) String() string {
	if d == Down {
		return "down"
	}
	return "across"
}

// Premium is the bonus printed on a square.
type Premium uint8

const (
	NoPremium Premium = iota
	DoubleLetter
	TripleLetter
	DoubleWord
	TripleWord
)

// LetterMultiplier is the factor a newly placed tile's value gets here.
func (p Premium) LetterMultiplier() int {
	switch p {
	case DoubleLetter:
		return 2
	case TripleLetter:
		return 3
	}
	return 1
}

// WordMultiplier is the factor a word covering this square with a new tile gets.
func (p Premium) WordMultiplier() int {
	switch p {
	case DoubleWord:
		return 2
	case TripleWord:
		return 3
	}
	return 1
}

// premiumLayout is the standard board: = triple word, - double word,
// " triple letter, ' double letter. The centre star is a double word.
var premiumLayout = [Size]string{
	`=  '   =   '  =`,
	` -   "   "   - `,
	`  -   ' '   -  `,
	`'  -   '   -  '`,
	`    -     -    `,
	` "   "   "   " `,
	`  '   ' '   '  `,
	`=  '   -   '  =`,
	`  '   ' '   '  `,
	` "   "   "   " `,
	`    -     -    `,
	`'  -   '   -  '`,
	`  -   ' '   -  `,
	` -   "   "   - `,
	`=  '   =   '  =`,
}

// premiums holds the premium of every square, indexed row*Size+col:
// unexported so that no package can change the board; read it with PremiumAt.
var premiums = func() (p [Squares]Premium) {
	for r, line := range premiumLayout {
		for c, ch := range line {
			switch ch {
			case '=':
				p[r*Size+c] = TripleWord
			case '-':
				p[r*Size+c] = DoubleWord
			case '"':
				p[r*Size+c] = TripleLetter
			case '\'':
				p[r*Size+c] = DoubleLetter
			}
		}
	}
	return p
}()

// PremiumAt returns the premium of square (row, col), 0-based.
func PremiumAt(row, col int) Premium { return premiums[row*Size+col] }

// Board is a plain description of the tiles on the board, indexed row*Size+col.
// Empty squares hold Empty; blanks carry BlankBit.
type Board struct {
	Squares [Squares]Letter
}

// At returns the tile on (row, col), 0-based.
func (b *Board) At(row, col int) Letter { return b.Squares[row*Size+col] }

// Set puts a tile on (row, col), 0-based.
func (b *Board) Set(row, col int, l Letter) { b.Squares[row*Size+col] = l }

// InBounds reports whether (row, col) is on the board.
func InBounds(row, col int) bool { return row >= 0 && row < Size && col >= 0 && col < Size }

// IsEmpty reports whether no tile is on the board.
func (b *Board) IsEmpty() bool {
	for _, l := range b.Squares {
		if l != Empty {
			return false
		}
	}
	return true
}

// TileCount counts the tiles on the board.
func (b *Board) TileCount() int {
	n := 0
	for _, l := range b.Squares {
		if l != Empty {
			n++
		}
	}
	return n
}

// Transposed returns the board mirrored on its main diagonal, so that down
// lines become across lines.
func (b *Board) Transposed() Board {
	var t Board
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			t.Squares[c*Size+r] = b.Squares[r*Size+c]
		}
	}
	return t
}

// TileCounts returns how many of each tile (by rack slot) lie on the board.
func (b *Board) TileCounts() Rack {
	var r Rack
	for _, l := range b.Squares {
		if l != Empty {
			r[l.RackIndex()]++
		}
	}
	return r
}

// GridString writes the board as 15 lines of 15 squares ('.' for empty,
// upper case tiles, lower case blanks), each ending in a newline, as
// position.ParseGrid reads it.
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
