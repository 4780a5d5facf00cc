package rules

import (
	"strings"
	"testing"
)

// scoreTestTiles converts tiles as players write them (upper case tiles, lower case
// blanks) with '.' for a played-through square.
func scoreTestTiles(t *testing.T, s string) []Letter {
	t.Helper()
	out := make([]Letter, 0, len(s))
	for _, r := range s {
		if r == '.' {
			out = append(out, PlayedThrough)
			continue
		}
		l, ok := LetterFromRune(r)
		if !ok || l == Blank {
			t.Fatalf("bad tile %q in %q", r, s)
		}
		out = append(out, l)
	}
	return out
}

// scoreTestSquare converts a square in players' notation, row number then column letter
// ("8H"), to 0-based row and column.
func scoreTestSquare(t *testing.T, s string) (row, col int) {
	t.Helper()
	n := 0
	i := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
	}
	if i != len(s)-1 || n < 1 || n > Size || s[i] < 'A' || s[i] >= 'A'+Size {
		t.Fatalf("bad square %q", s)
	}
	return n - 1, int(s[i] - 'A')
}

// scoreTestPlay builds a play starting on square s.
func scoreTestPlay(t *testing.T, s string, d Direction, tiles string) Play {
	t.Helper()
	r, c := scoreTestSquare(t, s)
	return Play{Row: r, Col: c, Dir: d, Tiles: scoreTestTiles(t, tiles)}
}

// scoreTestBoard returns a board holding the given plays (no checks).
func scoreTestBoard(plays ...Play) *Board {
	b := new(Board)
	for _, p := range plays {
		b.Apply(p)
	}
	return b
}

// scoreTestPremiums renders the premiums of a play's squares in the layout's
// notation (= TW, - DW, " TL, ' DL, space none).
func scoreTestPremiums(p Play) string {
	dr, dc := p.Dir.Step()
	var sb strings.Builder
	for i := range p.Tiles {
		sb.WriteByte(premiumLayout[p.Row+i*dr][p.Col+i*dc])
	}
	return sb.String()
}

type scoreCase struct {
	name     string
	board    []Play // existing tiles
	play     Play
	premiums string // premiums under the play's span, checked against the layout
	legal    bool   // also assert CheckPlacement accepts it
	want     int
}

func runScoreCases(t *testing.T, tests []scoreCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := scoreTestBoard(tc.board...)
			if got := scoreTestPremiums(tc.play); got != tc.premiums {
				t.Fatalf("premiums under the play %q, want %q: the case is on the wrong squares", got, tc.premiums)
			}
			if tc.legal {
				if err := b.CheckPlacement(tc.play); err != nil {
					t.Fatalf("CheckPlacement: %v", err)
				}
			}
			if got := b.ScorePlay(tc.play); got != tc.want {
				t.Errorf("ScorePlay = %d, want %d (words %v)", got, tc.want, b.WordsFormed(tc.play))
			}
		})
	}
}

