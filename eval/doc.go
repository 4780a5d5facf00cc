// Package eval values positions and moves: equity = score + the value of the
// tiles kept, with leave values the engine learns from self-play.
package eval
