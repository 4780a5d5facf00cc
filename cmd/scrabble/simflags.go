package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"scrabble/eval"
	"scrabble/selfplay"
	"scrabble/sim"
)

// parseStop reads a --stop value: "none" (no stopping rule, no pruning) or
// a confidence level in percent such as 95 or 99.
func parseStop(s string) (float64, error) {
	if strings.EqualFold(s, "none") {
		return 0, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || !(v >= 50 && v < 100) { // !(...): NaN fails too
		return 0, fmt.Errorf("--stop %q: want none, or a confidence level in percent from 50 to below 100, such as 95 or 99", s)
	}
	return v / 100, nil
}

// simPlayerFlags are the sim player's options for one seat of selfplay.
type simPlayerFlags struct {
	seat                                   int
	iterations, candidates, plies, playOut int
	stop, rank, sampling                   string
	infer                                  bool
}

func addSimPlayerFlags(f *pflag.FlagSet, seat int) *simPlayerFlags {
	s := &simPlayerFlags{seat: seat}
	p := fmt.Sprintf("p%d-", seat)
	d := sim.DefaultPlayer()
	f.IntVar(&s.iterations, p+"iterations", d.Iterations, fmt.Sprintf("sim player %d: at most this many iterations a move (the full player: %d)", seat, selfplay.FullIterations))
	f.IntVar(&s.candidates, p+"candidates", d.Candidates, fmt.Sprintf("sim player %d: plays simulated (plus the best 3 exchanges and the pass)", seat))
	f.IntVar(&s.plies, p+"plies", sim.DefaultPlies, fmt.Sprintf("sim player %d: moves played after each candidate", seat))
	f.IntVar(&s.playOut, p+"play-out", d.PlayOut, fmt.Sprintf("sim player %d: with at most this many tiles in the bag, rollouts play to the end of the game (0: never)", seat))
	f.BoolVar(&s.infer, p+"infer", false, fmt.Sprintf("sim player %d: draw the opponent's rack from what their last move says they kept (docs/simulation.md, Inference)", seat))
	f.StringVar(&s.stop, p+"stop", strconv.FormatFloat(100*d.Confidence, 'f', -1, 64), fmt.Sprintf("sim player %d: prune and stop at this confidence (%%), or none", seat))
	f.StringVar(&s.rank, p+"rank", d.Rank.String(), fmt.Sprintf("sim player %d: rank by win (chance of winning, equity within the noise) or equity", seat))
	f.StringVar(&s.sampling, p+"sampling", d.Sampling.String(), fmt.Sprintf("sim player %d: iterations for every candidate in the race (paired) or the leader and its challenger (toptwo)", seat))
	return s
}

// options checks the flags against the seat's player and returns the sim
// player's options: setting them for another player is a usage error.
func (s *simPlayerFlags) options(f *pflag.FlagSet, player string) (sim.Options, error) {
	p := fmt.Sprintf("p%d-", s.seat)
	if player != "sim" && player != "full" {
		for _, name := range []string{"iterations", "candidates", "plies", "play-out", "stop", "rank", "sampling", "infer"} {
			if f.Changed(p + name) {
				return sim.Options{}, usagef("--%s%s is for the sim player, and --p%d is %s", p, name, s.seat, player)
			}
		}
		return sim.Options{}, nil
	}
	conf, err := parseStop(s.stop)
	if err != nil {
		return sim.Options{}, usagef("--%s%v", p, strings.TrimPrefix(err.Error(), "--"))
	}
	rank, err := sim.ParseRank(s.rank)
	if err != nil {
		return sim.Options{}, usagef("--%s%v", p, err)
	}
	sampling, err := sim.ParseSampling(s.sampling)
	if err != nil {
		return sim.Options{}, usagef("--%s%v", p, err)
	}
	if player == "full" && !f.Changed(p+"iterations") {
		s.iterations = selfplay.FullIterations
	}
	switch {
	case s.iterations < 1:
		return sim.Options{}, usagef("--%siterations must be at least 1, not %d", p, s.iterations)
	case s.candidates < 1 || s.candidates > sim.MaxCandidates:
		return sim.Options{}, usagef("--%scandidates must be from 1 to %d, not %d", p, sim.MaxCandidates, s.candidates)
	case s.plies < 1 || s.plies > sim.MaxPlies:
		return sim.Options{}, usagef("--%splies must be from 1 to %d, not %d", p, sim.MaxPlies, s.plies)
	case s.playOut < 0:
		return sim.Options{}, usagef("--%splay-out must be 0 (never) or more tiles, not %d", p, s.playOut)
	}
	return sim.Options{Iterations: s.iterations, Candidates: s.candidates, Plies: s.plies, PlayOut: s.playOut, Confidence: conf,
		Rank: rank, Sampling: sampling, WinPct: eval.DefaultWinPct()}, nil
}
