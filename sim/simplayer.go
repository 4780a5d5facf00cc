package sim

import (
	"context"
	"fmt"
	"reflect"

	"scrabble/gaddag"
	"scrabble/move"
)

// DefaultSimPlayer is the sim player's budget when PlayerOptions.Sim is
// left zero: the budget measured against the equity player (README.md).
var DefaultSimPlayer = SimOptions{Candidates: 10, Iterations: 64, Confidence: 0.95}

// simPlayer picks its moves by Monte Carlo simulation (see Simulator),
// with the options of PlayerOptions.Sim, on one thread: self-play runs games
// in parallel instead. Each turn's draws come from the game's seed and the
// turn number, so games are reproducible.
type simPlayer struct {
	opts SimOptions
	lex  *gaddag.GADDAG
	sim  *Simulator
	seed uint64
}

func newSimPlayer(o PlayerOptions) (Player, error) {
	if !o.Terms.IsZero() {
		return nil, fmt.Errorf("the sim player takes no equity terms (its rollouts use score and leave)")
	}
	so := o.Sim
	so.Progress = nil
	if reflect.DeepEqual(so, SimOptions{}) {
		so = DefaultSimPlayer
	}
	so.Leaves = o.Leaves
	if so.Threads == 0 {
		so.Threads = 1
	}
	// Bad options are an error now rather than mid-game.
	if err := checkOptions(&so); err != nil {
		return nil, err
	}
	return &simPlayer{opts: so}, nil
}

func (p *simPlayer) Name() string { return "sim" }

func (p *simPlayer) StartGame(s GameStart) {
	if p.sim == nil || p.lex != s.Lexicon {
		p.lex, p.sim = s.Lexicon, NewSimulator(s.Lexicon)
	}
	p.seed = s.Seed
}

func (p *simPlayer) Observe(int, *move.Move) {}

func (p *simPlayer) Choose(ctx context.Context, v *View) (move.Move, error) {
	pos := SimPosition{
		Board:         *v.Board,
		Rack:          v.Rack,
		OpponentTiles: v.OppTiles,
		Scores:        [2]int{v.Scores[v.Seat], v.Scores[1-v.Seat]},
		Scoreless:     v.Scoreless,
	}
	opts := p.opts
	opts.Seed = mix(p.seed ^ mix(uint64(v.Turn)))
	res, err := p.sim.Simulate(ctx, &pos, opts)
	if err != nil {
		return move.Move{}, fmt.Errorf("simulating: %w", err)
	}
	return res.Candidates[0].Move, nil
}
