package position

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"scrabble/rules"
)

// ParseCGP reads a position in CGP, the one-line format
//
//	ROW/ROW/.../ROW RACK1/RACK2[/RACK3[/RACK4]] SCORE1/SCORE2[/...] ZEROTURNS [OPCODE;]...
//
// Rows run top to bottom: upper case for a tile, lower case for a blank
// standing for that letter, a number for that many empty squares. Racks are
// upper case with '?' for a blank, one a player: the player to move first,
// then the others in turn order; an unknown rack is empty. The number of
// racks is the number of players, 2 to rules.MaxPlayers (Position.Seats),
// and the scores, which may be negative, are as many, in the same order. Each opcode is a name and operands
// separated by spaces and ended by ';' (the last ';' may be left out), e.g.
// "lex NWL23;". The board is required; racks, scores and the zero-turn count
// may be left off at the end (empty racks, zero). ParseCGP does not validate
// the position (Parse does). Errors are *Error on line 1 with
// the byte column of the problem.
func ParseCGP(file string, line string) (*Position, error) {
	p, _, err := parseCGP(file, 1, line)
	if err != nil {
		return nil, err
	}
	return p, nil
}

type cgpParser struct {
	file   string
	lineNo int
}

func (cp *cgpParser) errorf(off int, format string, args ...any) error {
	return &Error{File: cp.file, Line: cp.lineNo, Col: off + 1, Msg: fmt.Sprintf(format, args...)}
}

// cgpField is a whitespace-separated field and its byte offset in the line.
type cgpField struct {
	text string
	off  int
}

func parseCGP(file string, lineNo int, line string) (*Position, *location, error) {
	cp := &cgpParser{file: file, lineNo: lineNo}
	line = strings.TrimRightFunc(line, unicode.IsSpace)
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		return nil, nil, cp.errorf(i, "line break inside a CGP position (it is one line)")
	}

	// The first four fields are positional; the rest of the line is opcodes.
	var fields []cgpField
	rest := len(line)
	for i := 0; i < len(line) && len(fields) < 4; {
		r, w := utf8.DecodeRuneInString(line[i:])
		if unicode.IsSpace(r) {
			i += w
			continue
		}
		end := strings.IndexFunc(line[i:], unicode.IsSpace)
		if end < 0 {
			end = len(line)
		} else {
			end += i
		}
		fields = append(fields, cgpField{line[i:end], i})
		i = end
		rest = end
	}
	if len(fields) == 0 {
		return nil, nil, cp.errorf(0, "empty CGP: want BOARD RACKS SCORES ZERO-TURNS [OPCODES]")
	}

	p := &Position{}
	loc := &location{}
	if err := cp.board(fields[0], p, loc); err != nil {
		return nil, nil, err
	}
	if len(fields) > 1 {
		if err := cp.racks(fields[1], p, loc); err != nil {
			return nil, nil, err
		}
	} else {
		for k := range loc.rackCol {
			loc.rackCol[k] = len(line) + 1
		}
	}
	for k := range loc.rackLine {
		loc.rackLine[k] = lineNo
	}
	if len(fields) > 2 {
		if err := cp.scores(fields[2], p); err != nil {
			return nil, nil, err
		}
	}
	if len(fields) > 3 {
		f := fields[3]
		n, err := strconv.Atoi(f.text)
		if err != nil || n < 0 {
			return nil, nil, cp.errorf(f.off, "zero-turn count %q is not a number of turns (0 or more)", f.text)
		}
		p.ZeroTurns = n
	}
	if err := cp.opcodes(line, rest, p, loc); err != nil {
		return nil, nil, err
	}
	return p, loc, nil
}

