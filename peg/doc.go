// Package peg solves pre-endgames: positions with a few tiles in the bag,
// where the draw decides the endgame that follows. Every candidate is valued
// over every possible draw, each followed by an exact endgame.
package peg