// The worked examples of the rule sheet. ScorePlay does not check legality,
// so the single-word examples sit on an otherwise empty board wherever the
// stated premiums are.
func TestScoreRuleSheetExamples(t *testing.T) {
	runScoreCases(t, []scoreCase{
		// Q10 U1 E1 E1 N1 = 14.
		{name: "QUEEN no premium", play: scoreTestPlay(t, "5F", Across, "QUEEN"), premiums: "     ", want: 14},
		// No five squares in a line have a double letter and nothing else, so
		// the first E is already on the board on the second double letter (7I),
		// where it earns nothing: 2*10 + 1+1+1+1 = 24.
		{name: "QUEEN Q on DL", board: []Play{scoreTestPlay(t, "7I", Across, "E")},
			play: scoreTestPlay(t, "7G", Across, "QU.EN"), premiums: "' '  ", legal: true, want: 24},
		// 14*2 = 28; a legal opening through the star.
		{name: "QUEEN on DW", play: scoreTestPlay(t, "8F", Across, "QUEEN"), premiums: "  -  ", legal: true, want: 28},
		// 14*3 = 42.
		{name: "QUEEN on TW", play: scoreTestPlay(t, "1E", Across, "QUEEN"), premiums: "   = ", want: 42},
		// (2*10 + 4)*3 = 72.
		{name: "QUEEN Q on DL and TW", play: scoreTestPlay(t, "1D", Across, "QUEEN"), premiums: "'   =", want: 72},
		// QUEEN as above with the I of HI already under the Q: the new Q also
		// forms QI down, which gets the DL but not the TW (under the N):
		// 72 + (2*10 + 1) = 93.
		{name: "QUEEN and QI", board: []Play{scoreTestPlay(t, "2C", Across, "HI")},
			play: scoreTestPlay(t, "1D", Across, "QUEEN"), premiums: "'   =", legal: true, want: 93},
		// D2 R1 A1 G2*3 O1 N1 S1 = 13, plus 50 for using all seven tiles.
		{name: "DRAGONS G on TL", play: scoreTestPlay(t, "6C", Across, "DRAGONS"), premiums: `   "   `, want: 63},
		// JOKE across 1D-1G and TAR down 2H-4H are on the board; an S on 1H
		// (TW) makes both JOKES and STAR, and both are tripled. The J on 1D
		// (DL) and the R on 4H (DL) were there already and earn nothing.
		// JOKES (8+1+5+1+1)*3 = 48, STAR (1+1+1+1)*3 = 12: 60.
		{name: "JOKES and STAR", board: []Play{scoreTestPlay(t, "1D", Across, "JOKE"), scoreTestPlay(t, "2H", Down, "TAR")},
			play: scoreTestPlay(t, "1D", Across, "....S"), premiums: "'   =", legal: true, want: 60},
		// The same play written as the down word.
		{name: "STAR and JOKES", board: []Play{scoreTestPlay(t, "1D", Across, "JOKE"), scoreTestPlay(t, "2H", Down, "TAR")},
			play: scoreTestPlay(t, "1H", Down, "S..."), premiums: "=  '", legal: true, want: 60},
	})
}

func TestScoreBlanks(t *testing.T) {
	runScoreCases(t, []scoreCase{
		// Reference: (2*10 + 1+3+1+1)*2 = 52.
		{name: "ZEBRA", play: scoreTestPlay(t, "8D", Across, "ZEBRA"), premiums: "'   -", legal: true, want: 52},
		// A blank on a DL is still 0: (0 + 1+3+1+1)*2 = 12.
		{name: "blank on DL", play: scoreTestPlay(t, "8D", Across, "zEBRA"), premiums: "'   -", legal: true, want: 12},
		// A blank on the DW still doubles the word: (20+1+3+1+0)*2 = 50.
		{name: "blank on DW", play: scoreTestPlay(t, "8D", Across, "ZEBRa"), premiums: "'   -", legal: true, want: 50},
		// A blank on a TL is 0: 2+1+1+0+1+1+1 = 7, plus the bingo.
		{name: "blank on TL", play: scoreTestPlay(t, "6C", Across, "DRAgONS"), premiums: `   "   `, want: 57},
		// A blank on a TW still triples: (10+1+1+0+1)*3 = 39.
		{name: "blank on TW", play: scoreTestPlay(t, "1E", Across, "QUEeN"), premiums: "   = ", want: 39},
		// Two blanks, nothing else to score: the DW doubles 0.
		{name: "all blanks", play: scoreTestPlay(t, "8G", Across, "aa"), premiums: " -", legal: true, want: 0},
	})
}

func TestScorePremiumsOnlyUnderNewTiles(t *testing.T) {
	runScoreCases(t, []scoreCase{
		// The A on 1A (TW) is already there: AT scores 1+1, not tripled.
		{name: "through a TW", board: []Play{scoreTestPlay(t, "1A", Down, "AX")},
			play: scoreTestPlay(t, "1A", Across, ".T"), premiums: "= ", legal: true, want: 2},
		// The Q sits on 1D (DL) already: QI down scores 10+1.
		{name: "through a DL", board: []Play{scoreTestPlay(t, "1D", Across, "Q")},
			play: scoreTestPlay(t, "1D", Down, ".I"), premiums: "' ", legal: true, want: 11},
		// A cross-word through an old tile on a premium only gets the new
		// tile's premium. Board: Q on 1D (DL). An I on 2D makes QI down
		// (10+1 = 11; the DL is under the old Q) and the main word IT on
		// 2D-2E, plain squares: 1+1 = 2. Total 13.
		{name: "cross-word through a DL", board: []Play{scoreTestPlay(t, "1D", Across, "Q")},
			play: scoreTestPlay(t, "2D", Across, "IT"), premiums: "  ", legal: true, want: 13},
	})
}

