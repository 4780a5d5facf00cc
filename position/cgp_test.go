package position

import (
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"scrabble/rules"
)

const posCATExample = "15/15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15 AEINRST/ 12/0 0 lex NWL23;"

// posCGPBoard is the board field of an empty board with the given 1-based
// rows replaced.
func posCGPBoard(rows map[int]string) string {
	parts := make([]string, rules.Size)
	for r := range parts {
		parts[r] = "15"
		if row, ok := rows[r+1]; ok {
			parts[r] = row
		}
	}
	return strings.Join(parts, "/")
}

func TestParseCGPExample(t *testing.T) {
	p, err := ParseCGP("x", posCATExample)
	if err != nil {
		t.Fatal(err)
	}
	want := &Position{
		Board:   posBoard(t, "8H CAT"),
		Racks:   [rules.MaxPlayers]rules.Rack{posRack(t, "AEINRST")},
		Scores:  [rules.MaxPlayers]int{12, 0},
		Lexicon: "NWL23",
		Opcodes: []Opcode{{"lex", []string{"NWL23"}}},
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("got %+v\nwant %+v", p, want)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
}

func TestParseCGPLenient(t *testing.T) {
	board := posCGPBoard(map[int]string{8: "6CAt6"})
	full := &Position{
		Board:     posBoard(t, "8G CAt"),
		Racks:     [rules.MaxPlayers]rules.Rack{posRack(t, "EIQ?"), posRack(t, "AB")},
		Scores:    [rules.MaxPlayers]int{-5, 30},
		ZeroTurns: 2,
		Lexicon:   "CSW21",
		Opcodes:   []Opcode{{"lex", []string{"CSW21"}}, {"bb", []string{"50"}}},
	}
	for _, tc := range []struct {
		in   string
		want *Position
	}{
		{board, &Position{Board: full.Board}},
		{"  " + board + "  \r\n", &Position{Board: full.Board}},
		{board + " ?QIE/BA", &Position{Board: full.Board, Racks: full.Racks}},
		{board + " ?QIE/BA -5/+30", &Position{Board: full.Board, Racks: full.Racks, Scores: full.Scores}},
		{board + " EIQ?/AB -5/30 2", &Position{Board: full.Board, Racks: full.Racks, Scores: full.Scores, ZeroTurns: 2}},
		{board + " EIQ?/AB -5/30 2 lex CSW21; bb 50;", full},
		{board + "\tEIQ?/AB  -5/30 2  lex   CSW21 ;bb 50", full},
		{board + " EIQ?/AB -5/30 2 lex CSW21;bb\t50;   ", full},
		{strings.Replace(board, "6CAt6", "006CAt06", 1), &Position{Board: full.Board}},
	} {
		p, err := ParseCGP("x", tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(p, tc.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.in, p, tc.want)
		}
	}
}

func TestParseCGPErrors(t *testing.T) {
	board := posCGPBoard(map[int]string{8: "7CAT5"}) // 47 bytes
	for _, tc := range []struct {
		name, in string
		col      int
		want     []string
	}{
		{"empty", "", 1, []string{"empty CGP"}},
		{"spaces", "   ", 1, []string{"empty CGP"}},
		{"too few rows", "15/15/15", 9, []string{"board has 3 rows", "want 15"}},
		{"too many rows", board + "/15", 48, []string{"board has 16 rows"}},
		{"row too short", posCGPBoard(map[int]string{2: "14"}), 6, []string{"row 2 has 14 squares", "want 15"}},
		{"empty row", posCGPBoard(map[int]string{3: ""}), 7, []string{"row 3 has 0 squares"}},
		{"row too long number", posCGPBoard(map[int]string{2: "7CAT6"}), 8, []string{"row 2 has more than 15 squares"}},
		{"row too long letter", posCGPBoard(map[int]string{1: "12CATS"}), 6, []string{"row 1 has more than 15 squares"}},
		{"big number", posCGPBoard(map[int]string{1: "16"}), 1, []string{"row 1 has more than 15 squares"}},
		{"huge number", posCGPBoard(map[int]string{1: "99999999999999999999999"}), 1, []string{"row 1 has more than 15"}},
		{"zero", posCGPBoard(map[int]string{4: "0A14"}), 10, []string{"row 4", "0 is not a number of empty squares"}},
		{"blank on board", posCGPBoard(map[int]string{8: "7?7"}), 23, []string{"row 8", "unknown character '?'"}},
		{"dot on board", posCGPBoard(map[int]string{15: "..............."}), 43, []string{"row 15", "unknown character '.'"}},
		{"invalid UTF-8", posCGPBoard(map[int]string{1: "\xfe14"}), 1, []string{"byte 0xfe"}},
		{"racks without slash", board + " AEINRST", 49, []string{`racks "AEINRST"`, "RACK1/RACK2"}},
		{"five racks", board + " A/B/C/D/E", 57, []string{`racks "A/B/C/D/E"`, "5 racks", "2 to 4 players"}},
		{"five empty racks", board + " ////", 53, []string{"5 racks"}},
		{"three racks, two scores", board + " A/B/C 1/2", 55, []string{`scores "1/2"`, "2 for 3 racks", "SCORE1/SCORE2/SCORE3"}},
		{"two racks, four scores", board + " A/B 1/2/3/4", 53, []string{"4 for 2 racks", "SCORE1/SCORE2,"}},
		{"four racks, bad score 4", board + " A/B/C/D 1/2/3/x", 63, []string{`score 4 "x"`}},
		{"bad character in rack 4", board + " A/B/C/D! 0/0/0/0", 56, []string{"rack 4", "unknown character '!'"}},
		{"lower-case rack", board + " AEiNRST/", 51, []string{"rack 1", "lower-case 'i'"}},
		{"bad rack character", board + " AE/X*", 53, []string{"rack 2", "unknown character '*'"}},
		{"huge rack", board + " " + strings.Repeat("E", 101) + "/", 49, []string{"rack 1 has more tiles than the whole set"}},
		{"scores without slash", board + " A/ 12", 52, []string{`scores "12"`, "SCORE1/SCORE2"}},
		{"bad score 1", board + " A/ x/0", 52, []string{`score 1 "x"`}},
		{"bad score 2", board + " A/ 10/1.5", 55, []string{`score 2 "1.5"`}},
		{"empty score", board + " A/ 10/", 55, []string{`score 2 ""`}},
		{"huge score 1", board + " A/ 9223372036854775807/0", 52, []string{"score 1 9223372036854775807 is out of range", "1000000"}},
		{"huge negative score 2", board + " A/ 0/-9223372036854775808", 54, []string{"score 2 -9223372036854775808 is out of range"}},
		{"score just too big", board + " A/ 1000001/0", 52, []string{"score 1 1000001 is out of range"}},
		{"bad zero turns", board + " A/ 0/0 two", 56, []string{`zero-turn count "two"`}},
		{"negative zero turns", board + " A/ 0/0 -1", 56, []string{`zero-turn count "-1"`}},
		{"opcode without zero turns", board + " A/ 0/0 lex NWL23;", 56, []string{`zero-turn count "lex"`}},
		{"empty opcode", board + " A/ 0/0 0 lex NWL23;; bb 50;", 68, []string{"empty opcode"}},
		{"lone semicolon", board + " A/ 0/0 0 ;", 58, []string{"empty opcode"}},
		{"lex without name", board + " A/ 0/0 0 bb 50; lex;", 65, []string{"lex opcode needs exactly one operand", "got 0"}},
		{"lex with two names", board + " A/ 0/0 0  lex A B;", 59, []string{"exactly one operand", "got 2"}},
		{"second lex", board + " A/ 0/0 0 lex A; lex B;", 65, []string{"second lex opcode", "already A"}},
		{"cr without a rule", board + " A/ 0/0 0 cr;", 58, []string{"cr opcode needs exactly one operand", "got 0"}},
		{"cr of an unknown rule", board + " A/ 0/0 0 lex A; cr triple;", 65, []string{"cr opcode", `unknown challenge rule "triple"`, "5pt"}},
		{"mcnz of zero", board + " A/ 0/0 0 mcnz 0;", 58, []string{"mcnz opcode", `"0"`}},
		{"mcnz not a number", board + " A/ 0/0 0 mcnz six;", 58, []string{"mcnz opcode", `"six"`}},
		{"mcnz of two numbers", board + " A/ 0/0 0 mcnz 6 7;", 58, []string{"mcnz opcode", `"6 7"`}},
		{"line break", board + " A/\n 0/0 0", 51, []string{"line break"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseCGP("c.cgp", tc.in)
			if p != nil {
				t.Errorf("got a position with the error")
			}
			posWantErr(t, err, 1, tc.col, tc.want...)
			if err != nil && !strings.HasPrefix(err.Error(), "c.cgp:1:") {
				t.Errorf("error %q does not start with the file and line", err)
			}
		})
	}
}

func TestCGPCanonicalRoundTrip(t *testing.T) {
	for _, s := range []string{
		posCATExample,
		posCGPBoard(nil) + " / 0/0 0",
		posCGPBoard(map[int]string{7: "7Q7", 8: "7I7", 9: "7s7", 10: "7H7"}) + " AEEST??/XYZ -12/345 5 ld english; bb 50; cr double; lex CSW21; etl 7; mcnz 6; lm 8D.TILES; note;",
		posCGPBoard(map[int]string{8: "ABCDEFGHIJKLMNO", 1: "O13a", 15: "1b12c"}) + " / 0/-3 0",
		strings.TrimSpace(posReadFile(t, "../rules/testdata/midgame.cgp")),
	} {
		p, err := ParseCGP("c", s)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if got := p.CGP(); got != s {
			t.Errorf("round trip:\n got %q\nwant %q", got, s)
		}
	}
}

// TestCGPPlayers reads and writes positions of 2 to 4 players: racks and
// scores in turn order from the player to move, unknown racks empty.
func TestCGPPlayers(t *testing.T) {
	board := posCGPBoard(map[int]string{8: "7CAT5"})
	for _, tc := range []struct {
		in, canonical string
		seats         int
		racks         []string
		scores        []int
	}{
		{board + " AEINRST/ 10/20 0", "", 0, []string{"AEINRST", ""}, []int{10, 20}},
		{board + " AEINRST/ABC/ 10/20/30 1", "", 3, []string{"AEINRST", "ABC", ""}, []int{10, 20, 30}},
		{board + " AEINRST/ABC// 10/20/30/40 0", "", 4, []string{"AEINRST", "ABC", "", ""}, []int{10, 20, 30, 40}},
		{board + " ?QIE/// -5/0/+7/300 5 lex NWL23;", board + " EIQ?/// -5/0/7/300 5 lex NWL23;", 4,
			[]string{"EIQ?", "", "", ""}, []int{-5, 0, 7, 300}},
		{board + " // 0/0/0 0", "", 3, []string{"", "", ""}, []int{0, 0, 0}},
		{board + " A/B/C", board + " A/B/C 0/0/0 0", 3, []string{"A", "B", "C"}, []int{0, 0, 0}},
	} {
		p, err := Parse("m.cgp", []byte(tc.in))
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if p.Seats != tc.seats || p.Players() != len(tc.racks) {
			t.Errorf("%q: Seats %d, Players %d; want %d, %d", tc.in, p.Seats, p.Players(), tc.seats, len(tc.racks))
		}
		for k := range rules.MaxPlayers {
			want, score := "", 0
			if k < len(tc.racks) {
				want, score = tc.racks[k], tc.scores[k]
			}
			if got := p.Racks[k].String(); got != want || p.Scores[k] != score {
				t.Errorf("%q: player %d has %q and %d; want %q and %d", tc.in, k+1, got, p.Scores[k], want, score)
			}
		}
		want := tc.canonical
		if want == "" {
			want = tc.in
		}
		if got := p.CGP(); got != want {
			t.Errorf("CGP:\n got %q\nwant %q", got, want)
		}
		q, err := Parse("again", []byte(p.CGP()))
		if err != nil || !reflect.DeepEqual(p, q) {
			t.Errorf("%q: round trip: %v\n got %+v\nwant %+v", tc.in, err, q, p)
		}
	}
}

func TestCGPLexicon(t *testing.T) {
	p := &Position{Board: posBoard(t, "8H AX"), Lexicon: "NWL23", Opcodes: []Opcode{{"bb", []string{"50"}}}}
	want := posCGPBoard(map[int]string{8: "7AX6"}) + " / 0/0 0 lex NWL23; bb 50;"
	if got := p.CGP(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// Lexicon wins over a stale lex opcode, and "" drops it.
	p.Opcodes = []Opcode{{"bb", []string{"50"}}, {"lex", []string{"OLD"}}}
	if got, want := p.CGP(), posCGPBoard(map[int]string{8: "7AX6"})+" / 0/0 0 bb 50; lex NWL23;"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	p.Lexicon = ""
	if got, want := p.CGP(), posCGPBoard(map[int]string{8: "7AX6"})+" / 0/0 0 bb 50;"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestCGPRandomRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 1000; i++ {
		p := posRandomPosition(rng)
		s := p.CGP()
		q, err := ParseCGP("r", s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip of %q:\n got %+v\nwant %+v", s, q, p)
		}
		if r, err := Parse("r", []byte(s+"\n")); err != nil || !reflect.DeepEqual(r, p) {
			t.Fatalf("Parse(%q): %v", s, err)
		}
	}
}

func posReadFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCGPLastMove reads every form of the lm opcode the CGP spec gives (and
// the input-only ones) into the move it describes.
func TestCGPLastMove(t *testing.T) {
	A, C, R, T, W := rules.Letter(1), rules.Letter(3), rules.Letter(18), rules.Letter(20), rules.Letter(23)
	across := func(row, col int, tiles ...rules.Letter) rules.Play {
		return rules.Play{Row: row, Col: col, Dir: rules.Across, Tiles: tiles}
	}
	down := func(row, col int, tiles ...rules.Letter) rules.Play {
		return rules.Play{Row: row, Col: col, Dir: rules.Down, Tiles: tiles}
	}
	for _, tc := range []struct {
		lm   string
		want LastMove
		ops  string // Operands, the spec's form
	}{
		{"8H CAT", LastMove{Kind: LastPlay, Play: across(7, 7, C, A, T)}, "8H CAT"},
		{"8H.CAT", LastMove{Kind: LastPlay, Play: across(7, 7, C, A, T)}, "8H CAT"},
		{"H8 CAT", LastMove{Kind: LastPlay, Play: down(7, 7, C, A, T)}, "H8 CAT"},
		{"15A WAR", LastMove{Kind: LastPlay, Play: across(14, 0, W, A, R)}, "15A WAR"},
		{"O1 caT", LastMove{Kind: LastPlay, Play: down(0, 14, C.Blanked(), A.Blanked(), T)}, "O1 caT"},
		{"7I .T", LastMove{Kind: LastPlay, Play: across(6, 8, rules.PlayedThrough, T)}, "7I .T"},
		{"7I (A)T", LastMove{Kind: LastPlay, Play: across(6, 8, rules.PlayedThrough, T)}, "7I .T"},
		{"8G W(CA).", LastMove{Kind: LastPlay, Play: across(7, 6, W, rules.PlayedThrough, rules.PlayedThrough, rules.PlayedThrough)}, "8G W..."},
		{"8H CAT +5", LastMove{Kind: LastPlay, Play: across(7, 7, C, A, T), HasBonus: true, Bonus: 5}, "8H CAT +5"},
		{"8H CAT +0", LastMove{Kind: LastPlay, Play: across(7, 7, C, A, T), HasBonus: true}, "8H CAT +0"},
		{"challenge 8H CAT", LastMove{Kind: LastPlay, Play: across(7, 7, C, A, T), ChallengedOff: true}, "challenge 8H CAT"},
		{"-", LastMove{Kind: LastPass}, "-"},
		{"-3", LastMove{Kind: LastExchange, Count: 3}, "-3"},
		{"-AA?", LastMove{Kind: LastExchange, Count: 3, Exchanged: rules.Rack{0: 1, 1: 2}}, "-AA?"},
	} {
		t.Run(tc.lm, func(t *testing.T) {
			p, err := ParseCGP("c", posCATExample+" lm "+tc.lm+";")
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.LastMove()
			if err != nil || m == nil {
				t.Fatalf("LastMove: %v, %v", m, err)
			}
			if !reflect.DeepEqual(*m, tc.want) {
				t.Errorf("got %+v\nwant %+v", *m, tc.want)
			}
			if got := m.String(); got != tc.ops {
				t.Errorf("String %q, want %q", got, tc.ops)
			}
			// The opcode is written back as it was read.
			if got, want := p.CGP(), posCATExample+" lm "+tc.lm+";"; got != want {
				t.Errorf("CGP %q, want %q", got, want)
			}
			// The spec's form reads back as the same move.
			q := &Position{}
			q.SetLastMove(m)
			if back, err := q.LastMove(); err != nil || !reflect.DeepEqual(back, m) {
				t.Errorf("Operands %q read back as %+v, %v", m.Operands(), back, err)
			}
		})
	}
	p, _ := ParseCGP("c", posCATExample)
	if m, err := p.LastMove(); m != nil || err != nil {
		t.Errorf("no lm: %v, %v", m, err)
	}
}

func TestCGPLastMoveErrors(t *testing.T) {
	prefix := posCATExample + " " // the opcodes start at byte len(prefix)+1
	at := len(prefix) + 1
	for _, tc := range []struct {
		name, ops string
		col       int
		want      string
	}{
		{"no operands", "lm;", at, "lm opcode needs the last move"},
		{"bad coordinate", "lm 8 CAT;", at, `lm coordinate "8"`},
		{"row 0", "lm 0H CAT;", at, `lm coordinate "0H"`},
		{"row 16", "lm 16H CAT;", at, `lm coordinate "16H"`},
		{"column P", "lm 8P CAT;", at, `lm coordinate "8P"`},
		{"off the board", "lm 8N CAT;", at, "runs off the board"},
		{"blank unnamed", "lm 8H C?T;", at, `unexpected '?'`},
		{"no new tile", "lm 8H ...;", at, "places at least one tile"},
		{"open paren", "lm 8H C(AT;", at, "'(' without ')'"},
		{"word alone", "lm CAT;", at, "want a coordinate and tiles"},
		{"three words", "lm 8H CAT DOG;", at, "want a play"},
		{"bad bonus", "lm 8H CAT +x;", at, `challenge bonus "+x"`},
		{"challenged exchange", "lm challenge -3;", at, "only a play can be challenged"},
		{"exchange of 8", "lm -8;", at, "1 to 7"},
		{"exchange of 0", "lm -0;", at, "1 to 7"},
		{"bad exchange tile", "lm -A*;", at, `lm exchange "-A*"`},
		{"second lm", "lm -; bb 50; lm -;", at + 13, "second lm opcode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCGP("c.cgp", prefix+tc.ops)
			posWantErr(t, err, 1, tc.col, tc.want)
		})
	}
}

// TestCGPLastMoveOnBoard: a play's new tiles must be on the board as the lm
// opcode gives them, and the tiles it plays through too.
func TestCGPLastMoveOnBoard(t *testing.T) {
	lmCol := len(posCATExample) + 2 // after the space
	for _, tc := range []struct {
		lm   string
		want string // "" for valid
	}{
		{"8H CAT", ""},
		{"8H.CAT", ""},
		{"8I .T", ""},
		{"8H (CA)T", ""},
		{"challenge 8A QUIZ", ""}, // its tiles went back to the rack
		{"-", ""},
		{"-TTTT", ""},
		{"-TTTTT", "5 Ts exchanged, but the set has 6 and the board and the rack to move hold 2"},
		{"8H CAt", "square 8J holds T, but the move put t there"},
		{"8H COT", "square 8I holds A, but the move put O there"},
		{"8G SCAT", "square 8G holds nothing, but the move put S there"},
		{"8H CAT.", "square 8K is empty, but the move plays through a tile there"},
		{"H8 CAT", "square 9H holds nothing"},
	} {
		t.Run(tc.lm, func(t *testing.T) {
			_, err := Parse("p.cgp", []byte(posCATExample+" lm "+tc.lm+";"))
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			posWantErr(t, err, 1, lmCol, tc.want)
		})
	}
	// Validate checks a position built in code the same way.
	p, _ := ParseCGP("c", posCATExample)
	p.SetLastMove(&LastMove{Kind: LastPlay, Play: rules.Play{Row: 7, Col: 7, Dir: rules.Down, Tiles: []rules.Letter{3, 1}}})
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "square 9H holds nothing") {
		t.Errorf("Validate: %v", err)
	}
	p.Opcodes = append(p.Opcodes, Opcode{Name: "lm", Operands: []string{"-"}})
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "2 lm opcodes") {
		t.Errorf("Validate with two lm: %v", err)
	}
}

