package referee_test

import (
	"crypto/sha256"
	"slices"
	"testing"

	"scrabble/gaddag"
	"scrabble/referee"
	"scrabble/rules"
)

func TestBoardPhonies(t *testing.T) {
	words := []string{"CAT", "CATS", "AT", "TA"}
	lex, err := gaddag.Build("T", words, sha256.Sum256([]byte("CAT\nCATS\nAT\nTA\n")))
	if err != nil {
		t.Fatal(err)
	}
	place := func(b *rules.Board, row, col int, across bool, word string) {
		for i, r := range word {
			l := rules.Letter(r - 'A' + 1)
			if r >= 'a' && r <= 'z' {
				l = rules.Letter(r - 'a' + 1).Blanked()
			}
			if across {
				b.Set(row, col+i, l)
			} else {
				b.Set(row+i, col, l)
			}
		}
	}
	tests := []struct {
		name  string
		plays func(b *rules.Board)
		want  []string
	}{
		{"empty", func(*rules.Board) {}, nil},
		{"one word", func(b *rules.Board) { place(b, 7, 7, true, "CAT") }, nil},
		{"a blank is its letter", func(b *rules.Board) { place(b, 7, 7, true, "CaT") }, nil},
		{"phony across", func(b *rules.Board) { place(b, 7, 7, true, "TAC") }, []string{"TAC"}},
		{"phony down, once", func(b *rules.Board) {
			place(b, 0, 0, false, "XYZ")
			place(b, 0, 5, false, "XYZ")
		}, []string{"XYZ"}},
		{"cross word", func(b *rules.Board) {
			place(b, 7, 7, true, "CAT")
			place(b, 8, 8, true, "TT")
		}, []string{"TT"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b rules.Board
			tc.plays(&b)
			got := referee.BoardPhonies(&b, lex)
			if !slices.Equal(got, tc.want) {
				t.Errorf("BoardPhonies = %q, want %q", got, tc.want)
			}
		})
	}
}
