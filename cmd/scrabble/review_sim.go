package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"scrabble/move"
	"scrabble/movegen"
	"scrabble/referee"
	"scrabble/review"
	"scrabble/rules"
	"scrabble/sim"
)

// defaultReviewIterations is the simulation budget a turn for review --sim.
const defaultReviewIterations = 100

// simRanker values a turn's moves for review --sim with the Monte Carlo
// simulator. Beside the candidates the simulator picks itself (the best by
// static equity, as the review does, plus the best exchanges and the pass),
// every move the review asks about, the move made first of all, is added
// to the simulation (sim.Options.Add), so even a poor move made, or a
// phony that stood, gets a value. Only a move the player could not make by
// the rules (e.g. an exchange with too few tiles in the bag) is left
// unvalued (NaN), and its turn flagged not_ranked.
type simRanker struct {
	sim  *sim.Simulator
	opts sim.Options
}

func newSimRanker(tables *movegen.Tables, leaves movegen.LeaveValuer, iterations int) *simRanker {
	return &simRanker{
		sim: sim.NewSimulator(tables),
		// One thread and a fixed seed: the same review every run.
		opts: sim.Options{Leaves: leaves, Iterations: iterations, Threads: 1, Seed: 1},
	}
}

func (s *simRanker) Name() string {
	return fmt.Sprintf("Monte Carlo simulation (%d iterations, %d plies)", s.opts.Iterations, sim.DefaultPlies)
}

func (s *simRanker) Rank(ctx context.Context, pos *review.Position, moves []move.Move) ([]float64, error) {
	vals := make([]float64, len(moves))
	for i := range vals {
		vals[i] = math.NaN()
	}
	opts := s.opts
	opts.Candidates = min(sim.MaxCandidates, max(len(moves), sim.DefaultCandidates))
	// The bag as the simulator counts it: the unseen tiles less the
	// opponent's full rack.
	bag := max(0, pos.Unseen.Count()-rules.RackSize)
	opts.Add = make([]move.Move, 0, len(moves))
	for i := range moves {
		if referee.ValidateMove(&moves[i], pos.Board, pos.Rack, bag, nil) == nil {
			opts.Add = append(opts.Add, moves[i])
		}
	}
	res, err := s.sim.Simulate(ctx, &sim.Position{Board: *pos.Board, Rack: pos.Rack, Scores: pos.Scores, Scoreless: pos.Scoreless}, opts)
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

// noteSimReview says on stderr that a review by simulation is starting
// (it takes a while) and how to stop it.
func noteSimReview(w io.Writer, iterations int) {
	fmt.Fprintf(w, "Reviewing by simulation (%s a turn); Ctrl-C stops and prints the turns reviewed so far ...\n", plural(iterations, "iteration"))
}

// reviewInterrupted ends a review stopped by Ctrl-C once the turns done so
// far are printed: it says where it stopped (on stdout too for the text
// report, which has no field for it) and exits 130, as a shell does for
// SIGINT.
func reviewInterrupted(a *app, rep *review.Report, asJSON bool) error {
	msg := fmt.Sprintf("interrupted at turn %d: the review shows the turns before it", rep.Interrupted)
	if !asJSON {
		fmt.Fprintf(a.stdout, "\nReview %s.\n", msg)
	}
	fmt.Fprintf(a.stderr, "scrabble: %s\n", msg)
	return exitStatus(130)
}
