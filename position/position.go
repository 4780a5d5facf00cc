package position

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"scrabble/rules"
)

// Position is a game state as read from a position file: the board, the
// racks, the scores and the count of consecutive scoreless turns, of a game
// of 2 to rules.MaxPlayers players.
type Position struct {
	Board rules.Board
	// Seats is the number of players, 3 or 4; 0 (or 2) means two, so that
	// a two-player position needs no setting (the parsers leave it 0 for
	// two players). Players returns the count.
	Seats int
	// Racks holds the player to move first, then the others in turn order;
	// an unknown rack is empty. Only the first Players() are used: the
	// rest must be empty.
	Racks [rules.MaxPlayers]rules.Rack
	// Scores are in the same order as Racks (the rest must be 0).
	Scores [rules.MaxPlayers]int
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

// Players is the number of players: Seats, or 2 when Seats is 0. A
// Seats outside 2 to rules.MaxPlayers (which Validate reports) counts as
// the nearest bound, so that indexing Racks[:Players()] is always safe.
func (p *Position) Players() int {
	return min(max(p.Seats, rules.MinPlayers), rules.MaxPlayers)
}

// Opcode is one CGP opcode, e.g. "bb 50;" is {Name: "bb", Operands: ["50"]}.
type Opcode struct {
	Name     string
	Operands []string
}

// Error is an error in a position, located in its file where
// possible. Line and Col are 1-based; 0 means unknown. Columns count bytes.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

// Error formats the error as "file:line:col: msg", omitting missing parts.
func (e *Error) Error() string {
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

// problem is what Validate found, with the square or rack it concerns so
// that each parser can point into its own file.
type problem struct {
	sq   int  // square index, -1 if none
	rack int  // rack index, -1 if none
	lm   bool // the problem is in the lm opcode
	msg  string
}

// location maps squares and racks to where a parser read them.
type location struct {
	sqLine, sqCol     [rules.Squares]int
	rackLine, rackCol [rules.MaxPlayers]int
	lmLine, lmCol     int // where the lm opcode starts, 0 if none
}

func (pr *problem) locate(file string, loc *location) *Error {
	e := &Error{File: file, Msg: pr.msg}
	switch {
	case pr.sq >= 0 && loc != nil:
		e.Line, e.Col = loc.sqLine[pr.sq], loc.sqCol[pr.sq]
	case pr.sq >= 0:
		e.Line, e.Col = pr.sq/rules.Size+1, pr.sq%rules.Size+1
	case pr.rack >= 0 && loc != nil:
		e.Line, e.Col = loc.rackLine[pr.rack], loc.rackCol[pr.rack]
	case pr.lm && loc != nil:
		e.Line, e.Col = loc.lmLine, loc.lmCol
	}
	return e
}

// Validate checks that the position can occur in a game: 2 to
// rules.MaxPlayers players, and no rack or score for a player past them;
// every square holds a tile or nothing; the board and the racks hold no
// more of a tile than the set has; no rack holds more than 7 tiles; a non-empty board covers the
// centre, has at least two tiles and is connected; opcodes are writable as
// CGP; an lm opcode (the last move) is well formed and agrees with the board. The error is a *Error; for a problem at a square its Line and
// Col are the square's 1-based row and column.
func (p *Position) Validate() error {
	if pr := p.check(); pr != nil {
		return pr.locate("", nil)
	}
	return nil
}

// rackName names rack k (0-based) of a position of n players.
func rackName(k, n int) string {
	switch {
	case k == 0:
		return "rack 1 (player to move)"
	case n == 2:
		return "rack 2 (opponent)"
	}
	return fmt.Sprintf("rack %d (%s to move)", k+1, [...]string{"", "second", "third", "fourth"}[min(k, 3)])
}

func (p *Position) check() *problem {
	b := &p.Board
	if p.Seats != 0 && rules.CheckPlayers(p.Seats) != nil {
		return &problem{sq: -1, rack: -1, msg: fmt.Sprintf("%d players: a game has %d to %d", p.Seats, rules.MinPlayers, rules.MaxPlayers)}
	}
	n := p.Players()
	for k := n; k < rules.MaxPlayers; k++ {
		if p.Racks[k].Count() != 0 {
			return &problem{sq: -1, rack: -1, msg: fmt.Sprintf("rack %d (%s) given, but the position has %d players", k+1, p.Racks[k], n)}
		}
		if p.Scores[k] != 0 {
			return &problem{sq: -1, rack: -1, msg: fmt.Sprintf("score %d (%d) given, but the position has %d players", k+1, p.Scores[k], n)}
		}
	}
	for sq, l := range b.Squares {
		if l != rules.Empty && !l.IsLetter() {
			return &problem{sq: sq, rack: -1, msg: fmt.Sprintf("square %s holds an invalid letter value 0x%02x",
				rules.SquareName(sq/rules.Size, sq%rules.Size), uint8(l))}
		}
	}

	onBoard := b.TileCounts()
	for k := 1; k <= rules.RackSlots; k++ {
		i := k % rules.RackSlots // A..Z, then blanks
		total := int(onBoard[i])
		for k := range n {
			total += int(p.Racks[k][i])
		}
		if total <= int(rules.Distribution()[i]) {
			continue
		}
		pr := &problem{sq: -1, rack: -1, msg: fmt.Sprintf("too many %s: %d on the board/racks, the set has %d",
			rules.SlotName(i), total, rules.Distribution()[i])}
		if int(onBoard[i]) > int(rules.Distribution()[i]) {
			// Point at the first tile past the limit, in reading order.
			n := 0
			for sq, l := range b.Squares {
				if l != rules.Empty && l.RackIndex() == i {
					if n++; n > int(rules.Distribution()[i]) {
						pr.sq = sq
						break
					}
				}
			}
		} else {
			// Point at the first rack that takes the count past the limit.
			sum := int(onBoard[i])
			for k := range n {
				if sum += int(p.Racks[k][i]); sum > int(rules.Distribution()[i]) {
					pr.rack = k
					break
				}
			}
		}
		return pr
	}

	for i := range n {
		if c := p.Racks[i].Count(); c > rules.RackSize {
			return &problem{sq: -1, rack: i, msg: fmt.Sprintf("%s has %d tiles; a rack holds at most %d",
				rackName(i, n), c, rules.RackSize)}
		}
	}

	if p.ZeroTurns < 0 {
		return &problem{sq: -1, rack: -1, msg: fmt.Sprintf("negative count of scoreless turns %d", p.ZeroTurns)}
	}

	if pr := checkShape(b); pr != nil {
		return pr
	}

	if p.Lexicon != "" && !validToken(p.Lexicon) {
		return &problem{sq: -1, rack: -1, msg: fmt.Sprintf("lexicon name %q is empty or holds a space or ';'", p.Lexicon)}
	}
	if pr := p.lastMoveProblem(); pr != nil {
		return pr
	}
	for _, op := range p.Opcodes {
		if !validToken(op.Name) {
			return &problem{sq: -1, rack: -1, msg: fmt.Sprintf("opcode name %q is empty or holds a space or ';'", op.Name)}
		}
		for _, a := range op.Operands {
			if !validToken(a) {
				return &problem{sq: -1, rack: -1, msg: fmt.Sprintf("operand %q of opcode %s is empty or holds a space or ';'", a, op.Name)}
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
func (p *Position) lastMoveProblem() *problem {
	count := 0
	for _, op := range p.Opcodes {
		if op.Name == "lm" {
			count++
		}
	}
	if count > 1 {
		return &problem{sq: -1, rack: -1, lm: true, msg: fmt.Sprintf("%d lm opcodes (a position has one last move)", count)}
	}
	m, err := p.LastMove()
	if err != nil {
		return &problem{sq: -1, rack: -1, lm: true, msg: err.Error()}
	}
	if m != nil && m.Kind == LastExchange {
		// The tiles went into the bag: the player to move has not seen them.
		onBoard := p.Board.TileCounts()
		for i, n := range m.Exchanged {
			if int(n)+int(onBoard[i])+int(p.Racks[0][i]) > int(rules.Distribution()[i]) {
				return &problem{sq: -1, rack: -1, lm: true, msg: fmt.Sprintf(
					"last move lm %s: %d %s exchanged, but the set has %d and the board and the rack to move hold %d",
					m, n, rules.SlotName(i), rules.Distribution()[i], int(onBoard[i])+int(p.Racks[0][i]))}
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
		case t == rules.PlayedThrough && on == rules.Empty:
			return &problem{sq: -1, rack: -1, lm: true, msg: fmt.Sprintf(
				"last move lm %s: square %s is empty, but the move plays through a tile there", m, rules.SquareName(r, c))}
		case t != rules.PlayedThrough && on != t:
			held := "nothing"
			if on != rules.Empty {
				held = string(on.Rune())
			}
			return &problem{sq: -1, rack: -1, lm: true, msg: fmt.Sprintf(
				"last move lm %s: square %s holds %s, but the move put %c there", m, rules.SquareName(r, c), held, t.Rune())}
		}
	}
	return nil
}

// checkShape checks that a non-empty board covers the centre, holds at least
// two tiles and is connected.
func checkShape(b *rules.Board) *problem {
	n := b.TileCount()
	if n == 0 {
		return nil
	}
	centre := rules.CenterRow*rules.Size + rules.CenterCol
	cname := rules.SquareName(rules.CenterRow, rules.CenterCol)
	if b.Squares[centre] == rules.Empty {
		return &problem{sq: centre, rack: -1, msg: fmt.Sprintf(
			"the board has tiles but the centre square %s is empty; the first play covers it", cname)}
	}
	if n == 1 {
		return &problem{sq: centre, rack: -1, msg: fmt.Sprintf(
			"the board has a single tile (%c on %s); the first play places at least two",
			b.Squares[centre].Rune(), cname)}
	}
	var seen [rules.Squares]bool
	stack := []int{centre}
	seen[centre] = true
	for len(stack) > 0 {
		sq := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r, c := sq/rules.Size, sq%rules.Size
		for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			rr, cc := r+d[0], c+d[1]
			if !rules.InBounds(rr, cc) {
				continue
			}
			nb := rr*rules.Size + cc
			if !seen[nb] && b.Squares[nb] != rules.Empty {
				seen[nb] = true
				stack = append(stack, nb)
			}
		}
	}
	for sq, l := range b.Squares {
		if l != rules.Empty && !seen[sq] {
			r, c := sq/rules.Size, sq%rules.Size
			return &problem{sq: sq, rack: -1, msg: fmt.Sprintf(
				"tile %c at %s (row %d, column %d) is not connected to the tiles through the centre %s",
				l.Rune(), rules.SquareName(r, c), r+1, c+1, cname)}
		}
	}
	return nil
}

// validToken reports whether s can be written as a CGP opcode name or
// operand: non-empty, without spaces or semicolons.
func validToken(s string) bool {
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

var bom = []byte("\xef\xbb\xbf")

// skipLine reports whether a line of a position file is blank or a
// comment (its first non-blank character is '#').
func skipLine(line string) bool {
	t := strings.TrimLeft(line, " \t\r")
	return t == "" || t[0] == '#'
}

// Parse reads a position in either format, telling them apart by
// content: a file whose only non-comment, non-blank line contains '/' is CGP,
// anything else a grid (see ParseGrid). The position is then validated; all
// errors are *Error located in the file.
func Parse(file string, data []byte) (*Position, error) {
	data = bytes.TrimPrefix(data, bom)
	lines := strings.Split(string(data), "\n")
	count, idx := 0, -1
	for i, l := range lines {
		if !skipLine(l) {
			count++
			idx = i
		}
	}
	var (
		p   *Position
		loc *location
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
	if pr := p.check(); pr != nil {
		return nil, pr.locate(file, loc)
	}
	return p, nil
}
