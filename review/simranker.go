package review

import (
	"context"
	"fmt"
	"math"

	"scrabble/infer"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/referee"
	"scrabble/rules"
	"scrabble/sim"
)

// SimRanker values a turn's moves for review --sim with the Monte Carlo
// simulator. Beside the candidates the simulator picks itself (the best by
// static equity, as the review does, plus the best exchanges and the pass),
// every move the review asks about, the move made first of all, is added
// to the simulation (sim.Options.Add), so even a poor move made, or a
// phony that stood, gets a value. Only a move the player could not make by
// the rules (e.g. an exchange with too few tiles in the bag) is left
// unvalued (NaN), and its turn flagged not_ranked.
type SimRanker struct {
	sim  *sim.Simulator
	opts sim.Options
	// With inference (WithInference): the opponent's rack is drawn from
	// what their last move says they kept.
	inferer *infer.Inferer
	infer   infer.Options
}

// WithInference makes the ranker draw the opponent's rack from what their
// previous move (Position.Last) says they kept, with io (its Leaves default
// to the ranker's); a turn without one, or whose inference fails, draws
// it uniformly.
func (s *SimRanker) WithInference(tables *movegen.Tables, io infer.Options) *SimRanker {
	if io.Leaves == nil {
		io.Leaves = s.opts.Leaves
	}
	io.Seed = s.opts.Seed
	s.inferer, s.infer = infer.New(tables), io
	return s
}

// NewSimRanker returns a Ranker simulating iterations games a move, on one
// thread with a fixed seed: the same review every run.
func NewSimRanker(tables *movegen.Tables, leaves movegen.LeaveValuer, iterations int) *SimRanker {
	return &SimRanker{
		sim: sim.NewSimulator(tables),
		// One thread and a fixed seed: the same review every run. Every
		// move is valued on the whole budget, by its simulated equity:
		// paired sampling plays them all together (top-two would reach
		// the same values, in more rounds).
		opts: sim.Options{Leaves: leaves, Iterations: iterations, Threads: 1, Seed: 1,
			Rank: sim.RankEquity, Sampling: sim.SamplingPaired},
	}
}

// Name says how the moves are valued.
func (s *SimRanker) Name() string {
	if s.inferer != nil {
		return fmt.Sprintf("Monte Carlo simulation (%d iterations, %d plies, the opponent's rack inferred)", s.opts.Iterations, sim.DefaultPlies)
	}
	return fmt.Sprintf("Monte Carlo simulation (%d iterations, %d plies)", s.opts.Iterations, sim.DefaultPlies)
}

// Rank values moves in pos by their mean simulated equity, NaN for a move
// the player could not make.
func (s *SimRanker) Rank(ctx context.Context, pos *Position, moves []move.Move) ([]float64, error) {
	players := max(2, pos.Players)
	vals := make([]float64, len(moves))
	for i := range vals {
		vals[i] = math.NaN()
	}
	opts := s.opts
	opts.Candidates = min(sim.MaxCandidates, max(len(moves), sim.DefaultCandidates))
	// The bag as the simulator counts it: the unseen tiles less the other
	// players' full racks.
	bag := max(0, pos.Unseen.Count()-(players-1)*rules.RackSize)
	opts.Add = make([]move.Move, 0, len(moves))
	for i := range moves {
		if referee.ValidateMove(&moves[i], pos.Board, pos.Rack, bag, nil) == nil {
			opts.Add = append(opts.Add, moves[i])
		}
	}
	sp := &sim.Position{Board: *pos.Board, Rack: pos.Rack, Scoreless: pos.Scoreless}
	copy(sp.Scores[:], pos.Scores[:]) // the mover's, then the others' in turn order
	if players > 2 {
		sp.Seats = players
	}
	// Inference reads one opponent's last move: two-player games only.
	if s.inferer != nil && pos.Last != nil && bag > 0 && players == 2 {
		sit := infer.Situation{Board: *pos.LastBoard, Rack: pos.Rack, Last: *pos.Last}
		if res, err := s.inferer.Infer(&sit, s.infer); err == nil && res.RackTiles == rules.RackSize {
			sp.OpponentRacks = res
		}
	}
	res, err := s.sim.Simulate(ctx, sp, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// A position the simulator does not take (e.g. a pass after the
		// opponent went out): nothing is valued.
		return vals, nil
	}
	for _, c := range res.Candidates {
		for i := range moves {
			if move.Same(&c.Move, &moves[i]) {
				vals[i] = c.Mean
			}
		}
	}
	return vals, nil
}
