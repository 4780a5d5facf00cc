package rules

import (
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
)

const posCATExample = "15/15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15 AEINRST/ 12/0 0 lex NWL23;"

// posCGPBoard is the board field of an empty board with the given 1-based
// rows replaced.
func posCGPBoard(rows map[int]string) string {
	parts := make([]string, Size)
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
		Racks:   [2]Rack{posRack(t, "AEINRST")},
		Scores:  [2]int{12, 0},
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
		Racks:     [2]Rack{posRack(t, "EIQ?"), posRack(t, "AB")},
		Scores:    [2]int{-5, 30},
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
		{"racks with two slashes", board + " A/B/C", 49, []string{"RACK1/RACK2"}},
		{"lower-case rack", board + " AEiNRST/", 51, []string{"rack 1", "lower-case 'i'"}},
		{"bad rack character", board + " AE/X*", 53, []string{"rack 2", "unknown character '*'"}},
		{"huge rack", board + " " + strings.Repeat("E", 101) + "/", 49, []string{"rack 1 has more tiles than the whole set"}},
		{"scores without slash", board + " A/ 12", 52, []string{`scores "12"`, "SCORE1/SCORE2"}},
		{"bad score 1", board + " A/ x/0", 52, []string{`score 1 "x"`}},
		{"bad score 2", board + " A/ 10/1.5", 55, []string{`score 2 "1.5"`}},
		{"empty score", board + " A/ 10/", 55, []string{`score 2 ""`}},
		{"bad zero turns", board + " A/ 0/0 two", 56, []string{`zero-turn count "two"`}},
		{"negative zero turns", board + " A/ 0/0 -1", 56, []string{`zero-turn count "-1"`}},
		{"opcode without zero turns", board + " A/ 0/0 lex NWL23;", 56, []string{`zero-turn count "lex"`}},
		{"empty opcode", board + " A/ 0/0 0 lex NWL23;; bb 50;", 68, []string{"empty opcode"}},
		{"lone semicolon", board + " A/ 0/0 0 ;", 58, []string{"empty opcode"}},
		{"lex without name", board + " A/ 0/0 0 bb 50; lex;", 65, []string{"lex opcode needs exactly one operand", "got 0"}},
		{"lex with two names", board + " A/ 0/0 0  lex A B;", 59, []string{"exactly one operand", "got 2"}},
		{"second lex", board + " A/ 0/0 0 lex A; lex B;", 65, []string{"second lex opcode", "already A"}},
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
		strings.TrimSpace(posReadFile(t, "testdata/midgame.cgp")),
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
		if r, err := ParsePosition("r", []byte(s+"\n")); err != nil || !reflect.DeepEqual(r, p) {
			t.Fatalf("ParsePosition(%q): %v", s, err)
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
