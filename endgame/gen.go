package endgame

import (
	"scrabble/gaddag"
	"scrabble/movegen"
)

// newGenerator is the one place this package makes a move generator:
// movegen's constructor is about to change (tables built once per lexicon,
// then generators from them), and only this function will follow.
func newGenerator(lex *gaddag.GADDAG) *movegen.Generator {
	return movegen.New(lex)
}