func (cp *cgpParser) board(f cgpField, p *Position, loc *location) error {
	rows := strings.Split(f.text, "/")
	if len(rows) != rules.Size {
		off := f.off + len(f.text)
		if len(rows) > rules.Size {
			off = f.off + len(strings.Join(rows[:rules.Size], "/"))
		}
		return cp.errorf(off, "board has %d rows, want %d separated by '/'", len(rows), rules.Size)
	}
	off := f.off
	for r, row := range rows {
		c := 0
		for i := 0; i < len(row); {
			ch, w := utf8.DecodeRuneInString(row[i:])
			start := off + i
			switch {
			case ch >= '0' && ch <= '9':
				n, j := 0, i
				for j < len(row) && row[j] >= '0' && row[j] <= '9' {
					n = n*10 + int(row[j]-'0')
					if n > rules.Size {
						break
					}
					j++
				}
				if n == 0 {
					return cp.errorf(start, "row %d: %s is not a number of empty squares (1-%d)", r+1, row[i:j], rules.Size)
				}
				if c+n > rules.Size {
					return cp.errorf(start, "row %d has more than %d squares", r+1, rules.Size)
				}
				for k := 0; k < n; k++ {
					sq := r*rules.Size + c
					loc.sqLine[sq], loc.sqCol[sq] = cp.lineNo, start+1
					c++
				}
				i = j
				continue
			case ch >= 'A' && ch <= 'Z', ch >= 'a' && ch <= 'z':
				if c == rules.Size {
					return cp.errorf(start, "row %d has more than %d squares", r+1, rules.Size)
				}
				l, _ := rules.LetterFromRune(ch)
				sq := r*rules.Size + c
				p.Board.Squares[sq] = l
				loc.sqLine[sq], loc.sqCol[sq] = cp.lineNo, start+1
				c++
			default:
				return cp.errorf(start, "row %d: unknown character %s (want A-Z for a tile, a-z for a blank, a number for empty squares)",
					r+1, quoteRune(ch, w, row[i]))
			}
			i += w
		}
		if c < rules.Size {
			return cp.errorf(off+len(row), "row %d has %d squares, want %d", r+1, c, rules.Size)
		}
		off += len(row) + 1
	}
	return nil
}

func (cp *cgpParser) racks(f cgpField, p *Position, loc *location) error {
	parts := strings.Split(f.text, "/")
	if len(parts) < rules.MinPlayers {
		return cp.errorf(f.off, "racks %q: want RACK1/RACK2, one a player, 2 to %d (player to move first; an unknown rack is empty)", f.text, rules.MaxPlayers)
	}
	if len(parts) > rules.MaxPlayers {
		at := f.off + len(strings.Join(parts[:rules.MaxPlayers], "/")) + 1
		return cp.errorf(at, "racks %q: %d racks, but a game has %d to %d players (one rack each)", f.text, len(parts), rules.MinPlayers, rules.MaxPlayers)
	}
	if len(parts) != 2 {
		p.Seats = len(parts)
	}
	off := f.off
	for k, s := range parts {
		loc.rackCol[k] = off + 1
		var r rules.Rack
		n := 0
		for i := 0; i < len(s); {
			ch, w := utf8.DecodeRuneInString(s[i:])
			switch {
			case ch >= 'A' && ch <= 'Z':
				r[ch-'A'+1]++
			case ch == '?':
				r[0]++
			case ch >= 'a' && ch <= 'z':
				return cp.errorf(off+i, "rack %d: lower-case %q; write tiles in upper case and a blank as '?'", k+1, ch)
			default:
				return cp.errorf(off+i, "rack %d: unknown character %s (want A-Z or '?' for a blank)", k+1, quoteRune(ch, w, s[i]))
			}
			if n++; n > rules.TileCount() {
				return cp.errorf(off, "rack %d has more tiles than the whole set (%d)", k+1, rules.TileCount())
			}
			i += w
		}
		p.Racks[k] = r
		off += len(s) + 1
	}
	return nil
}

// MaxScore is the largest score, positive or negative, a position may
// give a player: far above any real game's, small enough that spreads and
// sums of scores never overflow.
const MaxScore = 1_000_000

func (cp *cgpParser) scores(f cgpField, p *Position) error {
	parts := strings.Split(f.text, "/")
	if n := p.Players(); len(parts) != n {
		want := make([]string, n)
		for k := range want {
			want[k] = "SCORE" + strconv.Itoa(k+1)
		}
		return cp.errorf(f.off, "scores %q: %d for %d racks: want %s, one a rack in the same order",
			f.text, len(parts), n, strings.Join(want, "/"))
	}
	off := f.off
	for k, s := range parts {
		n, err := strconv.Atoi(s)
		if err != nil {
			return cp.errorf(off, "score %d %q is not a whole number", k+1, s)
		}
		if n < -MaxScore || n > MaxScore {
			return cp.errorf(off, "score %d %s is out of range (from -%d to %d)", k+1, s, MaxScore, MaxScore)
		}
		p.Scores[k] = n
		off += len(s) + 1
	}
	return nil
}

