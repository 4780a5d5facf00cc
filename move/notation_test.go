package move_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"scrabble/move"
	"scrabble/position"
	"scrabble/rules"
)

// testGrid has QUIXOTE at 8D, a blank a at 9J (making EaT down from 8J) and
// TOWERS at 10J, ending on column O.
const testGrid = `
...............
...............
...............
...............
...............
...............
...............
...QUIXOTE.....
.........a.....
.........TOWERS
...............
...............
...............
...............
...............
`

// groupGrid has Q, U at 1A, 1B and Z at 1D, for "1A (QU)I(Z)ZES".
const groupGrid = `
QU.Z...........
...............
...............
...............
...............
...............
...............
...............
...............
...............
...............
...............
...............
...............
...............
`

func grid(t *testing.T, g string) *rules.Board {
	t.Helper()
	p, err := position.ParseGrid("test", []byte(g))
	if err != nil {
		t.Fatal(err)
	}
	return &p.Board
}

func mustParse(t *testing.T, s string, b *rules.Board) move.Move {
	t.Helper()
	m, err := move.Parse(s, b)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return m
}

func TestParseNotationRoundTrip(t *testing.T) {
	board := grid(t, testGrid)
	group := grid(t, groupGrid)
	empty := &rules.Board{}
	tests := []struct {
		name      string
		board     *rules.Board
		inputs    []string // all parse to the same move
		notation  string   // NotationOn(board)
		plain     string   // Notation()
		row, col  int8
		dir       rules.Direction
		numTiles  int8
		score     int32
		mainWord  string
		wantWords []string
	}{
		{
			name: "down through a tile", board: board,
			inputs:   []string{"D8 (Q)UIZ", "d8 .UIZ", "D8 QUIZ", "D8 (q)UIZ", "  D8   (Q)UIZ  "},
			notation: "D8 (Q)UIZ", plain: "D8 .UIZ",
			row: 7, col: 3, dir: rules.Down, numTiles: 3, score: 22,
			mainWord: "QUIZ", wantWords: []string{"QUIZ"},
		},
		{
			name: "blank on an empty square", board: board,
			inputs:   []string{"D8 (Q)uIZ", "D8 .uIZ", "d8 QuIZ"},
			notation: "D8 (Q)uIZ", plain: "D8 .uIZ",
			row: 7, col: 3, dir: rules.Down, numTiles: 3, score: 21,
			mainWord: "QuIZ", wantWords: []string{"QuIZ"},
		},
		{
			name: "through a group including a board blank", board: board,
			inputs:   []string{"J7 H(EaT)S", "J7 H...S", "J7 HEATS", "j7 H(EAT)S", "J7 H(E).(T)S"},
			notation: "J7 H(EaT)S", plain: "J7 H...S",
			row: 6, col: 9, dir: rules.Down, numTiles: 2, score: 7,
			mainWord: "HEaTS", wantWords: []string{"HEaTS"},
		},
		{
			name: "column O down to row 15", board: board,
			inputs:   []string{"O10 (S)TRAWS", "o10 .TRAWS", "O10 STRAWS"},
			notation: "O10 (S)TRAWS", plain: "O10 .TRAWS",
			row: 9, col: 14, dir: rules.Down, numTiles: 5, score: 30,
			mainWord: "STRAWS", wantWords: []string{"STRAWS"},
		},
		{
			name: "row 15 to column O, not connected (no score)", board: board,
			inputs:   []string{"15J QUOTES", "15j QUOTES"},
			notation: "15J QUOTES", plain: "15J QUOTES",
			row: 14, col: 9, dir: rules.Across, numTiles: 6, score: 0,
			mainWord: "QUOTES", wantWords: nil,
		},
		{
			name: "across, two groups", board: group,
			inputs:   []string{"1A (QU)I(Z)ZES", "1a ..I.ZES", "1A QUIZZES", "1A (Q)(U)I(Z)ZES"},
			notation: "1A (QU)I(Z)ZES", plain: "1A ..I.ZES",
			row: 0, col: 0, dir: rules.Across, numTiles: 4, score: 34,
			mainWord: "QUIZZES", wantWords: []string{"QUIZZES"},
		},
		{
			name: "first play with a blank, bingo", board: empty,
			inputs:   []string{"8D QUIxOTE", "8d QUIxOTE"},
			notation: "8D QUIxOTE", plain: "8D QUIxOTE",
			row: 7, col: 3, dir: rules.Across, numTiles: 7, score: 100,
			mainWord: "QUIxOTE", wantWords: []string{"QUIxOTE"},
		},
		{
			name: "first play, nil board", board: nil,
			inputs:   []string{"H4 QUIXOTE"},
			notation: "H4 QUIXOTE", plain: "H4 QUIXOTE",
			row: 3, col: 7, dir: rules.Down, numTiles: 7, score: 116,
		},
		{
			name: "single tile forming a cross-word", board: board,
			inputs:   []string{"9D U"},
			notation: "9D U", plain: "9D U",
			row: 8, col: 3, dir: rules.Across, numTiles: 1, score: 11,
			mainWord: "U", wantWords: []string{"QU"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, in := range tc.inputs {
				m := mustParse(t, in, tc.board)
				if m.Kind != move.Play || m.Row != tc.row || m.Col != tc.col || m.Dir != tc.dir ||
					m.NumTiles != tc.numTiles || m.Score != tc.score {
					t.Errorf("Parse(%q) = kind %v at (%d,%d) %v, %d tiles, score %d; want play at (%d,%d) %v, %d tiles, score %d",
						in, m.Kind, m.Row, m.Col, m.Dir, m.NumTiles, m.Score, tc.row, tc.col, tc.dir, tc.numTiles, tc.score)
				}
				if got := m.NotationOn(tc.board); got != tc.notation {
					t.Errorf("Parse(%q).NotationOn = %q, want %q", in, got, tc.notation)
				}
				if got := m.Notation(); got != tc.plain {
					t.Errorf("Parse(%q).Notation = %q, want %q", in, got, tc.plain)
				}
				if got := fmt.Sprint(&m); got != tc.plain {
					t.Errorf("fmt.Sprint = %q, want %q", got, tc.plain)
				}
				// Both renderings parse back to the same move.
				for _, out := range []string{tc.notation, tc.plain} {
					if back := mustParse(t, out, tc.board); back != m {
						t.Errorf("Parse(%q) = %+v, want %+v (from %q)", out, back, m, in)
					}
				}
				if tc.board == nil {
					continue
				}
				if got := m.MainWord(tc.board); got != tc.mainWord {
					t.Errorf("MainWord = %q, want %q", got, tc.mainWord)
				}
				if got := m.Words(tc.board); !slices.Equal(got, tc.wantWords) {
					t.Errorf("Words = %q, want %q", got, tc.wantWords)
				}
			}
		})
	}
}

