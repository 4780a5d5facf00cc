package sim

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"scrabble/eval"
	"scrabble/gaddag"
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
// GameStart.Seed, so that games are reproducible.
type Player interface {
	// Name is the player's registry name, e.g. "equity".
	Name() string
	StartGame(s GameStart)
	// Choose returns the move to make. The game checks that it is legal.
	// v is valid during the call only (the game reuses it).
	Choose(ctx context.Context, v *View) (move.Move, error)
	// Observe is told the move seat made, after the board was updated; m
	// is valid during the call only.
	Observe(seat int, m *move.Move)
}

// GameStart is what a player learns when a game begins.
type GameStart struct {
	Lexicon *gaddag.GADDAG
	Seat    int
	First   bool   // the player moves first
	Seed    uint64 // for the player's own randomness, fixed by the game seed
}

// PlayerOptions configures a player made by NewPlayer.
type PlayerOptions struct {
	// Leaves values the tiles kept (millipoints); nil means every leave is
	// worth 0. Used by the equity player (the score player takes none).
	Leaves movegen.LeaveValuer
	// Terms are equity terms beyond score and leave (eval.Terms) for the
	// equity player; zero is none.
	Terms eval.Terms
	// Sim is the sim player's budget and settings, DefaultSimPlayer when
	// zero (Leaves above, the seed from the game; Threads defaults to 1).
	Sim SimOptions
}

// PlayerInfo describes a registered player.
type PlayerInfo struct {
	Name        string
	Description string
}

type playerEntry struct {
	PlayerInfo
	make func(PlayerOptions) (Player, error)
}

var registry = []playerEntry{
	{PlayerInfo{"score", "the top-scoring play; with none, exchanges all 7 tiles (or passes)"},
		func(o PlayerOptions) (Player, error) {
			if o.Leaves != nil {
				return nil, fmt.Errorf("the score player uses no leave values")
			}
			if !o.Terms.IsZero() {
				return nil, fmt.Errorf("the score player uses no equity terms")
			}
			return &staticPlayer{name: "score", scoreOnly: true}, nil
		}},
	{PlayerInfo{"equity", "the top-equity move (score + leave value, exchanges and pass too)"},
		func(o PlayerOptions) (Player, error) {
			return &staticPlayer{name: "equity", leaves: o.Leaves, terms: o.Terms}, nil
		}},
	{PlayerInfo{"sim", "the best move by Monte Carlo simulation (equity player's candidates and answers)"}, newSimPlayer},
}

// Players lists the registered players by name.
func Players() []PlayerInfo {
	out := make([]PlayerInfo, len(registry))
	for i, e := range registry {
		out[i] = e.PlayerInfo
	}
	slices.SortFunc(out, func(a, b PlayerInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// NewPlayer returns a new player of the named kind (see Players).
func NewPlayer(name string, opts PlayerOptions) (Player, error) {
	for _, e := range registry {
		if e.Name == name {
			p, err := e.make(opts)
			if err != nil {
				return nil, fmt.Errorf("player %s: %w", name, err)
			}
			return p, nil
		}
	}
	names := make([]string, 0, len(registry))
	for _, e := range Players() {
		names = append(names, e.Name)
	}
	return nil, fmt.Errorf("unknown player %q: want one of %s", name, strings.Join(names, ", "))
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

func (p *staticPlayer) StartGame(GameStart) {}

func (p *staticPlayer) Observe(int, *move.Move) {}

func (p *staticPlayer) Choose(_ context.Context, v *View) (move.Move, error) {
	gen := v.Gen
	if p.scoreOnly {
		gen.SetLeaves(nil) // equity = 1000 * score; the pass is worth 0
		m, _ := gen.Best(&v.Rack, v.BagLen, movegen.Options{Pass: true})
		if m.Kind == move.Pass && rules.CanExchange(v.BagLen) {
			m = exchangeAll(&v.Rack)
		}
		return m, nil
	}
	// With the bag empty the unseen tiles are the opponent's rack.
	gen.SetLeaves(eval.EquityWith(p.leaves, p.terms, v.BagLen, v.Unseen))
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
