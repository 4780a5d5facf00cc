package main

import (
	"fmt"
	"io"
	"strings"

	"scrabble/gaddag"
	"scrabble/position"
	"scrabble/referee"
	"scrabble/rules"
)

// maxPhoniesNamed caps the words a board-word warning names, so that a
// board from another lexicon's game gives one readable line.
const maxPhoniesNamed = 8

// warnPhonies writes one warning line to stderr naming the words on the
// board of file that lex does not hold. Such a board is still used:
// players do reach positions with a phony left unchallenged, and a board
// from a game in another lexicon is worth looking at. Stdout is untouched,
// so JSON output stays clean.
func (a *app) warnPhonies(file string, b *rules.Board, lex *gaddag.GADDAG) {
	phonies := referee.BoardPhonies(b, lex)
	if len(phonies) == 0 {
		return
	}
	named := strings.Join(phonies[:min(len(phonies), maxPhoniesNamed)], ", ")
	if more := len(phonies) - maxPhoniesNamed; more > 0 {
		named += fmt.Sprintf(" and %d more", more)
	}
	fmt.Fprintf(a.stderr, "scrabble: warning: %s: %s not in %s: %s\n",
		positionName(file), wordsNoun(len(phonies)), lex.Header().Name, named)
}

func wordsNoun(n int) string {
	if n == 1 {
		return "word"
	}
	return "words"
}

// warnShownPhonies is warnPhonies for show, which needs no lexicon of its
// own: the board is checked against the lexicon best and moves would use
// for it, and not at all when none can be loaded (show works without any).
func (a *app) warnShownPhonies(file string, p *position.Position) {
	quiet := *a
	quiet.stderr = io.Discard // no note about a fallback lexicon: show uses none
	lex, err := quiet.positionLexicon(p.Lexicon)
	if err != nil {
		return
	}
	a.warnPhonies(file, &p.Board, lex)
}
