package sim

import (
	"context"
	"fmt"
	"os"
	"testing"

	"scrabble/eval"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/position"
)

// midgame reads sim/testdata/midgame.cgp as a simulation position.
func midgame(tb testing.TB) *Position {
	tb.Helper()
	data, err := os.ReadFile("testdata/midgame.cgp")
	if err != nil {
		tb.Fatal(err)
	}
	p, err := position.Parse("testdata/midgame.cgp", data)
	if err != nil {
		tb.Fatal(err)
	}
	return &Position{Board: p.Board, Rack: p.Racks[0], Scores: p.Scores, Scoreless: p.ZeroTurns}
}

// BenchmarkSimRollouts measures 2-ply rollouts per second on a mid-game
// position: 15 candidates (plus the best exchange and the pass), built-in
// NWL23 leaves, no stopping rule, so every op is the same work: 64
// iterations of every candidate (1,088 rollouts). gens/s counts the move
// searches (Generator.Best) inside the rollouts, two a rollout here. The
// rates per CPU-second (process CPU time, all threads) tell what the code
// does on a machine shared with other work: with one thread it is the rate
// of a whole core.
func BenchmarkSimRollouts(b *testing.B) {
	lex := testlex.GADDAG(b, "NWL23")
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		b.Fatal(err)
	}
	pos := midgame(b)
	for _, bc := range []struct {
		threads  int
		sampling Sampling
	}{{1, SamplingPaired}, {2, SamplingPaired}, {1, SamplingTopTwo}} {
		threads := bc.threads
		name := fmt.Sprintf("threads=%d", threads)
		if bc.sampling != SamplingPaired {
			// Every candidate plays the same 64 iterations, in top-two rounds.
			name += "/" + bc.sampling.String()
		}
		b.Run(name, func(b *testing.B) {
			s := NewSimulator(testgen.Tables(lex))
			opts := Options{Leaves: leaves, Candidates: 15, Plies: 2, Iterations: 64, Threads: threads, Seed: 1, Sampling: bc.sampling}
			if _, err := s.Simulate(context.Background(), pos, opts); err != nil { // warm up
				b.Fatal(err)
			}
			var rollouts, gens int64
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				opts.Seed = uint64(i)
				res, err := s.Simulate(context.Background(), pos, opts)
				if err != nil {
					b.Fatal(err)
				}
				rollouts += res.Rollouts
				gens += res.Generations
			}
			cpu := (cpuTime() - cpu0).Seconds()
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(rollouts)/sec, "rollouts/s")
			b.ReportMetric(float64(gens)/sec, "gens/s")
			if cpu > 0 {
				b.ReportMetric(float64(rollouts)/cpu, "rollouts/cpu-s")
			}
		})
	}
}

// BenchmarkSimPlayerMove times one move of the sim player with its default
// budget (DefaultPlayer: 10 candidates, at most 64 iterations, 95%
// stopping rule) on the mid-game position, one thread, seed 1 (how many
// rollouts the stopping rule leaves depends on the draws).
func BenchmarkSimPlayerMove(b *testing.B) {
	lex := testlex.GADDAG(b, "NWL23")
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		b.Fatal(err)
	}
	pos := midgame(b)
	s := NewSimulator(testgen.Tables(lex))
	opts := DefaultPlayer()
	opts.Leaves, opts.Threads, opts.Seed = leaves, 1, 1 // every op the same work
	var rollouts int64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := s.Simulate(context.Background(), pos, opts)
		if err != nil {
			b.Fatal(err)
		}
		rollouts += res.Rollouts
	}
	b.ReportMetric(float64(rollouts)/float64(b.N), "rollouts/move")
}
