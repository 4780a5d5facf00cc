package position

import (
	"math/rand/v2"
	"strings"
	"testing"

	"scrabble/rules"
)

const posEmptyRow = "...............\n"

// posGrid is an empty grid with the given 1-based rows replaced.
func posGrid(rows map[int]string) string {
	var sb strings.Builder
	for r := 1; r <= rules.Size; r++ {
		if row, ok := rows[r]; ok {
			sb.WriteString(row + "\n")
		} else {
			sb.WriteString(posEmptyRow)
		}
	}
	return sb.String()
}

func TestParseGridErrors(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		line, col  int
		want       []string
	}{
		{"empty", "", 1, 1, []string{"no rows"}},
		{"only comments", "# x\n\n", 1, 1, []string{"no rows"}},
		{"too few rows", strings.Repeat(posEmptyRow, 14), 15, 1, []string{"only 14 rows", "want 15"}},
		{"too few rows with comments", "# c\n" + strings.Repeat(posEmptyRow, 3) + "# end\n", 5, 1, []string{"only 3 rows"}},
		{"too many rows", strings.Repeat(posEmptyRow, 16), 16, 1, []string{"more than 15 rows"}},
		{"too many rows indented", strings.Repeat(posEmptyRow, 15) + "\n  A..\n", 17, 3, []string{"more than 15 rows"}},
		{"short row", posGrid(map[int]string{4: ".............."}), 4, 15, []string{"row 4 has 14 squares", "want 15"}},
		{"short spaced row", posGrid(map[int]string{2: ". . . ."}), 2, 8, []string{"row 2 has 4 squares"}},
		{"long row", posGrid(map[int]string{5: "................"}), 5, 16, []string{"row 5 has more than 15 squares"}},
		{"long spaced row", posGrid(map[int]string{1: ". . . . . . . . . . . . . . . A"}), 1, 31, []string{"row 1 has more than 15"}},
		{"unknown character", posGrid(map[int]string{7: "......?........"}), 7, 7, []string{"unknown character '?'", "row 7"}},
		{"digit", posGrid(map[int]string{1: "15"}), 1, 1, []string{"unknown character '1'"}},
		{"non-ASCII", posGrid(map[int]string{3: "..É............"}), 3, 3, []string{"unknown character 'É'"}},
		{"invalid UTF-8", posGrid(map[int]string{3: "..\xff............"}), 3, 3, []string{"byte 0xff"}},
		{"CR inside a line", posGrid(map[int]string{3: "..\r............"}), 3, 3, []string{`'\r'`}},
		{"comment after squares", posGrid(map[int]string{9: "............... # x"}), 9, 17, []string{"unknown character '#'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseGrid("g.txt", []byte(tc.data))
			if p != nil {
				t.Errorf("got a position with the error")
			}
			posWantErr(t, err, tc.line, tc.col, tc.want...)
			if err != nil && !strings.HasPrefix(err.Error(), "g.txt:") {
				t.Errorf("error %q does not start with the file name", err)
			}
		})
	}
}

func TestParseGridTolerates(t *testing.T) {
	want := posBoard(t, "8G CAt", "G8 COw")
	plain := posGrid(map[int]string{8: "......CAt......", 9: "......O........", 10: "......w........"})
	spaced := posGrid(map[int]string{
		8:  ". . . . . . C A t . . . . . .",
		9:  ". . . . . . O . . . . . . . .",
		10: ". . . . . . w . . . . . . . .",
	})
	for name, data := range map[string]string{
		"plain":           plain,
		"spaced":          spaced,
		"CRLF":            strings.ReplaceAll(plain, "\n", "\r\n"),
		"trailing spaces": strings.ReplaceAll(spaced, "\n", "  \t \n"),
		"trailing blank":  plain + "\n",
		"no final EOL":    strings.TrimSuffix(plain, "\n"),
		"comments":        "# header\n  # indented\n" + strings.Replace(plain, posEmptyRow, posEmptyRow+"#mid\n\n", 1) + "# end\n",
		"tabs":            strings.ReplaceAll(spaced, " ", "\t"),
		"BOM":             "\xef\xbb\xbf" + plain,
		"mixed spacing":   strings.Replace(plain, "......CAt......", "...  ...C At . .....", 1),
	} {
		p, err := ParseGrid("g", []byte(data))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if p.Board != want {
			t.Errorf("%s: board\n%s\nwant\n%s", name, p.Board.GridString(), want.GridString())
		}
		if p.Racks != [rules.MaxPlayers]rules.Rack{} || p.Scores != [rules.MaxPlayers]int{} || p.Seats != 0 || p.ZeroTurns != 0 || p.Lexicon != "" || p.Opcodes != nil {
			t.Errorf("%s: grid set more than the board: %+v", name, p)
		}
	}
}

func TestGridStringRoundTrip(t *testing.T) {
	b := posBoard(t, "8G CAt", "G8 COw")
	s := b.GridString()
	if want := posGrid(map[int]string{8: "......CAt......", 9: "......O........", 10: "......w........"}); s != want {
		t.Errorf("GridString:\n%s\nwant\n%s", s, want)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 300; i++ {
		b := posRandomPosition(rng).Board
		p, err := ParseGrid("r", []byte(b.GridString()))
		if err != nil {
			t.Fatalf("%v\n%s", err, b.GridString())
		}
		if p.Board != b {
			t.Fatalf("round trip changed the board:\n%s\n%s", b.GridString(), p.Board.GridString())
		}
		if p2, err := Parse("r", []byte(b.GridString())); err != nil || p2.Board != b {
			t.Fatalf("Parse: %v", err)
		}
	}
}
