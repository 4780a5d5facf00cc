package rules

import (
	"strings"
	"testing"
)

func TestTileValues(t *testing.T) {
	want := map[int]string{
		1:  "AEILNORSTU",
		2:  "DG",
		3:  "BCMP",
		4:  "FHVWY",
		5:  "K",
		8:  "JX",
		10: "QZ",
	}
	seen := 0
	for v, letters := range want {
		for _, r := range letters {
			l, ok := LetterFromRune(r)
			if !ok {
				t.Fatalf("LetterFromRune(%q) failed", r)
			}
			if got := l.Value(); got != v {
				t.Errorf("%c: value %d, want %d", r, got, v)
			}
			if got := l.Blanked().Value(); got != 0 {
				t.Errorf("blank as %c: value %d, want 0", r, got)
			}
			seen++
		}
	}
	if seen != NumLetters {
		t.Fatalf("table covers %d letters, want %d", seen, NumLetters)
	}
	if got := Blank.Value(); got != 0 {
		t.Errorf("blank: value %d, want 0", got)
	}
}

func TestDistribution(t *testing.T) {
	want := map[rune]uint8{
		'A': 9, 'B': 2, 'C': 2, 'D': 4, 'E': 12, 'F': 2, 'G': 3, 'H': 2, 'I': 9,
		'J': 1, 'K': 1, 'L': 4, 'M': 2, 'N': 6, 'O': 8, 'P': 2, 'Q': 1, 'R': 6,
		'S': 4, 'T': 6, 'U': 4, 'V': 2, 'W': 2, 'X': 1, 'Y': 2, 'Z': 1, '?': 2,
	}
	if len(want) != RackSlots {
		t.Fatalf("table has %d entries, want %d", len(want), RackSlots)
	}
	for r, n := range want {
		l, _ := LetterFromRune(r)
		if got := distribution[l.RackIndex()]; got != n {
			t.Errorf("%c: %d tiles, want %d", r, got, n)
		}
	}
	if got := TileCount(); got != 100 {
		t.Errorf("TileCount() = %d, want 100", got)
	}
	d := distribution
	if got := d.Count(); got != 100 {
		t.Errorf("distribution.Count() = %d, want 100", got)
	}
	if got := d.Value(); got != 187 {
		t.Errorf("face value of the set = %d, want 187", got)
	}
}

func TestLetterRuneRoundTrip(t *testing.T) {
	for r := 'A'; r <= 'Z'; r++ {
		l, ok := LetterFromRune(r)
		if !ok || l != Letter(r-'A'+1) || l.IsBlanked() || !l.IsLetter() {
			t.Errorf("LetterFromRune(%q) = %d, %v", r, l, ok)
		}
		if got := l.Rune(); got != r {
			t.Errorf("Letter(%d).Rune() = %q, want %q", l, got, r)
		}
		if l.RackIndex() != int(l) {
			t.Errorf("%c: RackIndex %d", r, l.RackIndex())
		}
	}
	for r := 'a'; r <= 'z'; r++ {
		l, ok := LetterFromRune(r)
		if !ok || !l.IsBlanked() || !l.IsLetter() || l.Unblanked() != Letter(r-'a'+1) {
			t.Errorf("LetterFromRune(%q) = %#x, %v", r, uint8(l), ok)
		}
		if got := l.Rune(); got != r {
			t.Errorf("Letter(%#x).Rune() = %q, want %q", uint8(l), got, r)
		}
		if l.RackIndex() != 0 {
			t.Errorf("%c: RackIndex %d, want 0 (blank)", r, l.RackIndex())
		}
		if l.Unblanked().Blanked() != l {
			t.Errorf("%c: Blanked(Unblanked) does not round-trip", r)
		}
	}
	if l, ok := LetterFromRune('?'); !ok || l != Blank || l.Rune() != '?' || l.IsLetter() {
		t.Errorf("LetterFromRune('?') = %d, %v", l, ok)
	}
	for _, r := range []rune{'@', '[', '`', '{', '1', ' ', 'é'} {
		if _, ok := LetterFromRune(r); ok {
			t.Errorf("LetterFromRune(%q) accepted", r)
		}
	}
}

