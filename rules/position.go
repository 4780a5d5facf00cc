package rules

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Position is a game state as read from a position file: the board, both
// racks, the scores and the count of consecutive scoreless turns.
type Position struct {
	Board Board
	// Racks holds the player to move first; an unknown rack is empty.
	Racks [2]Rack
	// Scores are in the same order as Racks.
	Scores [2]int
	// ZeroTurns is the number of consecutive scoreless turns.
	ZeroTurns int
	// Lexicon is the operand of the CGP "lex" opcode, "" if none. When
	// writing CGP it is authoritative: a stored lex opcode is written with
	// this value (and dropped when it is "").
	Lexicon string
	// Opcodes lists every CGP opcode in order, lex included, so that CGP
	// round-trips.
	Opcodes []Opcode
}

// Opcode is one CGP opcode, e.g. "bb 50;" is {Name: "bb", Operands: ["50"]}.
type Opcode struct {
	Name     string
	Operands []string
}

// PositionError is an error in a position, located in its file where
// possible. Line and Col are 1-based; 0 means unknown. Columns count bytes.
type PositionError struct {
	File      string
	Line, Col int
	Msg       string
}

// Error formats the error as "file:line:col: msg", omitting missing parts.
func (e *PositionError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Col))
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// posProblem is what Validate found, with the square or rack it concerns so
// that each parser can point into its own file.
type posProblem struct {
	sq   int  // square index, -1 if none
	rack int  // rack index, -1 if none
	lm   bool // the problem is in the lm opcode
	msg  string
}

// posLoc maps squares and racks to where a parser read them.
type posLoc struct {
	sqLine, sqCol     [Squares]int
	rackLine, rackCol [2]int
	lmLine, lmCol     int // where the lm opcode starts, 0 if none
}

func (pr *posProblem) locate(file string, loc *posLoc) *PositionError {
	e := &PositionError{File: file, Msg: pr.msg}
	switch {
	case pr.sq >= 0 && loc != nil:
		e.Line, e.Col = loc.sqLine[pr.sq], loc.sqCol[pr.sq]
	case pr.sq >= 0:
		e.Line, e.Col = pr.sq/Size+1, pr.sq%Size+1
	case pr.rack >= 0 && loc != nil:
		e.Line, e.Col = loc.rackLine[pr.rack], loc.rackCol[pr.rack]
	case pr.lm && loc != nil:
		e.Line, e.Col = loc.lmLine, loc.lmCol
	}
	return e
}

// Validate checks that the position can occur in a game: every square holds
// a tile or nothing; the board and both racks hold no more of a tile than the
// set has; no rack holds more than 7 tiles; a non-empty board covers the
// centre, has at least two tiles and is connected; opcodes are writable as
// CGP; an lm opcode (the last move) is well formed and agrees with the board. The error is a *PositionError; for a problem at a square its Line and
// Col are the square's 1-based row and column.
func (p *Position) Validate() error {
	if pr := p.problem(); pr != nil {
		return pr.locate("", nil)
	}
	return nil
}

var posRackNames = [2]string{"rack 1 (player to move)", "rack 2 (opponent)"}

func (p *Position) problem() *posProblem {
	b := &p.Board
	for sq, l := range b.Squares {
		if l != Empty && !l.IsLetter() {
			return &posProblem{sq: sq, rack: -1, msg: fmt.Sprintf("square %s holds an invalid letter value 0x%02x",
				SquareName(sq/Size, sq%Size), uint8(l))}
		}
	}

	onBoard := b.TileCounts()
	for k := 1; k <= RackSlots; k++ {
		i := k % RackSlots // A..Z, then blanks
		total := int(onBoard[i]) + int(p.Racks[0][i]) + int(p.Racks[1][i])
		if total <= int(Distribution[i]) {
			continue
		}
		pr := &posProblem{sq: -1, rack: -1, msg: fmt.Sprintf("too many %s: %d on the board/racks, the set has %d",
			SlotName(i), total, Distribution[i])}
		if int(onBoard[i]) > int(Distribution[i]) {
			// Point at the first tile past the limit, in reading order.
			n := 0
			for sq, l := range b.Squares {
				if l != Empty && l.RackIndex() == i {
					if n++; n > int(Distribution[i]) {
						pr.sq = sq
						break
					}
				}
			}
		} else if int(onBoard[i])+int(p.Racks[0][i]) > int(Distribution[i]) {
			pr.rack = 0
		} else {
			pr.rack = 1
		}
		return pr
	}

	for i := range p.Racks {
		if n := p.Racks[i].Count(); n > RackSize {
			return &posProblem{sq: -1, rack: i, msg: fmt.Sprintf("%s has %d tiles; a rack holds at most %d",
				posRackNames[i], n, RackSize)}
		}
	}

	if p.ZeroTurns < 0 {
		return &posProblem{sq: -1, rack: -1, msg: fmt.Sprintf("negative count of scoreless turns %d", p.ZeroTurns)}
	}

	if pr := posCheckShape(b); pr != nil {
		return pr
	}

	if p.Lexicon != "" && !posValidToken(p.Lexicon) {
		return &posProblem{sq: -1, rack: -1, msg: fmt.Sprintf("lexicon name %q is empty or holds a space or ';'", p.Lexicon)}
	}
	if pr := p.lastMoveProblem(); pr != nil {
		return pr
	}
	for _, op := range p.Opcodes {
		if !posValidToken(op.Name) {
			return &posProblem{sq: -1, rack: -1, msg: fmt.Sprintf("opcode name %q is empty or holds a space or ';'", op.Name)}
		}
		for _, a := range op.Operands {
			if !posValidToken(a) {
				return &posProblem{sq: -1, rack: -1, msg: fmt.Sprintf("operand %q of opcode %s is empty or holds a space or ';'", a, op.Name)}
			}
		}
	}
	return nil
}

