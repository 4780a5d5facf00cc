package game

import (
	"context"

	"scrabble/eval"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// Player chooses the moves of one seat. A game calls StartGame once, then
// Choose on each of the player's turns, and Observe after every move of
// either player (its own included), so a player can keep state of its own
// up to date incrementally (one that only searches the board can use
// View.Gen, which the game keeps up to date). A Player keeps per-game state:
// it plays one game at a time, and the two seats of a game are two
// different values. A player that needs randomness takes it from
// Start.Seed, so that games are reproducible.
type Player interface {
	// Name is the player's registry name, e.g. "equity".
	Name() string
	StartGame(s Start)
	// Choose returns the move to make. The game checks that it is legal.
	// v is valid during the call only (the game reuses it).
	Choose(ctx context.Context, v *View) (move.Move, error)
	// Observe is told the move seat made, after the board was updated; m
	// is valid during the call only.
	Observe(seat int, m *move.Move)
}

// Start is what a player learns when a game begins.
type Start struct {
	Tables *movegen.Tables // the lexicon's (Tables.Lexicon)
	Seat   int
	Seats  int    // players in the game
	First  bool   // the player moves first
	Seed   uint64 // for the player's own randomness, fixed by the game seed
}

// NewScorePlayer returns a player of the top-scoring play; with none, it
// exchanges all 7 tiles (or passes).
func NewScorePlayer() Player { return &staticPlayer{name: "score", scoreOnly: true} }

// NewEquityPlayer returns a player of the top-equity move (score + leave
// value, exchanges and pass too): leaves values the tiles kept (nil: every
// leave is worth 0), terms are equity terms beyond score and leave (zero:
// none).
func NewEquityPlayer(leaves movegen.LeaveValuer, terms eval.Terms) Player {
	return &staticPlayer{name: "equity", leaves: leaves, terms: terms}
}

// staticPlayer picks the best move by a static evaluation, searched with
// movegen's shadow-pruned Best on the game's generator (View.Gen).
type staticPlayer struct {
	name      string
	scoreOnly bool
	leaves    movegen.LeaveValuer
	terms     eval.Terms
}

func (p *staticPlayer) Name() string { return p.name }

func (p *staticPlayer) StartGame(Start) {}

func (p *staticPlayer) Observe(int, *move.Move) {}

func (p *staticPlayer) Choose(_ context.Context, v *View) (move.Move, error) {
	gen := v.Gen
	if p.scoreOnly {
		gen.SetLeaves(nil) // equity = score; the pass is worth 0
		m, _ := gen.Best(&v.Rack, v.BagLen, movegen.Options{Pass: true})
		if m.Kind == move.Pass && rules.CanExchange(v.BagLen) {
			m = exchangeAll(&v.Rack)
		}
		return m, nil
	}
	// With the bag empty the unseen tiles are the other players' racks.
	gen.SetLeaves(eval.EquityWithAmong(p.leaves, p.terms, v.BagLen, v.Unseen, v.Seats))
	m, _ := gen.Best(&v.Rack, v.BagLen, movegen.Options{Exchanges: true, Pass: true, OpenCost: p.terms.OpenCost(v.BagLen)})
	return m, nil
}

// exchangeAll is the exchange of every tile on the rack.
func exchangeAll(rack *rules.Rack) move.Move {
	m := move.Move{Kind: move.Exchange}
	for i := range rack {
		for range rack[i] {
			m.Tiles[m.Len] = rules.Letter(i)
			m.Len++
		}
	}
	m.NumTiles = m.Len
	return m
}