func TestSetLastMove(t *testing.T) {
	p := &Position{Opcodes: []Opcode{{"bb", []string{"50"}}, {"lm", []string{"-3"}}, {"cr", []string{"double"}}}}
	p.SetLastMove(&LastMove{Kind: LastPass})
	if want := []Opcode{{"bb", []string{"50"}}, {"lm", []string{"-"}}, {"cr", []string{"double"}}}; !reflect.DeepEqual(p.Opcodes, want) {
		t.Errorf("replaced in place: %v", p.Opcodes)
	}
	p.SetLastMove(nil)
	if want := []Opcode{{"bb", []string{"50"}}, {"cr", []string{"double"}}}; !reflect.DeepEqual(p.Opcodes, want) {
		t.Errorf("removed: %v", p.Opcodes)
	}
	q := &Position{}
	q.SetLastMove(&LastMove{Kind: LastPlay, Play: rules.Play{Row: 7, Col: 7, Tiles: []rules.Letter{3, rules.PlayedThrough}}})
	if got := q.CGP(); !strings.HasSuffix(got, " 0/0 0 lm 8H C.;") {
		t.Errorf("appended: %q", got)
	}
	q.SetLastMove(nil)
	if q.Opcodes != nil {
		t.Errorf("removing the only opcode left %v", q.Opcodes)
	}
}

// TestSetLastMoveText: a last move given as text is set when it reads and
// fits the board; otherwise the error says which, and the position keeps
// its own.
func TestSetLastMoveText(t *testing.T) {
	for _, tc := range []struct {
		text, want string // want: "" for valid, else in the error
	}{
		{"8H (CA)T", ""},
		{"-TTTT", ""},
		{"8H CAT +5", ""},
		{"Q99 CAT", "Q99"},
		{"8H", "8H"},
		{"8H COT", "does not fit the position: last move lm 8H COT: square 8I holds A"},
		{"-TTTTT", "does not fit the position: last move lm -TTTTT: 5 Ts exchanged"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			p, err := ParseCGP("c", posCATExample+" lm -;")
			if err != nil {
				t.Fatal(err)
			}
			err = p.SetLastMoveText(tc.text)
			lm, _ := p.LastMove()
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want == "" && lm.String() != strings.ReplaceAll(tc.text, "(CA)", ".."):
				t.Errorf("lm %s, want %s", lm, tc.text)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one saying %q", err, tc.want)
			case tc.want != "" && lm.String() != "-":
				t.Errorf("after the error the lm is %s, want the position's own (-)", lm)
			}
		})
	}
}
