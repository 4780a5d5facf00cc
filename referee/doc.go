// Package referee judges a move in a position: whether it is legal for the
// player's rack, the bag and the lexicon, and what it scores (ValidateMove,
// CheckMove). It sits apart from the move value (package move), which knows
// no lexicon, and from the generator (package movegen), which only makes
// legal moves, so that readers of recorded games and game loops can check a
// move without generating any.
package referee
