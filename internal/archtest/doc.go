// Package archtest holds the architecture of the module as a test: the
// table of which package may import which, checked against every
// non-test Go file by `go test`. It is the first thing to read to learn
// how the engine fits together, and the one place to change when a
// package is added.
//
// Data flows one way. The game's rules come first (rules), then the
// move value and its notation (move), positions and their formats
// (position), and recorded games (gcg). Beside them, the word graph
// (gaddag), the lexica built from word lists (lexica), the move generator
// (movegen), move legality and scoring (referee), evaluation (eval), the
// exact endgame solver (endgame), one
// game between two players (game), then what plays many games or looks
// ahead (sim, selfplay, train), post-game review (review), and the command
// line (cmd/scrabble), which wires them together and holds no engine
// logic. Small utility packages under internal/ import nothing of the
// module and may be used anywhere; nothing imports benchmarks, and the
// test helpers (internal/testlex, internal/testgen, internal/gametest)
// are imported by tests only.
//
// It also checks that non-test code starts goroutines only through
// crash.Group, which recovers a goroutine's panic for the goroutine that
// waits: a bug in a worker is an error (exit 70), never Go's exit 2.
package archtest