func TestParseExchangePass(t *testing.T) {
	tests := []struct {
		inputs []string
		kind   move.Kind
		want   string
		tiles  []rules.Letter
	}{
		{[]string{"-ABC?", "- ABC?", "exchange ABC?", "exch abc?", "EXCH AB C?"}, move.Exchange, "-ABC?",
			[]rules.Letter{1, 2, 3, rules.Blank}},
		{[]string{"-Q", "exchange q"}, move.Exchange, "-Q", []rules.Letter{17}},
		{[]string{"-ZYXWVU?"}, move.Exchange, "-ZYXWVU?", []rules.Letter{26, 25, 24, 23, 22, 21, rules.Blank}},
		{[]string{"-", " - ", "pass", "PASS", "Pass"}, move.Pass, "-", nil},
	}
	for _, tc := range tests {
		for _, in := range tc.inputs {
			m, err := move.Parse(in, nil)
			if err != nil {
				t.Errorf("Parse(%q): %v", in, err)
				continue
			}
			if m.Kind != tc.kind || int(m.Len) != len(tc.tiles) || int(m.NumTiles) != len(tc.tiles) ||
				!slices.Equal(m.Tiles[:m.Len], tc.tiles) || m.Score != 0 {
				t.Errorf("Parse(%q) = %+v, want %v of %v", in, m, tc.kind, tc.tiles)
			}
			if got := m.Notation(); got != tc.want {
				t.Errorf("Parse(%q).Notation = %q, want %q", in, got, tc.want)
			}
			if got := m.MainWord(&rules.Board{}); got != "" {
				t.Errorf("MainWord = %q, want empty", got)
			}
			if got := m.Words(&rules.Board{}); got != nil {
				t.Errorf("Words = %q, want nil", got)
			}
			if back := mustParse(t, m.Notation(), nil); back != m {
				t.Errorf("round trip of %q: %+v, want %+v", in, back, m)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	board := grid(t, testGrid)
	tests := []struct {
		in   string
		want string
	}{
		{"", "empty move"},
		{"   ", "empty move"},
		{"8D", "want a position and a word"},
		{"8D QUIXOTE 100", "want a position and a word"},
		{"8 QUIXOTE", `bad position "8"`},
		{"DD QUIXOTE", `bad position "DD"`},
		{"8D8 QUIXOTE", `bad position "8D8"`},
		{"D QUIXOTE", `bad position "D"`},
		{"#8 QUIXOTE", `bad position "#8"`},
		{"16D QUIXOTE", "off the board: rows are 1-15"},
		{"0D QUIXOTE", "off the board: rows are 1-15"},
		{"D16 QUIXOTE", "off the board: rows are 1-15"},
		{"8P QUIXOTE", "off the board: columns are A-O"},
		{"P8 QUIXOTE", "off the board: columns are A-O"},
		{"1000D Q", "bad position"},
		{"1K QUIXOTE", `word "QUIXOTE" runs past the edge of the board: 7 squares from 1K across, but only 5 fit`},
		{"O10 (S)TRAWSS", `word "(S)TRAWSS" runs past the edge of the board: 7 squares from O10 down, but only 6 fit`},
		{"D8 (QUIZ", "'(' at character 1 is never closed"},
		{"D8 Q)UIZ", "')' at character 2 has no matching '('"},
		{"D8 ((Q))UIZ", "nested '(' at character 2"},
		{"D8 ()QUIZ", "empty parentheses at character 1"},
		{"D1 .ABC", "square 1D is empty, but '.' marks it as holding a tile"},
		{"D1 (A)BC", "square 1D is empty, but (A) marks it as holding a tile"},
		{"D8 (U)UIZ", "square 8D holds Q, not U"},
		{"D8 UUIZ", "square 8D holds Q, not U"},
		{"9H OXE", "square 9J holds a blank a, not E"},
		{"D8 Q1IZ", "character '1' at position 2 is not a letter"},
		{"D8 Q?IZ", "character '?' at position 2 is not a letter"},
		{"exchange", "exchange names no tiles"},
		{"exch", "exchange names no tiles"},
		{"-AB1", "character '1' at position 3 is not a tile"},
		{"-ABCDEFGH", "cannot exchange 8 tiles: a rack holds only 7"},
		{"pass now", `unexpected "now" after pass`},
	}
	for _, tc := range tests {
		m, err := move.Parse(tc.in, board)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want error containing %q", tc.in, m.Notation(), tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error = %q, want it to contain %q", tc.in, err, tc.want)
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.in)) {
			t.Errorf("Parse(%q) error = %q, want it to quote the input", tc.in, err)
		}
	}
}
