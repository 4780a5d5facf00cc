package sim

import (
	"context"
	"fmt"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/infer"
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
	seat int

	// With inference: its options, the inferer, and the opponent's last
	// move (an exchange's tiles left out: the player did not see them).
	infer    *infer.Options
	inferer  *infer.Inferer
	last     move.Move
	haveLast bool
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

// NewInferPlayer is NewPlayer with inference: each turn the opponent's
// rack is drawn from what their last move says they kept (package infer,
// with io; its Leaves default to opts.Leaves), not uniformly.
func NewInferPlayer(opts Options, io infer.Options) (game.Player, error) {
	p, err := NewPlayer(opts)
	if err != nil {
		return nil, err
	}
	if io.Leaves == nil {
		io.Leaves = opts.Leaves
	}
	sp := p.(*simPlayer)
	sp.infer = &io
	return sp, nil
}

func (p *simPlayer) Name() string { return "sim" }

func (p *simPlayer) StartGame(s game.Start) {
	if p.sim == nil || p.tabs != s.Tables {
		p.tabs, p.sim = s.Tables, NewSimulator(s.Tables)
	}
	p.seed = s.Seed
	p.seat = s.Seat
	p.haveLast = false
	if p.infer != nil && (p.inferer == nil || p.tabs != s.Tables) {
		p.inferer = infer.New(s.Tables)
	}
}

func (p *simPlayer) Observe(seat int, m *move.Move) {
	if p.infer == nil {
		return
	}
	p.haveLast = seat != p.seat
	if p.haveLast {
		p.last = *m
		if m.Kind == move.Exchange {
			p.last.Len = 0 // unseen tiles
		}
	}
}

func (p *simPlayer) Choose(ctx context.Context, v *game.View) (move.Move, error) {
	pos := Position{
		Board:     *v.Board,
		Rack:      v.Rack,
		Scoreless: v.Scoreless,
	}
	for k := range v.Seats {
		pos.Scores[k] = v.Scores[(v.Seat+k)%v.Seats] // in turn order from the mover
	}
	if v.Seats > 2 {
		if v.BagLen == 0 {
			// The others' racks are known only together: the static
			// end-of-game valuation, as the equity player plays it.
			return game.NewEquityPlayer(p.opts.Leaves, eval.Terms{}).Choose(ctx, v)
		}
		pos.Seats = v.Seats // every other rack full and unknown
	} else {
		pos.OpponentTiles = v.OppTiles
	}
	opts := p.opts
	opts.Seed = splitmix.Mix(p.seed ^ splitmix.Mix(uint64(v.Turn)))
	if p.infer != nil && p.haveLast && v.BagLen > 0 && v.Seats == 2 {
		res, err := p.inferRack(v)
		if err != nil {
			return move.Move{}, fmt.Errorf("inferring the opponent's rack: %w", err)
		}
		pos.OpponentRacks = res
	}
	res, err := p.sim.Simulate(ctx, &pos, opts)
	if err != nil {
		return move.Move{}, fmt.Errorf("simulating: %w", err)
	}
	return res.Candidates[0].Move, nil
}

// inferRack infers the opponent's rack from their last move, on the board
// before it (the view's less the move's new tiles).
func (p *simPlayer) inferRack(v *game.View) (*infer.Result, error) {
	sit := infer.After(v.Board, v.Rack, p.last)
	io := *p.infer
	io.Seed = splitmix.Mix(p.seed ^ splitmix.Mix(uint64(v.Turn)+0x1AFE))
	return p.inferer.Infer(&sit, io)
}