// opcodes reads "name operand...;" items from line[off:].
func (cp *cgpParser) opcodes(line string, off int, p *Position, loc *location) error {
	s := line[off:]
	seenLM := false
	for len(s) > 0 {
		seg, next, ended := s, "", false
		if i := strings.IndexByte(s, ';'); i >= 0 {
			seg, next, ended = s[:i], s[i+1:], true
		}
		words := strings.Fields(seg)
		if len(words) == 0 {
			if !ended {
				break // trailing spaces
			}
			return cp.errorf(off+len(seg), "empty opcode (a ';' with no name before it)")
		}
		op := Opcode{Name: words[0]}
		if len(words) > 1 {
			op.Operands = words[1:]
		}
		if op.Name == "lex" {
			if len(op.Operands) != 1 {
				return cp.errorf(off+strings.Index(seg, "lex"), "lex opcode needs exactly one operand, the lexicon name; got %d", len(op.Operands))
			}
			if p.Lexicon != "" {
				return cp.errorf(off+strings.Index(seg, "lex"), "second lex opcode (the lexicon is already %s)", p.Lexicon)
			}
			p.Lexicon = op.Operands[0]
		}
		if op.Name == "lm" {
			at := off + strings.Index(seg, "lm")
			if seenLM {
				return cp.errorf(at, "second lm opcode (a position has one last move)")
			}
			seenLM = true
			loc.lmLine, loc.lmCol = cp.lineNo, at+1
			if _, err := parseLastMove(op.Operands); err != nil {
				return cp.errorf(at, "%v", err)
			}
		}
		if err := checkRuleOpcode(op); err != nil {
			return cp.errorf(off+strings.Index(seg, op.Name), "%v", err)
		}
		p.Opcodes = append(p.Opcodes, op)
		off += len(seg) + 1
		s = next
	}
	return nil
}

// checkRuleOpcode checks the operands of the opcodes that set a rule: cr
// (the challenge rule, by the names rules.ParseChallengeRule reads) and
// mcnz (the scoreless turns that end the game, a positive number).
func checkRuleOpcode(op Opcode) error {
	switch op.Name {
	case "cr":
		if len(op.Operands) != 1 {
			return fmt.Errorf("cr opcode needs exactly one operand, the challenge rule; got %d", len(op.Operands))
		}
		if _, err := rules.ParseChallengeRule(op.Operands[0]); err != nil {
			return fmt.Errorf("cr opcode: %v", err)
		}
	case "mcnz":
		if len(op.Operands) != 1 || !isDigits(op.Operands[0]) || len(op.Operands[0]) > 3 || strings.Trim(op.Operands[0], "0") == "" {
			return fmt.Errorf("mcnz opcode needs one operand, the number of scoreless turns that end the game (1 to 999); got %q", strings.Join(op.Operands, " "))
		}
	}
	return nil
}

// CGP writes the position in canonical CGP: runs of empty squares as
// numbers, racks alphabetical with blanks last, opcodes in stored order.
// Lexicon is authoritative: a stored lex opcode is written with it (or left
// out when it is ""), and "lex NAME;" comes first when none is stored.
func (p *Position) CGP() string {
	var b strings.Builder
	for r := 0; r < rules.Size; r++ {
		if r > 0 {
			b.WriteByte('/')
		}
		run := 0
		for c := 0; c < rules.Size; c++ {
			l := p.Board.At(r, c)
			if l == rules.Empty {
				run++
				continue
			}
			if run > 0 {
				b.WriteString(strconv.Itoa(run))
				run = 0
			}
			b.WriteRune(l.Rune())
		}
		if run > 0 {
			b.WriteString(strconv.Itoa(run))
		}
	}
	n := p.Players()
	for k := range n {
		b.WriteByte(" /"[min(k, 1)])
		b.WriteString(p.Racks[k].String())
	}
	for k := range n {
		b.WriteByte(" /"[min(k, 1)])
		b.WriteString(strconv.Itoa(p.Scores[k]))
	}
	b.WriteString(" " + strconv.Itoa(p.ZeroTurns))

	hasLex := false
	for _, op := range p.Opcodes {
		if op.Name == "lex" {
			hasLex = true
		}
	}
	if p.Lexicon != "" && !hasLex {
		b.WriteString(" lex " + p.Lexicon + ";")
	}
	wroteLex := false
	for _, op := range p.Opcodes {
		if op.Name == "lex" {
			if p.Lexicon == "" || wroteLex {
				continue
			}
			wroteLex = true
			b.WriteString(" lex " + p.Lexicon + ";")
			continue
		}
		b.WriteString(" " + op.Name)
		for _, a := range op.Operands {
			b.WriteString(" " + a)
		}
		b.WriteByte(';')
	}
	return b.String()
}

// LastMoveKind says what the move in a CGP lm opcode did.
type LastMoveKind uint8

const (
	// LastPlay placed tiles (or, when ChallengedOff, tried to).
	LastPlay LastMoveKind = iota + 1
	// LastExchange swapped tiles with the bag.
	LastExchange
	// LastPass passed, or lost a turn on a challenge that failed.
	LastPass
)

