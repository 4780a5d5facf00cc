package position

import (
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"scrabble/rules"
)

// posWantErr checks that err is a *Error at line:col whose message
// contains every one of want.
func posWantErr(t *testing.T, err error, line, col int, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one at %d:%d containing %q", line, col, want)
	}
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *Error", err, err)
	}
	if pe.Line != line || pe.Col != col {
		t.Errorf("error %q at %d:%d, want %d:%d", err, pe.Line, pe.Col, line, col)
	}
	for _, w := range want {
		if !strings.Contains(pe.Msg, w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
}

// posBoard builds a board from "8H" style squares and words written from
// them (across unless the square is written column first, "H8").
func posBoard(t *testing.T, plays ...string) rules.Board {
	t.Helper()
	var b rules.Board
	for _, pl := range plays {
		sq, word, _ := strings.Cut(pl, " ")
		var row, col int
		across := sq[0] >= '0' && sq[0] <= '9'
		if across {
			for _, ch := range sq[:len(sq)-1] {
				row = row*10 + int(ch-'0')
			}
			col = int(sq[len(sq)-1] - 'A')
		} else {
			col = int(sq[0] - 'A')
			for _, ch := range sq[1:] {
				row = row*10 + int(ch-'0')
			}
		}
		row--
		ls, err := rules.ParseWord(word)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ls {
			b.Set(row, col, l)
			if across {
				col++
			} else {
				row++
			}
		}
	}
	return b
}

func TestPositionErrorString(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{"a.txt", 3, 7, "bad"}, "a.txt:3:7: bad"},
		{Error{"a.txt", 3, 0, "bad"}, "a.txt:3: bad"},
		{Error{"a.txt", 0, 0, "bad"}, "a.txt: bad"},
		{Error{"a.txt", 0, 5, "bad"}, "a.txt: bad"},
		{Error{"", 3, 7, "bad"}, "3:7: bad"},
		{Error{"", 0, 0, "bad"}, "bad"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v.Error() = %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestValidateOK(t *testing.T) {
	for name, p := range map[string]*Position{
		"empty":  {},
		"first":  {Board: posBoard(t, "8G CAT"), Racks: [rules.MaxPlayers]rules.Rack{{0, 1}}},
		"blanks": {Board: posBoard(t, "8H qI", "H9 zZ")},
		"full racks": {Board: posBoard(t, "8E QUIZ"),
			Racks: [rules.MaxPlayers]rules.Rack{posRack(t, "AEINRST"), posRack(t, "??EEEEE")}, ZeroTurns: 3},
	} {
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func posRack(t *testing.T, s string) rules.Rack {
	t.Helper()
	r, err := rules.ParseRack(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestValidateErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		p         Position
		line, col int
		want      []string
	}{
		{"invalid letter", Position{Board: func() rules.Board { b := posBoard(t, "8H AB"); b.Set(7, 8, 27); return b }()},
			8, 9, []string{"8I", "invalid letter"}},
		{"bare blank bit", Position{Board: func() rules.Board { b := posBoard(t, "8H AB"); b.Set(7, 8, rules.BlankBit); return b }()},
			8, 9, []string{"8I", "0x80"}},
		{"too many Qs on board", Position{Board: posBoard(t, "8H QAQ")},
			8, 10, []string{"too many Qs: 2 on the board/racks, the set has 1"}},
		{"too many Zs with racks", Position{Board: posBoard(t, "8H ZA"), Racks: [rules.MaxPlayers]rules.Rack{posRack(t, "Z")}},
			0, 0, []string{"too many Zs: 2", "the set has 1"}},
		{"too many Xs in rack 2", Position{Board: posBoard(t, "8H AX"), Racks: [rules.MaxPlayers]rules.Rack{{}, posRack(t, "X")}},
			0, 0, []string{"too many Xs: 2"}},
		{"too many blanks", Position{Board: posBoard(t, "8H abc")},
			8, 10, []string{"too many blanks", "3 on the board/racks", "the set has 2"}},
		{"too many Es", Position{Racks: [rules.MaxPlayers]rules.Rack{posRack(t, "EEEEEEE"), posRack(t, "EEEEEE")}},
			0, 0, []string{"too many Es: 13", "the set has 12"}},
		{"rack 1 over 7", Position{Racks: [rules.MaxPlayers]rules.Rack{posRack(t, "AEINRSTT")}},
			0, 0, []string{"rack 1", "8 tiles", "at most 7"}},
		{"rack 2 over 7", Position{Racks: [rules.MaxPlayers]rules.Rack{{}, posRack(t, "??AEINRS")}},
			0, 0, []string{"rack 2", "8 tiles"}},
		{"negative zero turns", Position{ZeroTurns: -1},
			0, 0, []string{"scoreless turns -1"}},
		{"centre empty", Position{Board: posBoard(t, "1A CAT")},
			8, 8, []string{"centre square 8H is empty"}},
		{"single tile", Position{Board: posBoard(t, "8H Q")},
			8, 8, []string{"single tile", "Q on 8H"}},
		{"disconnected across", Position{Board: posBoard(t, "8G CAT", "3B OX")},
			3, 2, []string{"tile O at 3B", "row 3, column 2", "not connected"}},
		{"disconnected diagonal", Position{Board: posBoard(t, "8G CAT", "9J S")},
			9, 10, []string{"tile S at 9J", "row 9, column 10"}},
		{"disconnected far corner", Position{Board: posBoard(t, "H7 DOG", "15N yo")},
			15, 14, []string{"tile y at 15N", "row 15, column 14"}},
		{"bad opcode name", Position{Opcodes: []Opcode{{Name: "a b"}}},
			0, 0, []string{`opcode name "a b"`}},
		{"bad operand", Position{Opcodes: []Opcode{{Name: "bb", Operands: []string{"5;0"}}}},
			0, 0, []string{`operand "5;0"`}},
		{"bad lexicon", Position{Lexicon: "NWL 23"},
			0, 0, []string{`lexicon name "NWL 23"`}},
		{"five players", Position{Seats: 5},
			0, 0, []string{"5 players", "2 to 4"}},
		{"one player", Position{Seats: 1},
			0, 0, []string{"1 players", "2 to 4"}},
		{"rack 3 of two players", Position{Racks: [rules.MaxPlayers]rules.Rack{{}, {}, posRack(t, "A")}},
			0, 0, []string{"rack 3 (A) given", "2 players"}},
		{"score 4 of three players", Position{Seats: 3, Scores: [rules.MaxPlayers]int{1, 2, 3, 4}},
			0, 0, []string{"score 4 (4) given", "3 players"}},
		{"too many Es over 3 racks", Position{Seats: 3, Racks: [rules.MaxPlayers]rules.Rack{posRack(t, "EEEEE"), posRack(t, "EEEE"), posRack(t, "EEEE")}},
			0, 0, []string{"too many Es: 13", "the set has 12"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			posWantErr(t, tc.p.Validate(), tc.line, tc.col, tc.want...)
		})
	}
}

func TestParsePositionErrorsLocated(t *testing.T) {
	// A grid with comments and spaces: board errors point into the file.
	grid := func(rows map[int]string) string {
		var sb strings.Builder
		sb.WriteString("# comment\n\n")
		for r := 1; r <= rules.Size; r++ {
			row, ok := rows[r]
			if !ok {
				row = ". . . . . . . . . . . . . . ."
			}
			sb.WriteString(row + "\n")
		}
		return sb.String()
	}
	for _, tc := range []struct {
		name, data string
		line, col  int
		want       []string
	}{
		{"grid disconnected", grid(map[int]string{
			3: ". X . . . . . . . . . . . . .",
			8: ". . . . . . C A T . . . . . ."}),
			5, 3, []string{"tile X at 3B", "not connected"}},
		{"grid no centre", grid(map[int]string{1: "C A T . . . . . . . . . . . ."}),
			10, 15, []string{"centre square 8H"}},
		{"grid too many", grid(map[int]string{8: ". . . . . . . Z Z . . . . . ."}),
			10, 17, []string{"too many Zs: 2"}},
		{"grid syntax", grid(map[int]string{4: ". . . . . . . . . . . . . . !"}),
			6, 29, []string{"'!'"}},
		{"cgp disconnected", "# c\n15/1X13/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 /\n",
			2, 5, []string{"tile X at 2B"}},
		{"cgp no centre", "15/15/15/15/15/15/15/CAT12/15/15/15/15/15/15/15 /\n",
			1, 25, []string{"centre square 8H"}},
		{"cgp too many in rack", "15/15/15/15/15/15/15/6QI7/15/15/15/15/15/15/15 AEQ/ 0/0 0\n",
			1, 48, []string{"too many Qs: 2"}},
		{"cgp too many in rack 2", "15/15/15/15/15/15/15/6QI7/15/15/15/15/15/15/15 AE/Q 0/0 0\n",
			1, 51, []string{"too many Qs: 2"}},
		{"cgp rack too long", "15/15/15/15/15/15/15/6QI7/15/15/15/15/15/15/15 AE/AEINRSTT 0/0 0\n",
			1, 51, []string{"rack 2", "8 tiles"}},
		{"cgp syntax", "\n15/15/15/15/15/15/15/6QI7/15/15/15/15/15/15/15 AE/AE x/0 0\n",
			2, 54, []string{"score 1", `"x"`}},
		// Four players: the Q of rack 3 is the one too many; rack 4's
		// eight tiles.
		{"cgp 4 players too many in rack 3", "15/15/15/15/15/15/15/6QI7/15/15/15/15/15/15/15 AE/B/XQ/ 0/0/0/0 0\n",
			1, 53, []string{"too many Qs: 2"}},
		{"cgp 3 players too many over the racks", "15/15/15/15/15/15/15/6QI7/15/15/15/15/15/15/15 ZEE/ZA/E 0/0/0 0\n",
			1, 52, []string{"too many Zs: 2", "the set has 1"}},
		{"cgp 4 players rack 4 too long", "15/15/15/15/15/15/15/6QI7/15/15/15/15/15/15/15 A/B/C/AEINRSTT 0/0/0/0 0\n",
			1, 54, []string{"rack 4 (fourth to move)", "8 tiles"}},
		{"cgp 3 players rack 2 too long", "15/15/15/15/15/15/15/6QI7/15/15/15/15/15/15/15 A/AEINRSTT/C 0/0/0 0\n",
			1, 50, []string{"rack 2 (second to move)", "8 tiles"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse("f", []byte(tc.data))
			if p != nil {
				t.Errorf("got a position with the error")
			}
			posWantErr(t, err, tc.line, tc.col, tc.want...)
			if err != nil && !strings.HasPrefix(err.Error(), "f:") {
				t.Errorf("error %q does not start with the file name", err)
			}
		})
	}
}

func TestParsePositionDetects(t *testing.T) {
	cgp := "# a comment\n\n  15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 AEINRST/ 12/0 0 lex NWL23;\r\n\n"
	p, err := Parse("c", []byte(cgp))
	if err != nil {
		t.Fatal(err)
	}
	if p.Lexicon != "NWL23" || p.Scores != [rules.MaxPlayers]int{12, 0} || p.Board.At(7, 7) != 1 {
		t.Errorf("parsed %+v", p)
	}
	g := strings.Repeat("...............\n", 7) + "......CAT......\n" + strings.Repeat("...............\n", 7)
	q, err := Parse("g", []byte(g))
	if err != nil {
		t.Fatal(err)
	}
	if q.Board != p.Board {
		t.Errorf("grid and CGP boards differ")
	}
}

func TestMidgameTestdata(t *testing.T) {
	gridData, err := os.ReadFile("../rules/testdata/midgame.txt")
	if err != nil {
		t.Fatal(err)
	}
	cgpData, err := os.ReadFile("../rules/testdata/midgame.cgp")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse("../rules/testdata/midgame.txt", gridData)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse("../rules/testdata/midgame.cgp", cgpData)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, c) {
		t.Errorf("grid and CGP positions differ:\n%s\n%s", g.Board.GridString(), c.Board.GridString())
	}
	if got, want := g.CGP(), strings.TrimSpace(string(cgpData)); got != want {
		t.Errorf("CGP of the grid:\n%s\nwant\n%s", got, want)
	}
	if n := g.Board.TileCount(); n != 40 {
		t.Errorf("%d tiles, want 40", n)
	}
	if b := g.Board.TileCounts(); b[0] != 2 {
		t.Errorf("%d blanks, want 2", b[0])
	}
	// Every line of 2+ tiles is one of the words the file lists.
	words := map[string]bool{}
	for _, w := range strings.Fields("JOKED SKATE EXIT TOWN GRAIN JAB HOARD WHIP PLUM BAT MoVIE EARNs") {
		words[w] = true
	}
	for _, b := range []rules.Board{g.Board, g.Board.Transposed()} {
		for r := 0; r < rules.Size; r++ {
			var w []rules.Letter
			for c := 0; c <= rules.Size; c++ {
				if c < rules.Size && b.At(r, c) != rules.Empty {
					w = append(w, b.At(r, c))
					continue
				}
				if len(w) > 1 && !words[rules.WordString(w)] {
					t.Errorf("unexpected word %s", rules.WordString(w))
				}
				w = w[:0]
			}
		}
	}
}

// posRandomPosition makes a valid position: words of random tiles laid along
// lines through the centre or through tiles already placed, racks from what
// is left, random scores and opcodes.
func posRandomPosition(rng *rand.Rand) *Position {
	bag := rules.Distribution()
	draw := func() (rules.Letter, bool) {
		n := bag.Count()
		if n == 0 {
			return 0, false
		}
		k := rng.IntN(n)
		for i, c := range bag {
			if k < int(c) {
				bag[i]--
				return rules.Letter(i), true
			}
			k -= int(c)
		}
		panic("unreachable")
	}
	p := &Position{}
	b := &p.Board
	words := rng.IntN(16)
	for w := 0; w < words; w++ {
		ar, ac := rules.CenterRow, rules.CenterCol
		if w > 0 {
			for {
				sq := rng.IntN(rules.Squares)
				if b.Squares[sq] != rules.Empty {
					ar, ac = sq/rules.Size, sq%rules.Size
					break
				}
			}
		}
		dr, dc := 0, 1
		if rng.IntN(2) == 0 {
			dr, dc = 1, 0
		}
		length := 2 + rng.IntN(6) // at most 7: the first word is never clipped
		back := rng.IntN(length)
		for i := 0; i < length; i++ {
			r, c := ar+(i-back)*dr, ac+(i-back)*dc
			if !rules.InBounds(r, c) || b.At(r, c) != rules.Empty {
				continue
			}
			l, ok := draw()
			if !ok {
				break
			}
			if l == rules.Blank {
				l = rules.Letter(1 + rng.IntN(rules.NumLetters)).Blanked()
			}
			b.Set(r, c, l)
		}
	}
	n := rules.MinPlayers + rng.IntN(rules.MaxPlayers-rules.MinPlayers+1)
	if n != 2 {
		p.Seats = n
	}
	for k := range n {
		if rng.IntN(4) == 0 {
			continue // unknown rack
		}
		for n := rng.IntN(rules.RackSize + 1); n > 0; n-- {
			if l, ok := draw(); ok {
				p.Racks[k].Add(l)
			}
		}
	}
	for k := range n {
		p.Scores[k] = rng.IntN(700) - 50
	}
	p.ZeroTurns = rng.IntN(7)
	ops := []Opcode{
		{"lex", []string{"NWL23"}}, {"ld", []string{"english"}}, {"bb", []string{"50"}},
		{"cr", []string{"double"}}, {"etl", []string{"7"}}, {"mcnz", []string{"6"}},
		{"lm", []string{"-3"}}, {"bare", nil}, {"two", []string{"x", "y"}},
	}
	for _, i := range rng.Perm(len(ops))[:rng.IntN(4)] {
		op := ops[i]
		if op.Name == "lex" {
			p.Lexicon = op.Operands[0]
		}
		p.Opcodes = append(p.Opcodes, op)
	}
	return p
}

func TestRandomPositionsValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 500; i++ {
		p := posRandomPosition(rng)
		if err := p.Validate(); err != nil {
			t.Fatalf("%v\n%s", err, p.Board.GridString())
		}
	}
}
