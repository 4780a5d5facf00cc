package referee_test

import (
	"strings"
	"testing"

	"scrabble/gaddag"
	"scrabble/move"
	"scrabble/position"
	"scrabble/referee"
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

func grid(t *testing.T, g string) *rules.Board {
	t.Helper()
	p, err := position.ParseGrid("test", []byte(g))
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

func mustParse(t *testing.T, s string, b *rules.Board) move.Move {
	t.Helper()
	m, err := move.Parse(s, b)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return m
}

func TestValidateMove(t *testing.T) {
	board := grid(t, testGrid)
	empty := &rules.Board{}
	lex := testLexicon(t)
	exchange8 := move.Move{Kind: move.Exchange, Len: 8, NumTiles: 8, Tiles: [rules.Size]rules.Letter{1, 2, 3, 4, 5, 6, 7, 8}}
	offBoard := move.Move{Kind: move.Play, Row: 14, Col: 10, Dir: rules.Across, Len: 6, NumTiles: 6,
		Tiles: [rules.Size]rules.Letter{1, 2, 3, 4, 5, 6}}
	tests := []struct {
		name  string
		board *rules.Board
		move  string     // parsed on board unless m is set
		m     *move.Move // a move Parse cannot produce
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
		{name: "exchange of nothing", board: board, m: &move.Move{Kind: move.Exchange}, rack: "ABCDEFG", bag: 50, want: "no tiles named"},
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
			err = referee.ValidateMove(m, tc.board, rack, tc.bag, lex)
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
				score, cerr := referee.CheckMove(m, tc.board, rack, tc.bag, l)
				if l == lex && (cerr == nil) != (err == nil) {
					t.Errorf("CheckMove(%s) = %v, ValidateMove %v", m.NotationOn(tc.board), cerr, err)
				}
				want := 0
				if m.Kind == move.Play && cerr == nil {
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
	if err := referee.ValidateMove(&m, board, rack, 50, nil); err != nil {
		t.Errorf("ValidateMove with nil lexicon = %v, want nil (no word check)", err)
	}
}
