package rules

import (
	"errors"
	"fmt"
)

// BingoBonus is the bonus for placing all seven tiles of a rack in one play.
const BingoBonus = 50

// Play is a placement of tiles on the board. Row and Col (0-based) locate the
// first square of the main word and Dir its direction. Tiles covers the whole
// main word, one entry per square: PlayedThrough (0) for a square that already
// holds a tile, otherwise the new tile (a blank carries BlankBit).
type Play struct {
	Row, Col int
	Dir      Direction
	Tiles    []Letter
}

// FormedWord is a word a play forms: its first square (0-based), direction,
// letters (existing tiles included, blanks with BlankBit) and score without
// any bingo bonus.
type FormedWord struct {
	Row, Col int
	Dir      Direction
	Letters  []Letter
	Score    int
}

// NewTiles counts the tiles a play puts on the board.
func (p Play) NewTiles() int {
	n := 0
	for _, t := range p.Tiles {
		if t != PlayedThrough {
			n++
		}
	}
	return n
}

// hasTileAt reports whether (row, col) is on the board and holds a tile.
func (b *Board) hasTileAt(row, col int) bool {
	return InBounds(row, col) && b.At(row, col) != Empty
}

// CheckPlacement checks a play against the geometry rules of the board (no
// dictionary): the span is on the board, new tiles go on empty squares and
// played-through squares hold tiles, the span is the whole main word, at most
// a rack's worth and at least one tile is placed, the first play covers the
// centre and is at least two squares long, later plays touch a tile already
// on the board.
func (b *Board) CheckPlacement(p Play) error {
	if p.Dir != Across && p.Dir != Down {
		return fmt.Errorf("invalid direction %d", p.Dir)
	}
	if len(p.Tiles) == 0 {
		return errors.New("the play covers no squares")
	}
	dr, dc := p.Dir.Step()
	n := len(p.Tiles)
	endRow, endCol := p.Row+(n-1)*dr, p.Col+(n-1)*dc
	if !InBounds(p.Row, p.Col) || !InBounds(endRow, endCol) {
		return fmt.Errorf("the play from square %s %s over %d squares goes off the board",
			SquareName(p.Row, p.Col), p.Dir, n)
	}

	newTiles := 0
	touches := false
	coversCentre := false
	for i, t := range p.Tiles {
		r, c := p.Row+i*dr, p.Col+i*dc
		if r == CenterRow && c == CenterCol {
			coversCentre = true
		}
		if t == PlayedThrough {
			if !b.hasTileAt(r, c) {
				return fmt.Errorf("square %s is marked as played through but is empty", SquareName(r, c))
			}
			touches = true
			continue
		}
		if !t.IsLetter() {
			return fmt.Errorf("tile %#x for square %s is not a letter", uint8(t), SquareName(r, c))
		}
		if b.hasTileAt(r, c) {
			return fmt.Errorf("square %s already holds %s", SquareName(r, c), b.At(r, c))
		}
		newTiles++
		// Neighbours across the line of play (the ones along it are either in
		// the span or checked below).
		if b.hasTileAt(r-dc, c-dr) || b.hasTileAt(r+dc, c+dr) {
			touches = true
		}
	}
	if newTiles == 0 {
		return errors.New("the play places no tiles")
	}
	if newTiles > RackSize {
		return fmt.Errorf("the play places %d tiles; a rack holds only %d", newTiles, RackSize)
	}
	if b.hasTileAt(p.Row-dr, p.Col-dc) {
		return fmt.Errorf("the word does not start at square %s: square %s before it holds a tile",
			SquareName(p.Row, p.Col), SquareName(p.Row-dr, p.Col-dc))
	}
	if b.hasTileAt(endRow+dr, endCol+dc) {
		return fmt.Errorf("the word does not end at square %s: square %s after it holds a tile",
			SquareName(endRow, endCol), SquareName(endRow+dr, endCol+dc))
	}
	if b.IsEmpty() {
		if !coversCentre {
			return fmt.Errorf("the first play must cover the centre square %s", SquareName(CenterRow, CenterCol))
		}
		if n < 2 {
			return errors.New("the first play must be at least two tiles long")
		}
		return nil
	}
	if !touches {
		return errors.New("the play does not touch any tile on the board")
	}
	return nil
}