func TestScoreWordMultipliersCombine(t *testing.T) {
	runScoreCases(t, []scoreCase{
		// 5E and 5K are both DW: 7*4 + 50 = 78.
		{name: "x4 bingo", play: scoreTestPlay(t, "5E", Across, "RETAINS"), premiums: "-     -", want: 78},
		// The same word through a T already on 5G: still x4, no bingo: 7*4 = 28.
		{name: "x4 through a tile", board: []Play{scoreTestPlay(t, "4G", Down, "AT")},
			play: scoreTestPlay(t, "5E", Across, "RE.AINS"), premiums: "-     -", legal: true, want: 28},
		// 1A and 1H are both TW; the A on 1D (DL) is already there.
		// S1 T1 R1 A1 I1 N1 E1 D2 = 9; 9*9 + 50 = 131.
		{name: "x9 across row 1", board: []Play{scoreTestPlay(t, "1D", Down, "AT")},
			play: scoreTestPlay(t, "1A", Across, "STR.INED"), premiums: `=  '   =`, legal: true, want: 131},
		// The same down column A (1A and 8A are TW, 4A is a DL).
		{name: "x9 down column A", board: []Play{scoreTestPlay(t, "4A", Across, "AT")},
			play: scoreTestPlay(t, "1A", Down, "STR.INED"), premiums: `=  '   =`, legal: true, want: 131},
		// Three TW on row 15, seven new tiles among eight already there
		// (XY, HEN, UTA). Face values O1 X8 Y4 P3 H4 E1 N1 B3 U1 T1 A1 Z10
		// O1 N1 E1 = 41; the new P and Z are on DLs: +3 +10 = 54;
		// 54*27 = 1458, plus 50 = 1508.
		{name: "x27 across row 15",
			board: []Play{scoreTestPlay(t, "15B", Across, "XY"), scoreTestPlay(t, "15E", Across, "HEN"), scoreTestPlay(t, "15I", Across, "UTA")},
			play:  scoreTestPlay(t, "15A", Across, "O..P...B...ZONE"), premiums: `=  '   =   '  =`, legal: true, want: 1508},
	})
}

func TestScoreBingo(t *testing.T) {
	runScoreCases(t, []scoreCase{
		// Opening bingo through the star, T on 8D (DL):
		// (1+1+2+1+1+1+1)*2 + 50 = 66.
		{name: "opening", play: scoreTestPlay(t, "8B", Across, "RETAINS"), premiums: `  '   -`, legal: true, want: 66},
		// Seven tiles through the T of AT (7H-8H) make an eight-letter word:
		// still a bingo. The old T covers the star, so no doubling; the
		// second E is on 8L (DL): R1 E1 T1 A1 I1 N1 E2 D2 = 10, plus 50.
		{name: "eight letters through a tile", board: []Play{scoreTestPlay(t, "7H", Down, "AT")},
			play: scoreTestPlay(t, "8F", Across, "RE.AINED"), premiums: `  -   ' `, legal: true, want: 60},
		// Six tiles: no bonus. E on 8D (DL): (1+2+1+1+1+1)*2 = 14.
		{name: "six tiles", play: scoreTestPlay(t, "8C", Across, "RETAIN"), premiums: ` '   -`, legal: true, want: 14},
	})
}

func TestWordsFormed(t *testing.T) {
	// CaT on 8G-8I (the A a blank); HO on 9H-9I under the a and the T.
	b := scoreTestBoard(scoreTestPlay(t, "8G", Across, "CaT"))
	p := scoreTestPlay(t, "9H", Across, "HO")
	if err := b.CheckPlacement(p); err != nil {
		t.Fatal(err)
	}
	got := b.WordsFormed(p)
	type w struct {
		sq    string
		dir   Direction
		word  string
		score int
	}
	want := []w{
		{"9H", Across, "HO", 4 + 1*2}, // O on 9I (DL)
		{"8H", Down, "aH", 0 + 4},     // the old blank scores 0
		{"8I", Down, "TO", 1 + 1*2},   // the O's DL counts here too
	}
	if len(got) != len(want) {
		t.Fatalf("WordsFormed = %v, want %d words", got, len(want))
	}
	for i, fw := range got {
		r, c := scoreTestSquare(t, want[i].sq)
		if fw.Row != r || fw.Col != c || fw.Dir != want[i].dir || WordString(fw.Letters) != want[i].word || fw.Score != want[i].score {
			t.Errorf("word %d = {%s %s %s %d}, want %+v", i, SquareName(fw.Row, fw.Col), fw.Dir, WordString(fw.Letters), fw.Score, want[i])
		}
	}
	if got := b.ScorePlay(p); got != 6+4+3 {
		t.Errorf("ScorePlay = %d, want 13", got)
	}
}

