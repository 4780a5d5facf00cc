package movegen_test

import (
	"testing"

	"scrabble/internal/testlex"
	"scrabble/movegen"
	"scrabble/rules"
)

// Premiums by row (rows 1-15, columns A-O), for checking the comments below:
//
//	1/15  TW A H O, DL D L        2/14  DW B N, TL F J
//	3/13  DW C M, DL G I          4/12  DL A H O, DW D L
//	5/11  DW E K                  6/10  TL B F J N
//	7/9   DL C G I M              8     TW A O, DL D L, DW H (the star)

// handPlay is a play or a board word in players' notation: square ("8H",
// row then column), direction, tiles (upper case, lower case for blanks,
// '.' for a square already on the board).
type handPlay struct {
	sq    string
	dir   rules.Direction
	tiles string
}

func (h handPlay) parse(t *testing.T) refPlay {
	t.Helper()
	row, col := 0, 0
	i := 0
	for ; i < len(h.sq) && h.sq[i] >= '0' && h.sq[i] <= '9'; i++ {
		row = row*10 + int(h.sq[i]-'0')
	}
	if i != len(h.sq)-1 || row < 1 || row > rules.Size || h.sq[i] < 'A' || h.sq[i] >= 'A'+rules.Size {
		t.Fatalf("bad square %q", h.sq)
	}
	col = int(h.sq[i] - 'A')
	p := refPlay{row: row - 1, col: col, dir: h.dir}
	for _, r := range h.tiles {
		if r == '.' {
			p.tiles = append(p.tiles, rules.PlayedThrough)
			continue
		}
		l, ok := rules.LetterFromRune(r)
		if !ok || l == rules.Blank {
			t.Fatalf("bad tile %q in %q", r, h.tiles)
		}
		p.tiles = append(p.tiles, l)
	}
	return p
}

