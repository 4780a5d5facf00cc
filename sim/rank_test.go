package sim

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"scrabble/eval"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
)

// refRollouts is every candidate's rollout at every iteration up to n,
// played one by one on a worker of its own: value[c][i] in millipoints and
// win[c][i] in millionths.
type refRollouts struct {
	value, win [][]int64
}

func playAll(t *testing.T, s *Simulator, pos *Position, opts Options, n int) (*simRun, refRollouts) {
	t.Helper()
	r, _, err := s.prepare(pos, &opts)
	if err != nil {
		t.Fatal(err)
	}
	w := &simWorker{gen: movegen.New(s.tables)}
	w.reset(r)
	k := len(r.cands)
	ro := refRollouts{value: make([][]int64, k), win: make([][]int64, k)}
	for i := range n {
		before := slices.Clone(w.acc.win)
		w.iterate(r, i)
		for c := range k {
			ro.value[c] = append(ro.value[c], w.vals[c])
			ro.win[c] = append(ro.win[c], w.acc.win[c]-before[c])
		}
	}
	return r, ro
}

// refMean and refDiff are plain statistics of the first n values (two-pass
// variance, floats), independent of the simulator's integer sums.
func refMean(x []int64) (mean, se float64) {
	n := float64(len(x))
	if n == 0 {
		return 0, 0
	}
	for _, v := range x {
		mean += float64(v)
	}
	mean /= n
	if n < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		ss += (float64(v) - mean) * (float64(v) - mean)
	}
	return mean, math.Sqrt(ss / (n - 1) / n)
}

func refDiff(a, b []int64) (mean, se float64, n int) {
	n = min(len(a), len(b))
	d := make([]int64, n)
	for i := range n {
		d[i] = a[i] - b[i]
	}
	mean, se = refMean(d)
	return mean, se, n
}

// refSim re-implements the ranking, pruning, stopping and top-two
// sampling plainly on precomputed rollouts (candidate c's first n[c]).
type refSim struct {
	ro     refRollouts
	rank   Rank
	n      []int
	live   []int
	pruned []bool
}

func (s *refSim) stat(c int, k Rank) []int64 {
	if k == RankWin {
		return s.ro.win[c][:s.n[c]]
	}
	return s.ro.value[c][:s.n[c]]
}

func (s *refSim) diff(a, b int) (float64, float64, int) {
	return refDiff(s.stat(a, s.rank), s.stat(b, s.rank))
}

func (s *refSim) order(cs []int) []int {
	cs = slices.Clone(cs)
	eq := func(c int) float64 { m, _ := refMean(s.stat(c, RankEquity)); return m }
	wn := func(c int) float64 { m, _ := refMean(s.stat(c, RankWin)); return m }
	byEq := func(a, b int) int {
		switch {
		case eq(a) > eq(b):
			return -1
		case eq(a) < eq(b):
			return 1
		}
		return a - b
	}
	if s.rank == RankEquity {
		slices.SortFunc(cs, byEq)
		return cs
	}
	slices.SortFunc(cs, func(a, b int) int {
		switch {
		case wn(a) > wn(b):
			return -1
		case wn(a) < wn(b):
			return 1
		}
		return byEq(a, b)
	})
	var out []int
	for len(cs) > 0 {
		head, group, rest := cs[0], []int{cs[0]}, []int(nil)
		for j, c := range cs[1:] {
			_, se, n := refDiff(s.stat(head, RankWin), s.stat(c, RankWin))
			if n < 2 {
				_, sa := refMean(s.stat(head, RankWin))
				_, sb := refMean(s.stat(c, RankWin))
				se = math.Hypot(sa, sb)
			}
			if wn(head)-wn(c) > se {
				rest = cs[1+j:]
				break
			}
			group = append(group, c)
		}
		slices.SortFunc(group, byEq)
		out = append(out, group...)
		cs = rest
	}
	return out
}

// run plays the reference simulation to its end and says why it stopped.
func (s *refSim) run(o Options) string {
	k := len(s.ro.value)
	s.n, s.pruned = make([]int, k), make([]bool, k)
	s.live = nil
	for c := range k {
		s.live = append(s.live, c)
	}
	limit := o.Iterations
	round := 32
	if o.Confidence > 0 {
		round = 8
	}
	z := math.Sqrt2 * math.Erfinv(2*o.Confidence-1)
	for {
		to := slices.Clone(s.n)
		if o.Sampling == SamplingPaired {
			for _, c := range s.live {
				to[c] = min(s.n[c]+round, limit)
			}
		} else {
			warm := false
			for _, c := range s.live {
				if s.n[c] < minPruneIterations {
					to[c], warm = min(minPruneIterations, limit), true
				}
			}
			if !warm {
				lead := s.order(s.live)[0]
				ch, chZ := -1, math.Inf(1)
				for _, c := range s.live {
					if c == lead || s.n[c] >= limit {
						continue
					}
					d, se, _ := s.diff(lead, c)
					z := math.Inf(1)
					switch {
					case se > 0:
						z = d / se
					case d < 0:
						z = math.Inf(-1)
					case d == 0:
						z = 0
					}
					if ch < 0 || z < chZ || (z == chZ && s.n[c] < s.n[ch]) {
						ch, chZ = c, z
					}
				}
				if ch >= 0 {
					to[ch] = min(s.n[ch]+topTwoBlock, limit)
					to[lead] = max(s.n[lead], to[ch])
				}
			}
		}
		if slices.Equal(to, s.n) {
			return "iterations"
		}
		s.n = to
		if o.Confidence > 0 {
			lead := s.order(s.live)[0]
			var keep []int
			for _, c := range s.live {
				d, se, n := s.diff(lead, c)
				if c != lead && n >= minPruneIterations && (d > z*se || (se == 0 && d >= 0)) {
					s.pruned[c] = true
					continue
				}
				keep = append(keep, c)
			}
			s.live = keep
		}
		done := 0
		for _, c := range s.live {
			done = max(done, s.n[c])
		}
		switch {
		case o.Confidence > 0 && k == 1:
			return "single"
		case o.Confidence > 0 && len(s.live) == 1:
			return "confident"
		case o.Sampling == SamplingPaired && done >= limit:
			return "iterations"
		}
	}
}