// TestAppendWordsFormed: appending to buffers that already hold words
// gives the same words as WordsFormed, leaves the earlier ones as they were
// (through the buffers growing or not), and with room allocates nothing.
func TestAppendWordsFormed(t *testing.T) {
	b := scoreTestBoard(scoreTestPlay(t, "8G", Across, "CaT"))
	p := scoreTestPlay(t, "9H", Across, "HO")
	want := b.WordsFormed(p)
	for _, room := range []int{0, 1, 64} {
		words, letters := b.AppendWordsFormed(make([]FormedWord, 0, room), make([]Letter, 0, room), p)
		words, letters = b.AppendWordsFormed(words, letters, p)
		if len(words) != 2*len(want) {
			t.Fatalf("room %d: %d words, want %d", room, len(words), 2*len(want))
		}
		for i, w := range words {
			if wi := want[i%len(want)]; w.Row != wi.Row || w.Col != wi.Col || w.Dir != wi.Dir || w.Score != wi.Score || WordString(w.Letters) != WordString(wi.Letters) {
				t.Errorf("room %d: word %d = %+v, want %+v", room, i, w, wi)
			}
		}
		if n := 2 * (2 + 2 + 2); len(letters) != n {
			t.Errorf("room %d: %d letters, want %d", room, len(letters), n)
		}
	}
	words, letters := make([]FormedWord, 0, 8), make([]Letter, 0, 64)
	if n := testing.AllocsPerRun(100, func() { b.AppendWordsFormed(words, letters, p) }); n != 0 {
		t.Errorf("AppendWordsFormed with room allocates %v times", n)
	}
}

func TestSingleTilePlay(t *testing.T) {
	// CAT on 8G-8I; an S on 9H makes AS down only. Written either way, the
	// play scores AS once: 1+1.
	b := scoreTestBoard(scoreTestPlay(t, "8G", Across, "CAT"))
	for _, p := range []Play{scoreTestPlay(t, "9H", Across, "S"), scoreTestPlay(t, "8H", Down, ".S")} {
		if err := b.CheckPlacement(p); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		ws := b.WordsFormed(p)
		if len(ws) != 1 || WordString(ws[0].Letters) != "AS" || ws[0].Dir != Down {
			t.Errorf("%+v: WordsFormed = %v, want just AS down", p, ws)
		}
		if got := b.ScorePlay(p); got != 2 {
			t.Errorf("%+v: ScorePlay = %d, want 2", p, got)
		}
	}
	// An S on 8J hooks CATS: the main word must be written as the whole span.
	p := scoreTestPlay(t, "8G", Across, "...S")
	if err := b.CheckPlacement(p); err != nil {
		t.Fatal(err)
	}
	if got := b.ScorePlay(p); got != 3+1+1+1 {
		t.Errorf("CATS: ScorePlay = %d, want 6", got)
	}
}