// LastMove is the move that led to a position, as the CGP "lm" opcode
// writes it (the CGP spec's forms):
//
//	lm 8D WO.D;             a play: row first across, column first down; '.' a tile already on the board
//	lm 8D WO.D +5;          a play challenged in vain, with the bonus it earned (+0 for none)
//	lm challenge 8D WO.D;   a play challenged off: its tiles are back on the rack
//	lm -ABC;  lm -3;        an exchange, of the tiles or of a number of them
//	lm -;                   a pass (or a failed challenge)
//
// On input a play also reads as one operand, "8D.WO.D" (the coordinate, a
// '.', the tiles), and a tile already on the board as a letter in
// parentheses, "8D WO(R)D".
type LastMove struct {
	Kind LastMoveKind
	// Play is the play's main word: Tiles has a tile per square,
	// PlayedThrough for a square that already held one.
	Play rules.Play
	// ChallengedOff says the play was challenged off the board.
	ChallengedOff bool
	// HasBonus says the play was challenged in vain; Bonus is what that
	// earned.
	HasBonus bool
	Bonus    int
	// Exchanged holds an exchange's tiles when they are known; Count is the
	// number of tiles exchanged.
	Exchanged rules.Rack
	Count     int
}

// parseLastMove reads the operands of an lm opcode.
func parseLastMove(ops []string) (*LastMove, error) {
	if len(ops) == 0 {
		return nil, fmt.Errorf("lm opcode needs the last move, e.g. \"lm 8D WORD;\", \"lm -ABC;\" or \"lm -;\"")
	}
	m := &LastMove{}
	if ops[0] == "challenge" {
		m.ChallengedOff = true
		ops = ops[1:]
	}
	if k := len(ops); k > 1 && strings.HasPrefix(ops[k-1], "+") {
		n, err := strconv.Atoi(ops[k-1][1:])
		if err != nil || !isDigits(ops[k-1][1:]) {
			return nil, fmt.Errorf("lm challenge bonus %q is not +N (N 0 or more)", ops[k-1])
		}
		m.HasBonus, m.Bonus = true, n
		ops = ops[:k-1]
	}
	if len(ops) == 1 && strings.HasPrefix(ops[0], "-") {
		if m.ChallengedOff || m.HasBonus {
			return nil, fmt.Errorf("lm %q: only a play can be challenged", strings.Join(ops, " "))
		}
		s := ops[0][1:]
		switch {
		case s == "":
			m.Kind = LastPass
		case s[0] >= '0' && s[0] <= '9':
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 || n > rules.RackSize {
				return nil, fmt.Errorf("lm exchange %q: the number of tiles must be 1 to %d", ops[0], rules.RackSize)
			}
			m.Kind, m.Count = LastExchange, n
		default:
			r, err := rules.ParseRack(s)
			if err != nil {
				return nil, fmt.Errorf("lm exchange %q: %v", ops[0], err)
			}
			if r.Count() > rules.RackSize {
				return nil, fmt.Errorf("lm exchange %q: more than %d tiles", ops[0], rules.RackSize)
			}
			m.Kind, m.Exchanged, m.Count = LastExchange, r, r.Count()
		}
		return m, nil
	}
	var coord, tiles string
	switch len(ops) {
	case 1:
		// "8D.WORD": the coordinate, a '.', the tiles.
		i := strings.IndexByte(ops[0], '.')
		if i < 0 {
			return nil, fmt.Errorf("lm %q: want a coordinate and tiles, e.g. \"8D WORD\"", ops[0])
		}
		coord, tiles = ops[0][:i], ops[0][i+1:]
	case 2:
		coord, tiles = ops[0], ops[1]
	default:
		return nil, fmt.Errorf("lm %q: want a play (\"8D WORD\"), an exchange (\"-ABC\" or \"-3\") or a pass (\"-\")", strings.Join(ops, " "))
	}
	row, col, dir, ok := rules.ParseCoordinate(coord)
	if !ok {
		return nil, fmt.Errorf("lm coordinate %q: want row then column for across (8D) or column then row for down (D8)", coord)
	}
	m.Kind = LastPlay
	m.Play = rules.Play{Row: row, Col: col, Dir: dir}
	placed := 0
	through := false
	for i := 0; i < len(tiles); i++ {
		ch := tiles[i]
		switch {
		case ch == '(' && !through:
			through = true
			continue
		case ch == ')' && through:
			through = false
			continue
		case ch == '.' && !through:
			m.Play.Tiles = append(m.Play.Tiles, rules.PlayedThrough)
			continue
		}
		l, ok := rules.LetterFromRune(rune(ch))
		if !ok || l == rules.Blank {
			return nil, fmt.Errorf("lm tiles %q: unexpected %q (want A-Z, a-z for a blank, '.' or (X) for a tile on the board)", tiles, ch)
		}
		if through {
			l = rules.PlayedThrough
		} else {
			placed++
		}
		m.Play.Tiles = append(m.Play.Tiles, l)
	}
	if through {
		return nil, fmt.Errorf("lm tiles %q: '(' without ')'", tiles)
	}
	if placed == 0 {
		return nil, fmt.Errorf("lm tiles %q: a play places at least one tile", tiles)
	}
	dr, dc := dir.Step()
	if n := len(m.Play.Tiles); !rules.InBounds(row+(n-1)*dr, col+(n-1)*dc) {
		return nil, fmt.Errorf("lm %s %s runs off the board", coord, tiles)
	}
	return m, nil
}