// TestSimulateMatchesReference: on positions of real games, for both
// rankings, both samplings, with and without the stopping rule, on 1 and 2
// threads, the simulator's table (order, iterations, pruned, means, win
// chances, why it stopped) is the plain reference's on the same rollouts.
func TestSimulateMatchesReference(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSimulator(testgen.Tables(lex))
	const iters = 56
	// Top-two histories start with room for 20 iterations: they must grow
	// keeping what they hold.
	defer func(n int) { histRoom = n }(histRoom)
	histRoom = 20
	checked, pruned, tieBroken := 0, 0, 0
	for _, seed := range []uint64{11, 12, 13} {
		pos, bags, _ := turnPositions(equityGame(t, lex, leaves, seed))
		for ti := 1; ti < len(pos); ti += 5 {
			if bags[ti] == 0 {
				continue
			}
			base := Options{Leaves: leaves, WinPct: eval.DefaultWinPct(), Candidates: 6, Iterations: iters, Seed: seed*100 + uint64(ti)}
			r, ro := playAll(t, s, &pos[ti], base, iters)
			for _, rank := range []Rank{RankWin, RankEquity} {
				for _, sampling := range []Sampling{SamplingPaired, SamplingTopTwo} {
					for _, conf := range []float64{0, 0.9} {
						o := base
						o.Rank, o.Sampling, o.Confidence = rank, sampling, conf
						o.Threads = 1 + checked%2
						name := fmt.Sprintf("game %d turn %d, %v, %v, confidence %g, %d threads", seed, ti+1, rank, sampling, conf, o.Threads)
						res, err := s.Simulate(context.Background(), &pos[ti], o)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						ref := &refSim{ro: ro, rank: rank}
						stopped := ref.run(o)
						want := append(ref.order(ref.live), ref.order(nonLive(ref))...)
						if res.Stopped != stopped || len(res.Candidates) != len(want) || res.Rank != rank {
							t.Fatalf("%s: stopped %q with %d candidates ranked by %v, reference %q with %d", name, res.Stopped, len(res.Candidates), res.Rank, stopped, len(want))
						}
						var rollouts int64
						for i, c := range want {
							got := res.Candidates[i]
							eq, _ := refMean(ro.value[c][:ref.n[c]])
							wn, _ := refMean(ro.win[c][:ref.n[c]])
							if !move.Same(&got.Move, &r.cands[c]) || got.Iterations != ref.n[c] || got.Pruned != ref.pruned[c] ||
								math.Abs(got.Mean-eq/1000) > 1e-9 || math.Abs(got.WinProb-wn/1e6) > 1e-12 {
								t.Fatalf("%s: #%d is %s (%d iterations, pruned %v, %.4f, win %.6f), reference %s (%d, %v, %.4f, %.6f)", name, i+1,
									got.Move.Notation(), got.Iterations, got.Pruned, got.Mean, got.WinProb,
									r.cands[c].Notation(), ref.n[c], ref.pruned[c], eq/1000, wn/1e6)
							}
							if got.Pruned {
								pruned++
							}
							rollouts += int64(ref.n[c])
						}
						if res.Rollouts != rollouts {
							t.Fatalf("%s: %d rollouts, reference %d", name, res.Rollouts, rollouts)
						}
						if rank == RankWin {
							// Count the tables where equity reordered a chance of winning.
							for i := 1; i < len(res.Candidates); i++ {
								if res.Candidates[i].Pruned == res.Candidates[i-1].Pruned && res.Candidates[i].WinProb > res.Candidates[i-1].WinProb {
									tieBroken++
									break
								}
							}
						}
						checked++
					}
				}
			}
		}
	}
	if checked < 80 || pruned == 0 || tieBroken == 0 {
		t.Fatalf("only %d runs checked, %d candidates pruned, %d tables with equity breaking ties", checked, pruned, tieBroken)
	}
	t.Logf("%d runs agree with the reference (%d candidates pruned, %d tables with equity breaking a tie)", checked, pruned, tieBroken)
}

func nonLive(s *refSim) []int {
	var out []int
	for c := range s.pruned {
		if s.pruned[c] {
			out = append(out, c)
		}
	}
	return out
}
