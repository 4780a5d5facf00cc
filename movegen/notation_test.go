package movegen_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"scrabble/gaddag"
	"scrabble/movegen"
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
	p, err := rules.ParseGrid("test", []byte(g))
	if err != nil {
		t.Fatal(err)
	}
	return &p.Board
}

func testLexicon(t *testing.T) *gaddag.GADDAG {
	t.Helper()
	lex, err := gaddag.Build("test", []string{
		"QUIXOTE", "QUIZ", "HEATS", "EAT", "TOWERS", "STRAWS", "QI", "ZA",
		"QUIZZES", "AT", "TA",
	}, [32]byte{})
	if err != nil {
		t.Fatal(err)
	}
	return lex
}

func mustParse(t *testing.T, s string, b *rules.Board) movegen.Move {
	t.Helper()
	m, err := movegen.ParseMove(s, b)
	if err != nil {
		t.Fatalf("ParseMove(%q): %v", s, err)
	}
	return m
}

func TestParseMoveNotationRoundTrip(t *testing.T) {
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
				if m.Kind != movegen.Play || m.Row != tc.row || m.Col != tc.col || m.Dir != tc.dir ||
					m.NumTiles != tc.numTiles || m.Score != tc.score {
					t.Errorf("ParseMove(%q) = kind %v at (%d,%d) %v, %d tiles, score %d; want play at (%d,%d) %v, %d tiles, score %d",
						in, m.Kind, m.Row, m.Col, m.Dir, m.NumTiles, m.Score, tc.row, tc.col, tc.dir, tc.numTiles, tc.score)
				}
				if got := m.NotationOn(tc.board); got != tc.notation {
					t.Errorf("ParseMove(%q).NotationOn = %q, want %q", in, got, tc.notation)
				}
				if got := m.Notation(); got != tc.plain {
					t.Errorf("ParseMove(%q).Notation = %q, want %q", in, got, tc.plain)
				}
				if got := fmt.Sprint(&m); got != tc.plain {
					t.Errorf("fmt.Sprint = %q, want %q", got, tc.plain)
				}
				// Both renderings parse back to the same move.
				for _, out := range []string{tc.notation, tc.plain} {
					if back := mustParse(t, out, tc.board); back != m {
						t.Errorf("ParseMove(%q) = %+v, want %+v (from %q)", out, back, m, in)
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

func TestParseMoveExchangePass(t *testing.T) {
	tests := []struct {
		inputs []string
		kind   movegen.Kind
		want   string
		tiles  []rules.Letter
	}{
		{[]string{"-ABC?", "- ABC?", "exchange ABC?", "exch abc?", "EXCH AB C?"}, movegen.Exchange, "-ABC?",
			[]rules.Letter{1, 2, 3, rules.Blank}},
		{[]string{"-Q", "exchange q"}, movegen.Exchange, "-Q", []rules.Letter{17}},
		{[]string{"-ZYXWVU?"}, movegen.Exchange, "-ZYXWVU?", []rules.Letter{26, 25, 24, 23, 22, 21, rules.Blank}},
		{[]string{"-", " - ", "pass", "PASS", "Pass"}, movegen.Pass, "-", nil},
	}
	for _, tc := range tests {
		for _, in := range tc.inputs {
			m, err := movegen.ParseMove(in, nil)
			if err != nil {
				t.Errorf("ParseMove(%q): %v", in, err)
				continue
			}
			if m.Kind != tc.kind || int(m.Len) != len(tc.tiles) || int(m.NumTiles) != len(tc.tiles) ||
				!slices.Equal(m.Tiles[:m.Len], tc.tiles) || m.Score != 0 {
				t.Errorf("ParseMove(%q) = %+v, want %v of %v", in, m, tc.kind, tc.tiles)
			}
			if got := m.Notation(); got != tc.want {
				t.Errorf("ParseMove(%q).Notation = %q, want %q", in, got, tc.want)
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

func TestParseMoveErrors(t *testing.T) {
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
		m, err := movegen.ParseMove(tc.in, board)
		if err == nil {
			t.Errorf("ParseMove(%q) = %v, want error containing %q", tc.in, m.Notation(), tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMove(%q) error = %q, want it to contain %q", tc.in, err, tc.want)
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.in)) {
			t.Errorf("ParseMove(%q) error = %q, want it to quote the input", tc.in, err)
		}
	}
}

func TestValidateMove(t *testing.T) {
	board := grid(t, testGrid)
	empty := &rules.Board{}
	lex := testLexicon(t)
	exchange8 := movegen.Move{Kind: movegen.Exchange, Len: 8, NumTiles: 8, Tiles: [rules.Size]rules.Letter{1, 2, 3, 4, 5, 6, 7, 8}}
	offBoard := movegen.Move{Kind: movegen.Play, Row: 14, Col: 10, Dir: rules.Across, Len: 6, NumTiles: 6,
		Tiles: [rules.Size]rules.Letter{1, 2, 3, 4, 5, 6}}
	tests := []struct {
		name  string
		board *rules.Board
		move  string        // parsed on board unless m is set
		m     *movegen.Move // a move ParseMove cannot produce
		rack  string
		bag   int
		want  string // "" for legal
	}{
		{name: "legal play", board: board, move: "D8 (Q)UIZ", rack: "UIZAEST", bag: 50},
		{name: "legal play with a blank", board: board, move: "D8 (Q)uIZ", rack: "?IZAEST", bag: 50},
		{name: "legal play through a board blank", board: board, move: "J7 H(EaT)S", rack: "HSAEIRT", bag: 0},
		{name: "legal first play", board: empty, move: "8D QUIxOTE", rack: "QUIOTE?", bag: 86},
		{name: "legal exchange", board: board, move: "-ABC?", rack: "ABC?EFG", bag: 7},
		{name: "pass", board: board, move: "-", rack: "", bag: 0},
		{name: "off the board", board: board, m: &offBoard, rack: "ABCDEFG", bag: 50, want: "goes off the board"},
		{name: "not connected", board: board, move: "1A QI", rack: "QIAEST?", bag: 50, want: "does not touch any tile"},
		{name: "first play off centre", board: empty, move: "1A QI", rack: "QIAEST?", bag: 86, want: "must cover the centre square 8H"},
		{name: "tile not on rack", board: board, move: "D8 (Q)UIZ", rack: "AEINRSU", bag: 50, want: "tile Z not on rack AEINRSU"},
		{name: "tiles not on rack", board: board, move: "D8 (Q)UIZ", rack: "AEINRST", bag: 50, want: "tiles U, Z not on rack AEINRST"},
		{name: "blank not on rack", board: board, move: "D8 (Q)uIZ", rack: "UIZABCD", bag: 50, want: "tile ? (for u) not on rack ABCDIUZ"},
		{name: "phony main word", board: board, move: "D8 (Q)UIZZ", rack: "UIZZAB?", bag: 50, want: "phony word QUIZZ"},
		{name: "phony with a blank", board: board, move: "D8 (Q)UIzZ", rack: "UIZAB??", bag: 50, want: "phony word QUIzZ"},
		{name: "phony main and cross words", board: board, move: "9C XU", rack: "XUAEIST", bag: 50, want: "phony words XU, QU"},
		{name: "phony cross word only", board: board, move: "9D U", rack: "UAEIST?", bag: 50, want: "phony word QU"},
		{name: "exchange, bag too small", board: board, move: "-ABC", rack: "ABCDEFG", bag: 6, want: "cannot exchange: only 6 tiles in the bag, 7 needed"},
		{name: "exchange, bag with one tile", board: board, move: "-A", rack: "ABCDEFG", bag: 1, want: "only 1 tile in the bag"},
		{name: "exchange not on rack", board: board, move: "-QZ", rack: "ABCDEFG", bag: 50, want: "cannot exchange: tiles Q, Z not on rack ABCDEFG"},
		{name: "exchange blank not on rack", board: board, move: "-A?", rack: "ABCDEFG", bag: 50, want: "tile ? not on rack ABCDEFG"},
		{name: "exchange of 8", board: board, m: &exchange8, rack: "ABCDEFGH", bag: 50, want: "cannot exchange 8 tiles: a rack holds only 7"},
		{name: "exchange of nothing", board: board, m: &movegen.Move{Kind: movegen.Exchange}, rack: "ABCDEFG", bag: 50, want: "no tiles named"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.m
			if m == nil {
				pm := mustParse(t, tc.move, tc.board)
				m = &pm
			}
			rack, err := rules.ParseRack(tc.rack)
			if err != nil {
				t.Fatal(err)
			}
			err = movegen.ValidateMove(m, tc.board, rack, tc.bag, lex)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("ValidateMove(%s) = %v, want nil", m.NotationOn(tc.board), err)
			case tc.want != "" && err == nil:
				t.Errorf("ValidateMove(%s) = nil, want error containing %q", m.NotationOn(tc.board), tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("ValidateMove(%s) = %q, want it to contain %q", m.NotationOn(tc.board), err, tc.want)
			}
			// CheckMove agrees, and scores a legal play as ScorePlay does
			// (with or without the word check).
			for _, l := range []*gaddag.GADDAG{lex, nil} {
				score, cerr := movegen.CheckMove(m, tc.board, rack, tc.bag, l)
				if l == lex && (cerr == nil) != (err == nil) {
					t.Errorf("CheckMove(%s) = %v, ValidateMove %v", m.NotationOn(tc.board), cerr, err)
				}
				want := 0
				if m.Kind == movegen.Play && cerr == nil {
					want = tc.board.ScorePlay(m.Placed())
				}
				if score != want {
					t.Errorf("CheckMove(%s) scores %d, want %d (lexicon %v)", m.NotationOn(tc.board), score, want, l != nil)
				}
			}
		})
	}
}

func TestValidateMoveNilLexicon(t *testing.T) {
	board := grid(t, testGrid)
	m := mustParse(t, "D8 (Q)UIZZ", board)
	rack, _ := rules.ParseRack("UIZZABC")
	if err := movegen.ValidateMove(&m, board, rack, 50, nil); err != nil {
		t.Errorf("ValidateMove with nil lexicon = %v, want nil (no word check)", err)
	}
}