// playScoreWord scores the word whose letters lie on consecutive squares from
// (row, col) in direction d; isNew[i] tells whether letters[i] is placed by
// the play, since only new tiles get their square's premiums.
func playScoreWord(row, col int, d Direction, letters []Letter, isNew []bool) int {
	dr, dc := d.Step()
	sum, mult := 0, 1
	for i, l := range letters {
		v := l.Value()
		if isNew[i] {
			prem := PremiumAt(row+i*dr, col+i*dc)
			v *= prem.LetterMultiplier()
			mult *= prem.WordMultiplier()
		}
		sum += v
	}
	return sum * mult
}

// WordsFormed lists the words a play forms, each with its score: first the
// main word (when at least two letters long), then the cross-word of at least
// two letters through each new tile, in the order of the tiles. It assumes the
// play passed CheckPlacement.
func (b *Board) WordsFormed(p Play) []FormedWord {
	words, _ := b.AppendWordsFormed(nil, nil, p)
	return words
}

// AppendWordsFormed is WordsFormed appending the words to words and their
// letters to letters (the words' Letters share that storage), so a caller
// with room in both allocates nothing.
func (b *Board) AppendWordsFormed(words []FormedWord, letters []Letter, p Play) ([]FormedWord, []Letter) {
	dr, dc := p.Dir.Step()
	var isNew [Size]bool
	if len(p.Tiles) >= 2 {
		start := len(letters)
		for i, t := range p.Tiles {
			isNew[i] = t != PlayedThrough
			if !isNew[i] {
				t = b.At(p.Row+i*dr, p.Col+i*dc)
			}
			letters = append(letters, t)
		}
		word := letters[start:len(letters):len(letters)]
		words = append(words, FormedWord{
			Row: p.Row, Col: p.Col, Dir: p.Dir, Letters: word,
			Score: playScoreWord(p.Row, p.Col, p.Dir, word, isNew[:len(word)]),
		})
	}

	crossDir := Down
	if p.Dir == Down {
		crossDir = Across
	}
	cr, cc := crossDir.Step()
	for i, t := range p.Tiles {
		if t == PlayedThrough {
			continue
		}
		r, c := p.Row+i*dr, p.Col+i*dc
		// Walk back to the first tile of the cross-word, then forward.
		sr, sc := r, c
		for b.hasTileAt(sr-cr, sc-cc) {
			sr, sc = sr-cr, sc-cc
		}
		start := len(letters)
		for wr, wc := sr, sc; ; wr, wc = wr+cr, wc+cc {
			k := len(letters) - start
			if wr == r && wc == c {
				letters = append(letters, t)
				isNew[k] = true
			} else if b.hasTileAt(wr, wc) {
				letters = append(letters, b.At(wr, wc))
				isNew[k] = false
			} else {
				break
			}
		}
		if len(letters)-start < 2 {
			letters = letters[:start]
			continue
		}
		word := letters[start:len(letters):len(letters)]
		words = append(words, FormedWord{
			Row: sr, Col: sc, Dir: crossDir, Letters: word,
			Score: playScoreWord(sr, sc, crossDir, word, isNew[:len(word)]),
		})
	}
	return words, letters
}

// ScorePlay is the score of a play: every word it forms, each with letter
// premiums under new tiles and multiplied by the word premiums under new
// tiles, plus BingoBonus when a whole rack (7 tiles) is placed. It assumes the
// play passed CheckPlacement.
func (b *Board) ScorePlay(p Play) int {
	total := 0
	for _, w := range b.WordsFormed(p) {
		total += w.Score
	}
	if p.NewTiles() == RackSize {
		total += BingoBonus
	}
	return total
}

// Apply puts the play's new tiles on the board. It does not check the play
// (see CheckPlacement) but panics if a tile would fall off the board.
func (b *Board) Apply(p Play) {
	dr, dc := p.Dir.Step()
	for i, t := range p.Tiles {
		if t == PlayedThrough {
			continue
		}
		r, c := p.Row+i*dr, p.Col+i*dc
		if !InBounds(r, c) {
			panic(fmt.Sprintf("rules: Apply: tile %d of the play falls off the board at %s", i+1, SquareName(r, c)))
		}
		b.Set(r, c, t)
	}
}
