package sim

import (
	"context"
	"fmt"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/splitmix"
	"scrabble/move"
	"scrabble/movegen"
)

// DefaultPlayer is the sim player's budget when selfplay.PlayerOptions.Sim
// is left zero: the budget measured against the equity player
// (docs/simulation.md), ranking by the chance of winning from the built-in
// table, with paired sampling (the measured one: on its 64-iteration cap
// top-two would play fewer rollouts).
func DefaultPlayer() Options {
	return Options{Candidates: 10, Iterations: 64, Confidence: 0.95, Rank: RankWin,
		Sampling: SamplingPaired, WinPct: eval.DefaultWinPct()}
}

// simPlayer picks its moves by Monte Carlo simulation (see Simulator),
// with the options given to NewPlayer, on one thread: self-play runs games
// in parallel instead. Each turn's draws come from the game's seed and the
// turn number, so games are reproducible.
type simPlayer struct {
	opts Options
	tabs *movegen.Tables // sim's
	sim  *Simulator
	seed uint64
}

// NewPlayer returns a player choosing its moves by simulating with opts:
// Progress and Seed are not used (each turn's seed comes from the game's),
// and Threads 0 means 1.
func NewPlayer(opts Options) (game.Player, error) {
	so := opts
	so.Progress = nil
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

func (p *simPlayer) StartGame(s game.Start) {
	if p.sim == nil || p.tabs != s.Tables {
		p.tabs, p.sim = s.Tables, NewSimulator(s.Tables)
	}
	p.seed = s.Seed
}

func (p *simPlayer) Observe(int, *move.Move) {}

func (p *simPlayer) Choose(ctx context.Context, v *game.View) (move.Move, error) {
	pos := Position{
		Board:         *v.Board,
		Rack:          v.Rack,
		OpponentTiles: v.OppTiles,
		Scores:        [2]int{v.Scores[v.Seat], v.Scores[1-v.Seat]},
		Scoreless:     v.Scoreless,
	}
	opts := p.opts
	opts.Seed = splitmix.Mix(p.seed ^ splitmix.Mix(uint64(v.Turn)))
	res, err := p.sim.Simulate(ctx, &pos, opts)
	if err != nil {
		return move.Move{}, fmt.Errorf("simulating: %w", err)
	}
	return res.Candidates[0].Move, nil
}