func TestParseWord(t *testing.T) {
	ls, err := ParseWord("QuEEN")
	if err != nil {
		t.Fatal(err)
	}
	want := []Letter{17, 21 | BlankBit, 5, 5, 14}
	if len(ls) != len(want) {
		t.Fatalf("ParseWord(QuEEN) = %v", ls)
	}
	for i := range want {
		if ls[i] != want[i] {
			t.Errorf("ParseWord(QuEEN)[%d] = %#x, want %#x", i, uint8(ls[i]), uint8(want[i]))
		}
	}
	if got := WordString(ls); got != "QuEEN" {
		t.Errorf("WordString = %q", got)
	}
	for _, bad := range []string{"QU?EN", "QU-EN", "QU EN"} {
		if _, err := ParseWord(bad); err == nil || !strings.Contains(err.Error(), "position 3") {
			t.Errorf("ParseWord(%q) error = %v, want one naming position 3", bad, err)
		}
	}
}

func TestParseRack(t *testing.T) {
	tests := []struct {
		in      string
		want    string // Rack.String of the result
		wantErr string // substring of the error
	}{
		{in: "AEINRST", want: "AEINRST"},
		{in: "?tsenia", want: "AEINST?"},
		{in: "QQ??", want: "QQ??"},
		{in: "", want: ""},
		{in: "AB1", wantErr: `'1' at position 3`},
		{in: "A B", wantErr: `' ' at position 2`},
		{in: "A*", wantErr: `'*' at position 2`},
		{in: strings.Repeat("A", 255), want: strings.Repeat("A", 255)},
		{in: strings.Repeat("a", 256), wantErr: "more than 255 of one tile"}, // not a wrap to an empty rack
		{in: strings.Repeat("?", 300), wantErr: "more than 255"},
	}
	for _, tc := range tests {
		r, err := ParseRack(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseRack(%q) error = %v, want one containing %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseRack(%q): %v", tc.in, err)
			continue
		}
		if got := r.String(); got != tc.want {
			t.Errorf("ParseRack(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if r.Count() != len(tc.in) {
			t.Errorf("ParseRack(%q).Count() = %d", tc.in, r.Count())
		}
	}
}

func TestRackOps(t *testing.T) {
	r, _ := ParseRack("AQ?")
	if got := r.Value(); got != 11 {
		t.Errorf("Value(AQ?) = %d, want 11", got)
	}
	r.Add(Letter(5) | BlankBit) // a blanked E goes back as a blank
	if r[0] != 2 || r.Count() != 4 {
		t.Errorf("after adding a blanked E: %v", r)
	}
	if !r.Remove(17) || r.Remove(17) {
		t.Errorf("Remove(Q) should succeed once")
	}
	sub, _ := ParseRack("A?")
	if !r.Contains(sub) {
		t.Errorf("%v should contain %v", r, sub)
	}
	r.Sub(sub)
	if r.String() != "?" {
		t.Errorf("after Sub: %q, want \"?\"", r.String())
	}
}

func TestUnseen(t *testing.T) {
	var b Board
	b.Apply(Play{Row: 7, Col: 5, Dir: Across, Tiles: scoreTestTiles(t, "QUEeN")})
	rack, _ := ParseRack("EEZ?")
	u, err := Unseen(&b, rack)
	if err != nil {
		t.Fatal(err)
	}
	want := distribution
	want[17]--   // Q
	want[21]--   // U
	want[5] -= 3 // one E on the board (the other is the blank), two on the rack
	want[14]--   // N
	want[26]--   // Z
	want[0] -= 2 // the blank e and the rack's ?
	if u != want {
		t.Errorf("Unseen = %v, want %v", u, want)
	}
	if u.Count() != 100-9 {
		t.Errorf("Unseen count %d, want 91", u.Count())
	}

	tests := []struct {
		rack, name string
	}{
		{"ZZ", "Zs"},
		{"???", "blanks"},
		{"Q", "Qs"}, // the board already holds the only Q
	}
	for _, tc := range tests {
		r, _ := ParseRack(tc.rack)
		if _, err := Unseen(&b, r); err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("Unseen with rack %q: error %v, want one naming %q", tc.rack, err, tc.name)
		}
	}
}

// FuzzParseRack: a rack either fails to parse, naming it, or holds one tile
// a character and writes back to the same tiles.
func FuzzParseRack(f *testing.F) {
	for _, s := range []string{"AEINRST", "?tsenia", "", "AB1", strings.Repeat("E", 256), "\xff?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRack(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "rack ") {
				t.Fatalf("error %q does not name the rack", err)
			}
			return
		}
		if r.Count() != len(s) {
			t.Fatalf("ParseRack(%q): %d tiles", s, r.Count())
		}
		if again, err := ParseRack(r.String()); err != nil || again != r {
			t.Fatalf("ParseRack(%q) = %v; its String %q reads back as %v, %v", s, r, r.String(), again, err)
		}
	})
}
