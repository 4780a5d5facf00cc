package referee

import (
	"scrabble/gaddag"
	"scrabble/rules"
)

// BoardPhonies lists the words on b (runs of two or more tiles, across
// then down) that lex does not hold, upper case, each once, in the order
// they are met.
func BoardPhonies(b *rules.Board, lex *gaddag.GADDAG) []string {
	var phonies []string
	seen := map[string]bool{}
	for _, bb := range []rules.Board{*b, b.Transposed()} {
		for r := range rules.Size {
			start := 0
			for c := 0; c <= rules.Size; c++ {
				if c < rules.Size && bb.At(r, c) != rules.Empty {
					continue
				}
				if c-start >= 2 {
					word := make([]rules.Letter, c-start)
					for i := range word {
						word[i] = bb.At(r, start+i).Unblanked()
					}
					if w := rules.WordString(word); !seen[w] {
						seen[w] = true
						if !lex.ContainsLetters(word) {
							phonies = append(phonies, w)
						}
					}
				}
				start = c + 1
			}
		}
	}
	return phonies
}
