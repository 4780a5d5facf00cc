package endgame

import "scrabble/movegen"

// newGenerator is the one place this package makes a move generator, on
// the caller's tables.
func newGenerator(t *movegen.Tables) *movegen.Generator {
	return movegen.New(t)
}
