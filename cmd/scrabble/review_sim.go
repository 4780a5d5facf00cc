package main

import (
	"context"
	"fmt"
	"math"

	"scrabble/gaddag"
	"scrabble/movegen"
	"scrabble/review"
	"scrabble/sim"
)

// defaultReviewIterations is the simulation budget a turn for review --sim.
const defaultReviewIterations = 100

// simRanker values a turn's moves for review --sim with the Monte Carlo
// simulator. The simulator picks its candidates itself (the best by static
// equity, as the review does, plus the best exchange and the pass), so a
// move outside them, such as a poor move made, gets no value (NaN) and its
// turn is flagged not_ranked.
type simRanker struct {
	sim  *sim.Simulator
	opts sim.SimOptions
}

func newSimRanker(lex *gaddag.GADDAG, leaves movegen.LeaveValuer, iterations int) *simRanker {
	return &simRanker{
		sim: sim.NewSimulator(lex),
		// One thread and a fixed seed: the same review every run.
		opts: sim.SimOptions{Leaves: leaves, Iterations: iterations, Threads: 1, Seed: 1},
	}
}

func (s *simRanker) Name() string {
	return fmt.Sprintf("Monte Carlo simulation (%d iterations, %d plies)", s.opts.Iterations, sim.DefaultPlies)
}

func (s *simRanker) Rank(ctx context.Context, pos *review.Position, moves []movegen.Move) ([]float64, error) {
	vals := make([]float64, len(moves))
	for i := range vals {
		vals[i] = math.NaN()
	}
	opts := s.opts
	opts.Candidates = min(sim.MaxCandidates, max(len(moves), sim.DefaultCandidates))
	res, err := s.sim.Simulate(ctx, &sim.SimPosition{Board: *pos.Board, Rack: pos.Rack, Scores: pos.Scores, Scoreless: pos.Scoreless}, opts)
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
			if movegen.SameMove(&c.Move, &moves[i]) {
				vals[i] = c.Mean
			}
		}
	}
	return vals, nil
}
