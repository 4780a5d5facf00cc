// Package rules holds the standard English crossword game: the tile set, the
// machine-letter encoding every other package shares, the board and its premium
// squares, square names, racks, the bag, scoring and the end of the game. It
// does no I/O: positions' text forms (CGP, grid) and board rendering are
// package position's.
package rules

import "fmt"

// Letter is a machine letter. 1..26 stand for A..Z. The value 0 means "no
// letter": an empty square on a board, the undesignated blank on a rack, and a
// played-through square in a play's tile list. BlankBit marks a blank standing
// for the letter in the low bits.
type Letter uint8

const (
	// Empty is an empty board square.
	Empty Letter = 0
	// Blank is the blank tile on a rack (rack counts use index 0 for it).
	Blank Letter = 0
	// PlayedThrough marks, in a play's tile list, a square already on the board.
	PlayedThrough Letter = 0
	// BlankBit set on a letter means a blank designated as that letter.
	BlankBit Letter = 0x80

	// NumLetters is the size of the alphabet (A..Z).
	NumLetters = 26
	// RackSlots is the size of a letter-count array: blank plus A..Z.
	RackSlots = NumLetters + 1
)

// IsBlanked reports whether l is a blank designated as a letter.
func (l Letter) IsBlanked() bool { return l&BlankBit != 0 }

// Unblanked returns the letter that l stands for (A..Z as 1..26).
func (l Letter) Unblanked() Letter { return l &^ BlankBit }

// Blanked returns a blank standing for l.
func (l Letter) Blanked() Letter { return l | BlankBit }

// IsLetter reports whether l is a real letter (plain or blanked).
func (l Letter) IsLetter() bool { u := l.Unblanked(); return u >= 1 && u <= NumLetters }

// RackIndex returns the rack slot a tile with this letter occupies: 0 for
// any blank, otherwise the letter itself.
func (l Letter) RackIndex() int {
	if l.IsBlanked() || l == Blank {
		return 0
	}
	return int(l)
}

// Rune renders l the way players write it: 'A'..'Z' for tiles, 'a'..'z' for
// designated blanks, '?' for the undesignated blank (0).
func (l Letter) Rune() rune {
	switch {
	case l == 0:
		return '?'
	case l.IsBlanked():
		return rune('a' + l.Unblanked() - 1)
	default:
		return rune('A' + l - 1)
	}
}

// String renders l as a one-character string (see Rune).
func (l Letter) String() string { return string(l.Rune()) }

// LetterFromRune converts 'A'..'Z' to a tile, 'a'..'z' to a designated blank
// and '?' to the blank. ok is false for anything else.
func LetterFromRune(r rune) (l Letter, ok bool) {
	switch {
	case r >= 'A' && r <= 'Z':
		return Letter(r-'A') + 1, true
	case r >= 'a' && r <= 'z':
		return (Letter(r-'a') + 1) | BlankBit, true
	case r == '?':
		return Blank, true
	}
	return 0, false
}

// ParseWord converts a word as players write it (upper case tiles, lower case
// blanks) into machine letters.
func ParseWord(s string) ([]Letter, error) {
	out := make([]Letter, 0, len(s))
	for i, r := range s {
		l, ok := LetterFromRune(r)
		if !ok || l == Blank {
			return nil, fmt.Errorf("character %q at position %d is not a letter", r, i+1)
		}
		out = append(out, l)
	}
	return out, nil
}

// WordString renders machine letters as players write them.
func WordString(ls []Letter) string {
	b := make([]rune, len(ls))
	for i, l := range ls {
		b[i] = l.Rune()
	}
	return string(b)
}

// letterValues holds face values indexed by letter (index 0: blank).
var letterValues = [RackSlots]int{
	0,                            // ?
	1, 3, 3, 2, 1, 4, 2, 4, 1, 8, // A B C D E F G H I J
	5, 1, 3, 1, 1, 3, 10, 1, 1, 1, // K L M N O P Q R S T
	1, 4, 4, 8, 4, 10, // U V W X Y Z
}

// distribution is the standard 100-tile set, indexed by rack slot (0: blank),
// unexported so that no package can change the set (see Distribution).
var distribution = Rack{
	2,                             // ?
	9, 2, 2, 4, 12, 2, 3, 2, 9, 1, // A B C D E F G H I J
	1, 4, 2, 6, 8, 2, 1, 6, 4, 6, // K L M N O P Q R S T
	4, 2, 2, 1, 2, 1, // U V W X Y Z
}

// Distribution returns the standard 100-tile set, indexed by rack slot (0:
// blank). It returns a copy (a Rack is an array), so callers may change it.
func Distribution() Rack { return distribution }

// Value is the face value of a tile; blanks (designated or not) score 0.
func (l Letter) Value() int {
	if l.IsBlanked() {
		return 0
	}
	return letterValues[l]
}

// TileCount is the number of tiles in the full set (100).
func TileCount() int { return distribution.Count() }