// lastMoveProblem checks the lm opcode: one at most, well formed, and a
// play's new tiles on the board as it gives them, on squares the play's
// tiles already there cover too; an exchange's tiles among those the player
// to move has not seen. A play challenged off is checked only for
// its shape: its tiles went back to the rack.
func (p *Position) lastMoveProblem() *posProblem {
	count := 0
	for _, op := range p.Opcodes {
		if op.Name == "lm" {
			count++
		}
	}
	if count > 1 {
		return &posProblem{sq: -1, rack: -1, lm: true, msg: fmt.Sprintf("%d lm opcodes (a position has one last move)", count)}
	}
	m, err := p.LastMove()
	if err != nil {
		return &posProblem{sq: -1, rack: -1, lm: true, msg: err.Error()}
	}
	if m != nil && m.Kind == LastExchange {
		// The tiles went into the bag: the player to move has not seen them.
		onBoard := p.Board.TileCounts()
		for i, n := range m.Exchanged {
			if int(n)+int(onBoard[i])+int(p.Racks[0][i]) > int(Distribution[i]) {
				return &posProblem{sq: -1, rack: -1, lm: true, msg: fmt.Sprintf(
					"last move lm %s: %d %s exchanged, but the set has %d and the board and the rack to move hold %d",
					m, n, SlotName(i), Distribution[i], int(onBoard[i])+int(p.Racks[0][i]))}
			}
		}
	}
	if m == nil || m.Kind != LastPlay || m.ChallengedOff {
		return nil
	}
	dr, dc := m.Play.Dir.Step()
	for i, t := range m.Play.Tiles {
		r, c := m.Play.Row+i*dr, m.Play.Col+i*dc
		on := p.Board.At(r, c)
		switch {
		case t == PlayedThrough && on == Empty:
			return &posProblem{sq: -1, rack: -1, lm: true, msg: fmt.Sprintf(
				"last move lm %s: square %s is empty, but the move plays through a tile there", m, SquareName(r, c))}
		case t != PlayedThrough && on != t:
			held := "nothing"
			if on != Empty {
				held = string(on.Rune())
			}
			return &posProblem{sq: -1, rack: -1, lm: true, msg: fmt.Sprintf(
				"last move lm %s: square %s holds %s, but the move put %c there", m, SquareName(r, c), held, t.Rune())}
		}
	}
	return nil
}

// checkShape checks that a non-empty board covers the centre, holds at least
// two tiles and is connected.
func posCheckShape(b *Board) *posProblem {
	n := b.TileCount()
	if n == 0 {
		return nil
	}
	centre := CenterRow*Size + CenterCol
	cname := SquareName(CenterRow, CenterCol)
	if b.Squares[centre] == Empty {
		return &posProblem{sq: centre, rack: -1, msg: fmt.Sprintf(
			"the board has tiles but the centre square %s is empty; the first play covers it", cname)}
	}
	if n == 1 {
		return &posProblem{sq: centre, rack: -1, msg: fmt.Sprintf(
			"the board has a single tile (%c on %s); the first play places at least two",
			b.Squares[centre].Rune(), cname)}
	}
	var seen [Squares]bool
	stack := []int{centre}
	seen[centre] = true
	for len(stack) > 0 {
		sq := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r, c := sq/Size, sq%Size
		for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			rr, cc := r+d[0], c+d[1]
			if !InBounds(rr, cc) {
				continue
			}
			nb := rr*Size + cc
			if !seen[nb] && b.Squares[nb] != Empty {
				seen[nb] = true
				stack = append(stack, nb)
			}
		}
	}
	for sq, l := range b.Squares {
		if l != Empty && !seen[sq] {
			r, c := sq/Size, sq%Size
			return &posProblem{sq: sq, rack: -1, msg: fmt.Sprintf(
				"tile %c at %s (row %d, column %d) is not connected to the tiles through the centre %s",
				l.Rune(), SquareName(r, c), r+1, c+1, cname)}
		}
	}
	return nil
}

// posValidToken reports whether s can be written as a CGP opcode name or
// operand: non-empty, without spaces or semicolons.
func posValidToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r == ';' || unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

var posBOM = []byte("\xef\xbb\xbf")

// posSkipLine reports whether a line of a position file is blank or a
// comment (its first non-blank character is '#').
func posSkipLine(line string) bool {
	t := strings.TrimLeft(line, " \t\r")
	return t == "" || t[0] == '#'
}

// ParsePosition reads a position in either format, telling them apart by
// content: a file whose only non-comment, non-blank line contains '/' is CGP,
// anything else a grid (see ParseGrid). The position is then validated; all
// errors are *PositionError located in the file.
func ParsePosition(file string, data []byte) (*Position, error) {
	data = bytes.TrimPrefix(data, posBOM)
	lines := strings.Split(string(data), "\n")
	count, idx := 0, -1
	for i, l := range lines {
		if !posSkipLine(l) {
			count++
			idx = i
		}
	}
	var (
		p   *Position
		loc *posLoc
		err error
	)
	if count == 1 && strings.Contains(lines[idx], "/") {
		p, loc, err = parseCGP(file, idx+1, lines[idx])
	} else {
		p, loc, err = parseGrid(file, data)
	}
	if err != nil {
		return nil, err
	}
	if pr := p.problem(); pr != nil {
		return nil, pr.locate(file, loc)
	}
	return p, nil
}
