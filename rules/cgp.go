package rules

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseCGP reads a position in CGP, the one-line format
//
//	ROW/ROW/.../ROW RACK1/RACK2 SCORE1/SCORE2 ZEROTURNS [OPCODE;]...
//
// Rows run top to bottom: upper case for a tile, lower case for a blank
// standing for that letter, a number for that many empty squares. Racks are
// upper case with '?' for a blank, the player to move first; an unknown rack
// is empty. Scores may be negative. Each opcode is a name and operands
// separated by spaces and ended by ';' (the last ';' may be left out), e.g.
// "lex NWL23;". The board is required; racks, scores and the zero-turn count
// may be left off at the end (empty racks, zero). ParseCGP does not validate
// the position (ParsePosition does). Errors are *PositionError on line 1 with
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
	return &PositionError{File: cp.file, Line: cp.lineNo, Col: off + 1, Msg: fmt.Sprintf(format, args...)}
}

// cgpField is a whitespace-separated field and its byte offset in the line.
type cgpField struct {
	text string
	off  int
}

func parseCGP(file string, lineNo int, line string) (*Position, *posLoc, error) {
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
	loc := &posLoc{}
	if err := cp.board(fields[0], p, loc); err != nil {
		return nil, nil, err
	}
	if len(fields) > 1 {
		if err := cp.racks(fields[1], p, loc); err != nil {
			return nil, nil, err
		}
	} else {
		loc.rackCol = [2]int{len(line) + 1, len(line) + 1}
	}
	loc.rackLine = [2]int{lineNo, lineNo}
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
	if err := cp.opcodes(line, rest, p); err != nil {
		return nil, nil, err
	}
	return p, loc, nil
}

func (cp *cgpParser) board(f cgpField, p *Position, loc *posLoc) error {
	rows := strings.Split(f.text, "/")
	if len(rows) != Size {
		off := f.off + len(f.text)
		if len(rows) > Size {
			off = f.off + len(strings.Join(rows[:Size], "/"))
		}
		return cp.errorf(off, "board has %d rows, want %d separated by '/'", len(rows), Size)
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
					if n > Size {
						break
					}
					j++
				}
				if n == 0 {
					return cp.errorf(start, "row %d: %s is not a number of empty squares (1-%d)", r+1, row[i:j], Size)
				}
				if c+n > Size {
					return cp.errorf(start, "row %d has more than %d squares", r+1, Size)
				}
				for k := 0; k < n; k++ {
					sq := r*Size + c
					loc.sqLine[sq], loc.sqCol[sq] = cp.lineNo, start+1
					c++
				}
				i = j
				continue
			case ch >= 'A' && ch <= 'Z', ch >= 'a' && ch <= 'z':
				if c == Size {
					return cp.errorf(start, "row %d has more than %d squares", r+1, Size)
				}
				l, _ := LetterFromRune(ch)
				sq := r*Size + c
				p.Board.Squares[sq] = l
				loc.sqLine[sq], loc.sqCol[sq] = cp.lineNo, start+1
				c++
			default:
				return cp.errorf(start, "row %d: unknown character %s (want A-Z for a tile, a-z for a blank, a number for empty squares)",
					r+1, posQuoteRune(ch, w, row[i]))
			}
			i += w
		}
		if c < Size {
			return cp.errorf(off+len(row), "row %d has %d squares, want %d", r+1, c, Size)
		}
		off += len(row) + 1
	}
	return nil
}

func (cp *cgpParser) racks(f cgpField, p *Position, loc *posLoc) error {
	parts := strings.Split(f.text, "/")
	if len(parts) != 2 {
		return cp.errorf(f.off, "racks %q: want RACK1/RACK2 (player to move first; an unknown rack is empty)", f.text)
	}
	off := f.off
	for k, s := range parts {
		loc.rackCol[k] = off + 1
		var r Rack
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
				return cp.errorf(off+i, "rack %d: unknown character %s (want A-Z or '?' for a blank)", k+1, posQuoteRune(ch, w, s[i]))
			}
			if n++; n > TileCount() {
				return cp.errorf(off, "rack %d has more tiles than the whole set (%d)", k+1, TileCount())
			}
			i += w
		}
		p.Racks[k] = r
		off += len(s) + 1
	}
	return nil
}

func (cp *cgpParser) scores(f cgpField, p *Position) error {
	parts := strings.Split(f.text, "/")
	if len(parts) != 2 {
		return cp.errorf(f.off, "scores %q: want SCORE1/SCORE2", f.text)
	}
	off := f.off
	for k, s := range parts {
		n, err := strconv.Atoi(s)
		if err != nil {
			return cp.errorf(off, "score %d %q is not a whole number", k+1, s)
		}
		p.Scores[k] = n
		off += len(s) + 1
	}
	return nil
}

// opcodes reads "name operand...;" items from line[off:].
func (cp *cgpParser) opcodes(line string, off int, p *Position) error {
	s := line[off:]
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
		p.Opcodes = append(p.Opcodes, op)
		off += len(seg) + 1
		s = next
	}
	return nil
}

// CGP writes the position in canonical CGP: runs of empty squares as
// numbers, racks alphabetical with blanks last, opcodes in stored order.
// Lexicon is authoritative: a stored lex opcode is written with it (or left
// out when it is ""), and "lex NAME;" comes first when none is stored.
func (p *Position) CGP() string {
	var b strings.Builder
	for r := 0; r < Size; r++ {
		if r > 0 {
			b.WriteByte('/')
		}
		run := 0
		for c := 0; c < Size; c++ {
			l := p.Board.At(r, c)
			if l == Empty {
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
	fmt.Fprintf(&b, " %s/%s %d/%d %d", p.Racks[0], p.Racks[1], p.Scores[0], p.Scores[1], p.ZeroTurns)

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
