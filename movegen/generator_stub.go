package movegen

// STUB: the real generator is being written; signatures are final.

import (
	"scrabble/gaddag"
	"scrabble/rules"
)

// Generator generates moves for one board. It is not safe for concurrent
// use: each worker owns its own.
type Generator struct {
	lex   *gaddag.GADDAG
	board rules.Board
}

// New returns a generator over an empty board.
func New(lex *gaddag.GADDAG) *Generator { return &Generator{lex: lex} }

// SetBoard replaces the board and recomputes every cross-check.
func (g *Generator) SetBoard(b *rules.Board) { g.board = *b }

// Board returns the current board (read-only).
func (g *Generator) Board() *rules.Board { return &g.board }

// Apply places a play on the board, updating cross-checks only where it
// touches. Exchanges and passes leave the board as it is.
func (g *Generator) Apply(m *Move) {}

// GeneratePlays hands every legal play for rack to rec (not exchanges or the
// pass). On an empty board only across plays are listed.
func (g *Generator) GeneratePlays(rack *rules.Rack, rec Recorder) {}

// Options says which non-play moves Generate adds.
type Options struct {
	// Exchanges adds every distinct exchange when the bag holds at least
	// rules.ExchangeMinBag tiles.
	Exchanges bool
	// Pass adds the pass.
	Pass bool
}

// Generate hands rec every play, then the exchanges and pass that opts ask
// for and the bag allows.
func (g *Generator) Generate(rack *rules.Rack, bagLen int, opts Options, rec Recorder) {}