// TestHandCases checks plays whose scores were worked out by hand: each must
// be among the engine's plays with that score, the reference must agree, and
// the two must list the same plays overall.
func TestHandCases(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	lx := refLex(t, testlex.Name())
	tests := []struct {
		name  string
		board []handPlay
		rack  string
		play  handPlay
		want  int
		notIn string // a lexicon that lacks a word the case forms
	}{
		{
			// OLD 7F-9F, ANT 7H-9H, HEN 7J-9J down put L, N, E on 8F, 8H,
			// 8J. PLANTERS 8E-8L places P A T R S between and after them,
			// no cross-words; only the S is on a premium (8L DL), the DW
			// on 8H is under the old N: 3+1+1+1+1+1+1+2*1 = 11.
			name:  "through three board tiles",
			board: []handPlay{{"7F", rules.Down, "OLD"}, {"7H", rules.Down, "ANT"}, {"7J", rules.Down, "HEN"}},
			rack:  "APRSTUV", play: handPlay{"8E", rules.Across, "P.A.T.RS"}, want: 11,
		},
		{
			// OMEGA on 8C-8G; KYLIX on 9C-9G under it makes OK MY EL GI AX.
			// K and X are on DLs (9C, 9G). KYLIX 10+4+1+1+16 = 32;
			// OK 1+10 = 11, MY 3+4 = 7, EL 2, GI 3, AX 1+16 = 17: 40.
			// Total 72.
			name:  "parallel play forming five two-letter words",
			board: []handPlay{{"8C", rules.Across, "OMEGA"}},
			rack:  "IKLXYEE", play: handPlay{"9C", rules.Across, "KYLIX"}, want: 72,
			notIn: testlex.SOWPODS, // no OK: Collins took it in 2019
		},
		{
			// EAR on 8E-8G; B on 8D (DL) and D on 8H (DW) make BEARD:
			// (3*2 + 1+1+1 + 2)*2 = 22.
			name:  "front and back hook of one word",
			board: []handPlay{{"8E", rules.Across, "EAR"}},
			rack:  "BDQVWXZ", play: handPlay{"8D", rules.Across, "B...D"}, want: 22,
		},
		{
			// CAT on 5E-5G, OWL on 9I-9K. SLOTH down 5H-9H back-hooks CATS
			// and front-hooks HOWL. SLOTH 1+1+1+1+4 = 8, doubled by the
			// star (8H): 16. CATS 3+1+1+1 = 6, HOWL 4+1+4+1 = 10 (5H and
			// 9H are plain). Total 32.
			name:  "hooks two words at both ends",
			board: []handPlay{{"5E", rules.Across, "CAT"}, {"9I", rules.Across, "OWL"}},
			rack:  "EEHLOST", play: handPlay{"5H", rules.Down, "SLOTH"}, want: 32,
		},
		{
			// ILL on 3B-3D. ZAP down 1A-3A, PILL across: Z on 1A (TW), 2A
			// and 3A plain. ZAP (10+1+3)*3 = 42, PILL 3+1+1+1 = 6: 48.
			name:  "row 1 and column A",
			board: []handPlay{{"3B", rules.Across, "ILL"}},
			rack:  "APZUUVW", play: handPlay{"1A", rules.Down, "ZAP"}, want: 48,
		},
		{
			// JAM on 15L-15N. AXES down 12O-15O hooks JAMS: A on 12O (DL),
			// S on 15O (TW) triples both words. AXES (2+8+1+1)*3 = 36,
			// JAMS (8+1+3+1)*3 = 39: 75.
			name:  "row 15 and column O",
			board: []handPlay{{"15L", rules.Across, "JAM"}},
			rack:  "AEOSXUU", play: handPlay{"12O", rules.Down, "AXES"}, want: 75,
		},
		{
			// HE on 7G-7H, AX down 8I-9I. M on 7I (DL) makes HEM across and
			// MAX rules.Down, listed once as the across play: HEM 4+1+3*2 = 11,
			// MAX 3*2+1+8 = 15: 26.
			name:  "one tile forming two words",
			board: []handPlay{{"7G", rules.Across, "HE"}, {"8I", rules.Down, "AX"}},
			rack:  "MUUVVWW", play: handPlay{"7G", rules.Across, "..M"}, want: 26,
		},
		{
			// CAT on 8G-8I; S on 9H forms only AS rules.Down, so the play is
			// listed as down: 1+1 = 2 (9H is plain).
			name:  "one tile forming only a down word",
			board: []handPlay{{"8G", rules.Across, "CAT"}},
			rack:  "SUUVVWW", play: handPlay{"8H", rules.Down, ".S"}, want: 2,
		},
		{
			// AT down 4G-5G. RETAINS 5E-5K through the T: 5E and 5K are both
			// DW, so x4: 7*4 = 28 (six tiles, no bingo).
			name:  "two double words (x4)",
			board: []handPlay{{"4G", rules.Down, "AT"}},
			rack:  "AEINRSU", play: handPlay{"5E", rules.Across, "RE.AINS"}, want: 28,
		},
		{
			// AT down 1D-2D. STRAINED 1A-1H through the A (the DL on 1D is
			// under the old A): 1A and 1H are TW, x9; D on 1H gets no letter
			// premium. 1+1+1+1+1+1+1+2 = 9, 9*9 = 81, seven tiles: +50 = 131.
			name:  "two triple words (x9) bingo",
			board: []handPlay{{"1D", rules.Down, "AT"}},
			rack:  "DEINRST", play: handPlay{"1A", rules.Across, "STR.INED"}, want: 131,
		},
		{
			// Rule sheet: HI on 2C-2D; QUEEN on 1D-1H, Q on 1D (DL) over the
			// I makes QI. QUEEN (20+1+1+1+1)*3 (N on 1H, TW) = 72,
			// QI 20+1 = 21: 93.
			name:  "rule sheet QUEEN and QI",
			board: []handPlay{{"2C", rules.Across, "HI"}},
			rack:  "EENQUVW", play: handPlay{"1D", rules.Across, "QUEEN"}, want: 93,
		},
		{
			// Rule sheet: JOKE on 1D-1G, TAR down 2H-4H; an S on 1H (TW)
			// makes JOKES and STAR, both tripled, listed once as across.
			// JOKES (8+1+5+1+1)*3 = 48, STAR (1+1+1+1)*3 = 12: 60.
			name:  "rule sheet JOKES and STAR",
			board: []handPlay{{"1D", rules.Across, "JOKE"}, {"2H", rules.Down, "TAR"}},
			rack:  "SUUVVWW", play: handPlay{"1D", rules.Across, "....S"}, want: 60,
		},
		{
			// Opening ZEBRa with a blank as the A on the star: Z on 8D (DL).
			// (20+1+3+1+0)*2 = 50.
			name: "opening with a blank",
			rack: "BERZ?", play: handPlay{"8D", rules.Across, "ZEBRa"}, want: 50,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.notIn == lx.name {
				t.Skipf("%s lacks a word this case forms", tc.notIn)
			}
			var board rules.Board
			for _, w := range tc.board {
				p := w.parse(t)
				refApply(&board, p)
			}
			rack, err := rules.ParseRack(tc.rack)
			if err != nil {
				t.Fatal(err)
			}
			p := tc.play.parse(t)
			key := refKeyOf(p.row, p.col, p.dir, p.tiles)
			pos := &refPosition{stage: "hand", board: board, rack: rack}

			// The case itself, checked by the reference's scorer.
			if s, err := refScore(lx, &board, p); err != nil || s != tc.want {
				t.Fatalf("reference scorer: %s = %d, %v; want %d\n%v", describeKey(key), s, err, tc.want, pos)
			}
			if err := refListed(&board, p); err != nil {
				t.Fatalf("bad case: %v", err)
			}
			ref := refPlays(lx, &board, rack)
			if s, ok := ref[key]; !ok || s != tc.want {
				t.Errorf("reference generator: %s listed %v with score %d, want %d", describeKey(key), ok, s, tc.want)
			}

			g := movegen.New(movegen.TablesFor(lex))
			g.SetBoard(&board)
			c := enginePlays(g, rack)
			if s, ok := c.plays[key]; !ok {
				t.Errorf("engine does not list %s (%s)\n%v", key, describeKey(key), pos)
			} else if s != tc.want {
				t.Errorf("engine scores %s (%s) %d, want %d", key, describeKey(key), s, tc.want)
			}
			checkCollected(t, "engine vs reference", pos, c, ref)
		})
	}
}
