package sim

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"scrabble/eval"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
)

// TestBestArmAtEqualTime measures which sampling finds the true best
// candidate more often at equal time: the truth is a long paired run with
// no stopping rule; then, position after position, each sampling runs on
// the same time budget with the same seed, one after the other (A/B
// interleaved: the machine's speed drifts). A measurement, not a check:
// it runs only with SIM_BESTARM set, as
// "positions,truth-iterations,budget[,budget...]" (such as
// "40,3000,100ms,400ms"); docs/simulation.md gives the figures.
func TestBestArmAtEqualTime(t *testing.T) {
	spec := os.Getenv("SIM_BESTARM")
	if spec == "" {
		t.Skip("a measurement: set SIM_BESTARM=positions,truth-iterations,budget,... to run it")
	}
	f := strings.Split(spec, ",")
	if len(f) < 3 {
		t.Fatalf("SIM_BESTARM=%q: want positions,truth-iterations,budget,...", spec)
	}
	npos, err1 := strconv.Atoi(f[0])
	truthIters, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		t.Fatalf("SIM_BESTARM=%q: positions and iterations are whole numbers", spec)
	}
	var budgets []time.Duration
	for _, s := range f[2:] {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("SIM_BESTARM=%q: %v", spec, err)
		}
		budgets = append(budgets, d)
	}
	// SIM_BESTARM_SEEDS: runs a position and budget (default 4);
	// SIM_BESTARM_CONF: the stopping rule's confidence (default 0.99; 0:
	// none, every run spends its budget).
	seeds, conf := 4, 0.99
	if s := os.Getenv("SIM_BESTARM_SEEDS"); s != "" {
		seeds, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("SIM_BESTARM_CONF"); s != "" {
		conf, _ = strconv.ParseFloat(s, 64)
	}
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	wp := eval.DefaultWinPct()
	sim := NewSimulator(testgen.Tables(lex))
	// Mid-game positions of equity games: every fourth turn with at least
	// 14 tiles in the bag.
	var positions []Position
	for seed := uint64(100); len(positions) < npos; seed++ {
		pos, bags, _ := turnPositions(equityGame(t, lex, leaves, seed))
		for i := 2; i < len(pos) && len(positions) < npos; i += 4 {
			if bags[i] >= 14 {
				positions = append(positions, pos[i])
			}
		}
	}
	base := Options{Leaves: leaves, WinPct: wp, Candidates: 10, Threads: 1, Rank: RankWin}
	type tally struct {
		right, trials int
		regret        float64 // true win chance lost, summed
		rollouts      int64
	}
	methods := []Sampling{SamplingPaired, SamplingTopTwo}
	// only[b][m]: runs where method m alone found the best (the two
	// methods ran with the same seed: a paired count, for McNemar's test).
	only := make([][2]int, len(budgets))
	tallies := make([][]tally, len(budgets))
	for i := range tallies {
		tallies[i] = make([]tally, len(methods))
	}
	clear := 0
	for p := range positions {
		o := base
		o.Sampling, o.Iterations, o.Seed = SamplingPaired, truthIters, 99
		truth, err := sim.Simulate(context.Background(), &positions[p], o)
		if err != nil {
			t.Fatal(err)
		}
		win := map[string]float64{}
		for _, c := range truth.Candidates {
			win[key(&c.Move)] = c.WinProb
		}
		best := key(&truth.Candidates[0].Move)
		gap := truth.Candidates[0].WinProb - truth.Candidates[1].WinProb
		se := truth.Candidates[0].WinStdErr
		if gap > se {
			clear++
		}
		fmt.Printf("position %d: truth %s win %.4f, next %.4f (se %.4f)\n", p, best, truth.Candidates[0].WinProb, truth.Candidates[1].WinProb, se)
		for b, budget := range budgets {
			for s := range seeds {
				var found [2]bool
				for m, method := range methods {
					o := base
					o.Sampling, o.Time, o.Confidence, o.Seed = method, budget, conf, uint64(1000*p+s)
					res, err := sim.Simulate(context.Background(), &positions[p], o)
					if err != nil {
						t.Fatal(err)
					}
					got := key(&res.Candidates[0].Move)
					tl := &tallies[b][m]
					tl.trials++
					if got == best {
						tl.right++
						found[m] = true
					}
					tl.regret += win[best] - win[got]
					tl.rollouts += res.Rollouts
				}
				if found[0] != found[1] {
					if found[0] {
						only[b][0]++
					} else {
						only[b][1]++
					}
				}
			}
		}
	}
	fmt.Printf("%d positions (%d with a clear best: the gap above one standard error), truth %d iterations, %d seeds a position, confidence %g\n",
		len(positions), clear, truthIters, seeds, conf)
	for b, budget := range budgets {
		for m, method := range methods {
			tl := tallies[b][m]
			fmt.Printf("budget %v, %s: best found %d of %d (%.1f%%), mean win chance lost %.3f%%, %.0f rollouts a run\n",
				budget, method, tl.right, tl.trials, 100*float64(tl.right)/float64(tl.trials),
				100*tl.regret/float64(tl.trials), float64(tl.rollouts)/float64(tl.trials))
		}
		fmt.Printf("budget %v: found by %s alone %d times, by %s alone %d times\n", budget, methods[0], only[b][0], methods[1], only[b][1])
	}
}

func key(m *move.Move) string { return fmt.Sprintf("%v", *m) }
