package position

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// posFuzzCheckError fails unless err is a located *Error.
func posFuzzCheckError(t *testing.T, err error) {
	t.Helper()
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *Error", err, err)
	}
	if pe.Msg == "" {
		t.Fatalf("error without a message")
	}
}

func posFuzzSeeds(f *testing.F, files ...string) {
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
}

func FuzzParseGrid(f *testing.F) {
	posFuzzSeeds(f, "../rules/testdata/midgame.txt")
	f.Add(posGrid(map[int]string{8: "......CAt......"}))
	f.Add(strings.ReplaceAll(posGrid(map[int]string{8: ". . . . . . C A t . . . . . ."}), "\n", "\r\n"))
	f.Add("# only a comment\n")
	f.Fuzz(func(t *testing.T, data string) {
		p, err := ParseGrid("f", []byte(data))
		if err != nil {
			posFuzzCheckError(t, err)
		} else {
			s := p.Board.GridString()
			q, err := ParseGrid("f", []byte(s))
			if err != nil {
				t.Fatalf("GridString of a parsed board does not parse: %v\n%s", err, s)
			}
			if !reflect.DeepEqual(p, q) {
				t.Fatalf("round trip changed the position:\n%s\n%s", s, q.Board.GridString())
			}
			if q.Board.GridString() != s {
				t.Fatalf("GridString is not stable")
			}
			if err := p.Validate(); err != nil {
				posFuzzCheckError(t, err)
			}
		}
		if _, err := Parse("f", []byte(data)); err != nil {
			posFuzzCheckError(t, err)
		}
	})
}

func FuzzParseCGP(f *testing.F) {
	posFuzzSeeds(f, "../rules/testdata/midgame.cgp")
	f.Add(posCATExample)
	f.Add(posCGPBoard(map[int]string{8: "7QI6"}) + " AEEST??/XYZ -12/345 5 ld english; bb 50; cr double; lex CSW21; etl 7; mcnz 6; lm 8D.TILES;")
	f.Add(posCGPBoard(nil))
	// Three and four players, and too many racks or scores.
	f.Add(posCGPBoard(map[int]string{8: "7CAT5"}) + " AEINRST/ABC/ 10/20/30 0 lex NWL23;")
	f.Add(posCGPBoard(map[int]string{8: "7CAT5"}) + " AEINRST/ABC/?/QZ -10/20/30/400 3 cr 5pt; mcnz 8;")
	f.Add(posCGPBoard(map[int]string{8: "7CAT5"}) + " A/B/C/D/E 0/0/0/0/0 0")
	f.Add(posCGPBoard(map[int]string{8: "7CAT5"}) + " A/B/C 0/0 0")
	f.Add(posCGPBoard(map[int]string{8: "7CAT5"}) + " ZZ/Z// 0/0/0/0 0")
	for _, lm := range []string{"8H CAT", "8H.CAT", "H8 C(A)T +5", "challenge 8I .T", "-AB?", "-3", "-", "8N CAT", "8H CAT; lm -"} {
		f.Add(posCATExample + " lm " + lm + ";")
	}
	f.Fuzz(func(t *testing.T, line string) {
		p, err := ParseCGP("f", line)
		if err != nil {
			posFuzzCheckError(t, err)
		} else {
			s := p.CGP()
			q, err := ParseCGP("f", s)
			if err != nil {
				t.Fatalf("CGP of a parsed position does not parse: %v\n%q\nfrom %q", err, s, line)
			}
			if !reflect.DeepEqual(p, q) {
				t.Fatalf("round trip changed the position:\n%q\n%+v\n%+v", s, p, q)
			}
			if q.CGP() != s {
				t.Fatalf("CGP is not stable: %q then %q", s, q.CGP())
			}
			if n := p.Players(); n < 2 || n > 4 || (p.Seats != 0 && p.Seats != n) {
				t.Fatalf("%d players (Seats %d) from %q", n, p.Seats, line)
			}
			if err := p.Validate(); err != nil {
				posFuzzCheckError(t, err)
			}
		}
		if _, err := Parse("f", []byte(line)); err != nil {
			posFuzzCheckError(t, err)
		}
	})
}

// FuzzParseLastMove: ParseLastMove (infer's --last) never panics, and a
// move it reads writes back as one that reads the same.
func FuzzParseLastMove(f *testing.F) {
	for _, s := range []string{"8D WO.D", "8D WO(R)D +5", "challenge 8D WO.D", "D8.WORD", "-ABC?", "-3", "-", "", "8D", "Z9 X", "8D ((A))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseLastMove(s)
		if err != nil {
			return
		}
		again, err := ParseLastMove(m.String())
		if err != nil {
			t.Fatalf("%q reads as %q, which does not read: %v", s, m, err)
		}
		if !reflect.DeepEqual(m, again) {
			t.Fatalf("%q reads as %+v, written %q, read back %+v", s, m, m, again)
		}
	})
}
