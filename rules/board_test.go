package rules

import "testing"

func TestPremiumLayout(t *testing.T) {
	for r, line := range premiumLayout {
		if len(line) != Size {
			t.Errorf("layout row %d has %d characters, want %d", r+1, len(line), Size)
		}
	}
	count := map[Premium]int{}
	for _, p := range premiums {
		count[p]++
	}
	want := map[Premium]int{DoubleLetter: 24, TripleLetter: 12, DoubleWord: 17, TripleWord: 8}
	for p, n := range want {
		if count[p] != n {
			t.Errorf("premium %d: %d squares, want %d", p, count[p], n)
		}
	}
	if got := PremiumAt(CenterRow, CenterCol); got != DoubleWord {
		t.Errorf("centre square premium %d, want DoubleWord", got)
	}
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			p := PremiumAt(r, c)
			for _, m := range [][2]int{{Size - 1 - r, c}, {r, Size - 1 - c}, {c, r}} {
				if q := PremiumAt(m[0], m[1]); q != p {
					t.Errorf("square %s has premium %d but its mirror %s has %d",
						SquareName(r, c), p, SquareName(m[0], m[1]), q)
				}
			}
		}
	}
}

func TestPremiumSquares(t *testing.T) {
	// Spot checks against the printed board, in players' notation.
	tests := []struct {
		sq   string
		want Premium
	}{
		{"1A", TripleWord}, {"1H", TripleWord}, {"8A", TripleWord}, {"15O", TripleWord},
		{"1D", DoubleLetter}, {"7G", DoubleLetter}, {"8D", DoubleLetter}, {"3G", DoubleLetter},
		{"2F", TripleLetter}, {"6B", TripleLetter}, {"6F", TripleLetter}, {"10J", TripleLetter},
		{"2B", DoubleWord}, {"5E", DoubleWord}, {"4D", DoubleWord}, {"8H", DoubleWord}, {"14N", DoubleWord},
		{"1B", NoPremium}, {"8G", NoPremium}, {"5F", NoPremium},
	}
	for _, tc := range tests {
		r, c := scoreTestSquare(t, tc.sq)
		if got := PremiumAt(r, c); got != tc.want {
			t.Errorf("%s: premium %d, want %d", tc.sq, got, tc.want)
		}
	}
}

func TestMultipliers(t *testing.T) {
	tests := []struct {
		p            Premium
		letter, word int
	}{
		{NoPremium, 1, 1}, {DoubleLetter, 2, 1}, {TripleLetter, 3, 1}, {DoubleWord, 1, 2}, {TripleWord, 1, 3},
	}
	for _, tc := range tests {
		if tc.p.LetterMultiplier() != tc.letter || tc.p.WordMultiplier() != tc.word {
			t.Errorf("premium %d: multipliers %d, %d; want %d, %d",
				tc.p, tc.p.LetterMultiplier(), tc.p.WordMultiplier(), tc.letter, tc.word)
		}
	}
}

func TestBoardBasics(t *testing.T) {
	var b Board
	if !b.IsEmpty() || b.TileCount() != 0 {
		t.Fatal("zero board is not empty")
	}
	b.Apply(Play{Row: 7, Col: 6, Dir: Across, Tiles: scoreTestTiles(t, "CaT")})
	b.Apply(Play{Row: 8, Col: 8, Dir: Down, Tiles: scoreTestTiles(t, "OE")})
	if b.IsEmpty() || b.TileCount() != 5 {
		t.Errorf("TileCount = %d, want 5", b.TileCount())
	}
	if got := b.At(7, 7); got != Letter(1)|BlankBit {
		t.Errorf("At(8H) = %#x, want blank a", uint8(got))
	}
	counts := b.TileCounts()
	if counts[0] != 1 || counts[1] != 0 || counts[3] != 1 || counts[20] != 1 || counts.Count() != 5 {
		t.Errorf("TileCounts = %v", counts)
	}
	tr := b.Transposed()
	for r := 0; r < Size; r++ {
		for c := 0; c < Size; c++ {
			if tr.At(c, r) != b.At(r, c) {
				t.Fatalf("Transposed: (%d,%d) differs", r, c)
			}
		}
	}
	if tt := tr.Transposed(); tt != b {
		t.Error("transposing twice does not give the board back")
	}
}

func TestInBounds(t *testing.T) {
	tests := []struct {
		r, c int
		want bool
	}{
		{0, 0, true}, {14, 14, true}, {7, 7, true},
		{-1, 0, false}, {0, -1, false}, {15, 0, false}, {0, 15, false},
	}
	for _, tc := range tests {
		if got := InBounds(tc.r, tc.c); got != tc.want {
			t.Errorf("InBounds(%d, %d) = %v", tc.r, tc.c, got)
		}
	}
}