// Operands returns the move as the operands of an lm opcode, in the CGP
// spec's form ("8D", "WO.D"; "-ABC"; "-").
func (m *LastMove) Operands() []string {
	switch m.Kind {
	case LastPass:
		return []string{"-"}
	case LastExchange:
		if m.Exchanged.Count() > 0 {
			return []string{"-" + m.Exchanged.String()}
		}
		return []string{"-" + strconv.Itoa(m.Count)}
	}
	var ops []string
	if m.ChallengedOff {
		ops = append(ops, "challenge")
	}
	var tiles strings.Builder
	for _, t := range m.Play.Tiles {
		if t == rules.PlayedThrough {
			tiles.WriteByte('.')
		} else {
			tiles.WriteRune(t.Rune())
		}
	}
	ops = append(ops, m.Play.Coordinate(), tiles.String())
	if m.HasBonus {
		ops = append(ops, "+"+strconv.Itoa(m.Bonus))
	}
	return ops
}

// String is the move as written in an lm opcode: "8D WO.D", "-3", "-".
func (m *LastMove) String() string { return strings.Join(m.Operands(), " ") }

// NewSquares returns the squares (row*Size+col) on which the move put
// tiles: none for an exchange, a pass or a play challenged off.
func (m *LastMove) NewSquares() []int {
	if m.Kind != LastPlay || m.ChallengedOff {
		return nil
	}
	dr, dc := m.Play.Dir.Step()
	var sq []int
	for i, t := range m.Play.Tiles {
		if t != rules.PlayedThrough {
			sq = append(sq, (m.Play.Row+i*dr)*rules.Size+m.Play.Col+i*dc)
		}
	}
	return sq
}

// LastMove returns the move of the position's lm opcode, nil when it has
// none.
func (p *Position) LastMove() (*LastMove, error) {
	for _, op := range p.Opcodes {
		if op.Name == "lm" {
			return parseLastMove(op.Operands)
		}
	}
	return nil, nil
}

// SetLastMove sets the lm opcode to m, in place of any there is; nil
// removes it.
func (p *Position) SetLastMove(m *LastMove) {
	ops := p.Opcodes[:0:0]
	done := false
	for _, op := range p.Opcodes {
		if op.Name != "lm" {
			ops = append(ops, op)
		} else if m != nil && !done {
			ops = append(ops, Opcode{Name: "lm", Operands: m.Operands()})
			done = true
		}
	}
	if m != nil && !done {
		ops = append(ops, Opcode{Name: "lm", Operands: m.Operands()})
	}
	if len(ops) == 0 {
		ops = nil
	}
	p.Opcodes = ops
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// SetLastMoveText sets the lm opcode to the move text, written as the
// opcode's operands are ("8D WO.D", "-ABC", "-"; see ParseLastMove), and
// checks the position with it. On an error, which says whether text is not
// a last move or does not fit the board, p is unchanged.
func (p *Position) SetLastMoveText(text string) error {
	lm, err := ParseLastMove(text)
	if err != nil {
		return err
	}
	q := *p // SetLastMove makes a new opcode list: p's is untouched
	q.SetLastMove(lm)
	if err := q.Validate(); err != nil {
		return fmt.Errorf("does not fit the position: %w", err)
	}
	*p = q
	return nil
}

// ParseLastMove reads a last move as an lm opcode's operands write it
// ("8D WO.D", "8D WO(R)D +5", "challenge 8D WO.D", "-ABC", "-3", "-"),
// separated by spaces, without the opcode's name or ';'. It checks only
// the form; Validate checks a position's move against its board.
func ParseLastMove(s string) (*LastMove, error) {
	return parseLastMove(strings.Fields(s))
}