func TestCheckPlacement(t *testing.T) {
	cat := scoreTestPlay(t, "8G", Across, "CAT") // C 8G, A 8H, T 8I
	tests := []struct {
		name    string
		board   []Play
		play    Play
		wantErr string // "" means legal
	}{
		{name: "opening through the star", play: scoreTestPlay(t, "8H", Down, "QI")},
		{name: "opening ending on the star", play: scoreTestPlay(t, "8D", Across, "QUEEN")},
		{name: "hook", board: []Play{cat}, play: scoreTestPlay(t, "8G", Across, "...S")},
		{name: "front hook", board: []Play{cat}, play: scoreTestPlay(t, "8F", Across, "S...")},
		{name: "parallel", board: []Play{cat}, play: scoreTestPlay(t, "9H", Across, "HO")},
		{name: "through", board: []Play{cat}, play: scoreTestPlay(t, "7H", Down, "B.D")},
		{name: "hook making a down word", board: []Play{cat}, play: scoreTestPlay(t, "8J", Down, "SO")},
		{name: "opening short of the star", play: scoreTestPlay(t, "8A", Across, "OXYPHE"), wantErr: "centre square 8H"},
		{name: "opening off the star", play: scoreTestPlay(t, "1A", Across, "QUEEN"), wantErr: "centre square 8H"},
		{name: "opening one tile", play: scoreTestPlay(t, "8H", Across, "Q"), wantErr: "at least two"},
		{name: "not touching", board: []Play{cat}, play: scoreTestPlay(t, "1A", Across, "QUEEN"), wantErr: "does not touch"},
		{name: "diagonal only", board: []Play{cat}, play: scoreTestPlay(t, "9J", Across, "AX"), wantErr: "does not touch"},
		{name: "on an occupied square", board: []Play{cat}, play: scoreTestPlay(t, "7H", Down, "BAD"), wantErr: "square 8H already holds A"},
		{name: "played through an empty square", board: []Play{cat}, play: scoreTestPlay(t, "8G", Across, "....S"), wantErr: "square 8J is marked as played through"},
		{name: "span stops short of a tile after it", board: []Play{cat}, play: scoreTestPlay(t, "8E", Across, "AS"), wantErr: "square 8G after it holds a tile"},
		{name: "span starts after a tile", board: []Play{cat}, play: scoreTestPlay(t, "8H", Across, "..S"), wantErr: "square 8G before it holds a tile"},
		{name: "down span stops short", board: []Play{scoreTestPlay(t, "7H", Down, "AT")}, play: scoreTestPlay(t, "5H", Down, "BO"), wantErr: "square 7H after it holds a tile"},
		{name: "no new tile", board: []Play{cat}, play: scoreTestPlay(t, "8G", Across, "..."), wantErr: "places no tiles"},
		{name: "off the right edge", board: []Play{cat}, play: scoreTestPlay(t, "8M", Across, "ABCD"), wantErr: "off the board"},
		{name: "off the bottom", play: Play{Row: 12, Col: 7, Dir: Down, Tiles: scoreTestTiles(t, "ABCD")}, wantErr: "off the board"},
		{name: "negative start", play: Play{Row: 7, Col: -1, Dir: Across, Tiles: scoreTestTiles(t, "AB")}, wantErr: "off the board"},
		{name: "empty", play: Play{Row: 7, Col: 7, Dir: Across}, wantErr: "no squares"},
		{name: "eight tiles", play: scoreTestPlay(t, "8A", Across, "ABCDEFGH"), wantErr: "only 7"},
		{name: "not a letter", play: Play{Row: 7, Col: 7, Dir: Across, Tiles: []Letter{1, 27}}, wantErr: "not a letter"},
		{name: "bare blank bit", play: Play{Row: 7, Col: 7, Dir: Across, Tiles: []Letter{1, BlankBit}}, wantErr: "not a letter"},
		{name: "bad direction", play: Play{Row: 7, Col: 7, Dir: 2, Tiles: scoreTestTiles(t, "AB")}, wantErr: "direction"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := scoreTestBoard(tc.board...)
			err := b.CheckPlacement(tc.play)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Errorf("accepted, want an error containing %q", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Errorf("error %q, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestApply(t *testing.T) {
	b := scoreTestBoard(scoreTestPlay(t, "8G", Across, "CAT"))
	before := *b
	p := scoreTestPlay(t, "7H", Down, "b.D")
	b.Apply(p)
	want := map[string]Letter{"7H": 2 | BlankBit, "8H": 1, "9H": 4, "8G": 3, "8I": 20}
	for s, l := range want {
		r, c := scoreTestSquare(t, s)
		if got := b.At(r, c); got != l {
			t.Errorf("%s = %#x, want %#x", s, uint8(got), uint8(l))
		}
	}
	if b.TileCount() != before.TileCount()+p.NewTiles() {
		t.Errorf("TileCount %d after placing %d tiles on %d", b.TileCount(), p.NewTiles(), before.TileCount())
	}
	defer func() {
		if recover() == nil {
			t.Error("Apply off the board did not panic")
		}
	}()
	b.Apply(Play{Row: 7, Col: 13, Dir: Across, Tiles: scoreTestTiles(t, "ABC")})
}
