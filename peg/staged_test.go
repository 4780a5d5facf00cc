package peg

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/position"
	"scrabble/rules"
)

// TestMergeDraws: after a first move drawing k tiles, two draw orders are
// the same game exactly when they leave the opponent the same rack and the
// bag the same tiles after the first k, in order. Every draw order must
// fall in one merged draw, with the weights of its class added up.
func TestMergeDraws(t *testing.T) {
	pool := func(s string) rules.Rack {
		var r rules.Rack
		for _, c := range s {
			if c == '?' {
				r.Add(rules.Blank)
			} else {
				r.Add(rules.Letter(c - 'A' + 1))
			}
		}
		return r
	}
	for _, tc := range []struct {
		unseen string
		bag    int
	}{
		{"ABDGIIJNUX", 3}, {"AEEIOU?", 2}, {"EEEEEEEE", 1}, {"ABCDEFGHIJK", 4}, {"AABBCDEE?", 4}, {"QZ", 1},
	} {
		draws := drawsOf(pool(tc.unseen), tc.bag)
		total := 0
		for _, d := range draws {
			total += d.weight
		}
		for k := 0; k <= tc.bag; k++ {
			t.Run(fmt.Sprintf("%s/bag%d/k%d", tc.unseen, tc.bag, k), func(t *testing.T) {
				merged := mergeDraws(draws, k)
				same := func(a, b draw) bool { return a.opp == b.opp && slices.Equal(a.bag[k:], b.bag[k:]) }
				sum := 0
				for i, m := range merged {
					sum += m.weight
					want := 0
					for _, d := range draws {
						if same(d, m) {
							want += d.weight
						}
					}
					if m.weight != want {
						t.Errorf("merged draw %v (opponent %s): weight %d, want %d", m.bag, m.opp, m.weight, want)
					}
					for _, o := range merged[:i] {
						if same(o, m) {
							t.Errorf("draws %v and %v are the same game after %d tiles drawn, merged twice", o.bag, m.bag, k)
						}
					}
				}
				if sum != total {
					t.Errorf("weights add up to %d, want %d", sum, total)
				}
				if k == 0 && len(merged) != len(draws) {
					t.Errorf("a pass draws nothing: %d draws merged into %d", len(draws), len(merged))
				}
			})
		}
	}
}

// TestDepthStagesAgainstBruteForce: a depth-limited stage whose depth
// reaches every line's end is exact, so with the stages set so, every
// candidate's record from that stage must be the brute force's. That
// checks what the stages share with the exact stage (the draws merged per
// first move, their weights, the records' sums) and the depth-limited
// searches' own path, on one and two threads.
func TestDepthStagesAgainstBruteForce(t *testing.T) {
	count := 12
	if testing.Short() {
		count = 6
	}
	saved, savedShare := depthStages, exactShare
	defer func() { depthStages, exactShare = saved, savedShare }()
	depthStages = []depthStage{{plies: 40, cands: 1 << 20, draws: 1 << 20}}
	// With one tile in the bag the depth stages value what the exact
	// solve left when the clock stopped it (estimateUnsettled): here it
	// has no time at all.
	exactShare = 0
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	for _, set := range []struct {
		bag, count int
		cases      []smallPEG
	}{
		{1, count, smallPEGs(tables, 240, 27)},
		{2, count, smallPEGs(tables, 240, 28)},
		// Four unseen tiles, three in the bag: the opponent holds one.
		// Few such trees are small enough for the brute force.
		{3, count / 2, smallPEGsOf(tables, 240, 29, 4, 1)},
	} {
		compared, estimates := 0, 0
		for i, c := range set.cases {
			if c.unseen.Count() <= set.bag || compared == set.count {
				continue
			}
			recs, ok := bruteForce(tables, c.pos, c.unseen, set.bag, 6)
			if !ok {
				continue
			}
			compared++
			// A deadline, so that a one-tile solve splits its time.
			ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
			opts, _ := Options{Top: 1 << 20, TTMB: 8, Threads: 1 + i%2}.normalize()
			// Stop before the exact stage: every record is the depth stage's.
			opts.Progress = func(p Progress) {
				if p.Stage == "40 plies" && p.Done == p.Of {
					cancel()
				}
			}
			res, err := solveBag(ctx, tables, c.pos, c.unseen, set.bag, opts)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Candidates) != len(recs) {
				t.Fatalf("%s: %d candidates, brute force %d", c.name, len(res.Candidates), len(recs))
			}
			byMove := map[string]bruteRecord{}
			for _, r := range recs {
				byMove[r.notation] = r
			}
			for _, cand := range res.Candidates {
				r := byMove[cand.Notation]
				sum := cand.MeanSpread * float64(cand.Draws)
				if cand.Proven && set.bag == 1 {
					// Settled exactly before the stop reached the
					// endgames (the stop comes a moment after the clock).
					sum = float64(cand.Draws) * cand.MeanSpread
				} else if estimates++; cand.Proven || cand.Plies != 40 {
					t.Errorf("%s: %s proven %v at %d plies, want the depth stage's estimate", c.name, cand.Notation, cand.Proven, cand.Plies)
				}
				if cand.Wins != r.wins || cand.Ties != r.ties || cand.Losses != r.loss || math.Abs(sum-float64(r.sum)) > 1e-6 {
					t.Errorf("%s (bag %d): %s %d-%d-%d sum %.3f, brute force %d-%d-%d sum %d", c.name, set.bag, cand.Notation, cand.Wins, cand.Ties, cand.Losses, sum, r.wins, r.ties, r.loss, r.sum)
				}
			}
		}
		t.Logf("%d pre-endgames with %d tiles in the bag compared, %d estimates", compared, set.bag, estimates)
		if estimates == 0 {
			t.Errorf("bag %d: no estimate compared", set.bag)
		}
		if compared < set.count/2 {
			t.Errorf("bag %d: only %d of %d compared", set.bag, compared, set.count)
		}
	}
}

// TestStagedStops: a staged solve stopped in its first stage ranks
// nothing (the candidates valued so far are not the best of anything);
// stopped within a depth-limited stage after its first round, it ranks
// that stage's candidates first (valued on the round's draws), then the
// rest by the stage before. (Two tiles are staged under a time limit: each
// context has one, too far off to be reached.)
func TestStagedStops(t *testing.T) {
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	tried := 0
	for _, c := range smallPEGs(tables, 120, 28) {
		if c.unseen.Count() < 3 || tried == 6 {
			continue
		}
		tried++
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		cancel()
		opts, _ := Options{TTMB: 8, Top: 1 << 20}.normalize()
		res, err := solveBag(ctx, tables, c.pos, c.unseen, 2, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Candidates) != 0 || res.Stopped != "cancelled" || res.Proven {
			t.Errorf("%s: cancelled before it began: %d candidates, stopped %q, proven %v", c.name, len(res.Candidates), res.Stopped, res.Proven)
		}

		ctx, cancel = context.WithTimeout(context.Background(), time.Hour)
		var counted []string
		opts.Progress = func(p Progress) {
			counted = append(counted, p.Stage+": "+p.Counted())
			if p.Stage == fmt.Sprintf("%d plies", depthStages[0].plies) && p.Done == 1 {
				cancel()
			}
		}
		res, err = solveBag(ctx, tables, c.pos, c.unseen, 2, opts)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		// A depth-limited stage counts rounds of draws, the others candidates.
		for _, want := range []string{fmt.Sprintf("%d plies: rounds of draws", depthStages[0].plies), fmt.Sprintf("playouts of %d draws: candidates", playoutStages[0].draws)} {
			if !slices.Contains(counted, want) {
				t.Errorf("%s: no progress %q in %q", c.name, want, counted)
			}
		}
		if len(res.Candidates) < 2 {
			continue
		}
		// The first round values the depth stage's candidates on its
		// first draws: they rank first, the rest by the playouts.
		deep := 0
		for _, cand := range res.Candidates {
			if cand.Plies == depthStages[0].plies && !cand.Proven {
				deep++
			}
		}
		if want := min(depthStages[0].cands, len(res.Candidates)); deep != want {
			t.Errorf("%s: stopped after the first round, %d candidates valued at %d plies, want %d", c.name, deep, depthStages[0].plies, want)
		}
		for i := 1; i < deep; i++ {
			a, b := res.Candidates[i-1], res.Candidates[i]
			if a.WinPct < b.WinPct || a.WinPct == b.WinPct && a.MeanSpread < b.MeanSpread {
				t.Errorf("%s: at %d plies %s (%.1f%%, %+.2f) ranks below %s (%.1f%%, %+.2f)", c.name, depthStages[0].plies, b.Notation, b.WinPct, b.MeanSpread, a.Notation, a.WinPct, a.MeanSpread)
			}
		}
		rest := res.Candidates[deep:]
		for i, cand := range rest {
			if cand.Plies != 0 || cand.Proven {
				t.Errorf("%s: %s valued at %d plies (proven %v), want the playouts", c.name, cand.Notation, cand.Plies, cand.Proven)
			}
			if i > 0 && (rest[i-1].WinPct < cand.WinPct || rest[i-1].WinPct == cand.WinPct && rest[i-1].MeanSpread < cand.MeanSpread) {
				t.Errorf("%s: %s (%.1f%%, %+.2f) ranks below %s (%.1f%%, %+.2f)", c.name, cand.Notation, cand.WinPct, cand.MeanSpread, rest[i-1].Notation, rest[i-1].WinPct, rest[i-1].MeanSpread)
			}
		}
	}
	if tried < 3 {
		t.Errorf("only %d small pre-endgames tried", tried)
	}
}

// TestOneTileStoppedByClock: a one-tile pre-endgame whose endgames are all
// hard (vs_andy.gcg's 24th turn: the opponent holds seven of DEIINOQR; one
// candidate's eight endgames take tens of millions of nodes) is not proven
// within a few seconds, and the exact solve settles no candidate in that
// time. The answer must still come: the candidates the exact solve left,
// valued by the playouts and as far as the time allows the depth-limited
// stages, ranked deeper first, each over the eight bag tiles.
// (TestDepthStagesAgainstBruteForce checks those estimates' values.)
func TestOneTileStoppedByClock(t *testing.T) {
	tables := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	line, err := os.ReadFile(filepath.Join("testdata", "one-tile-hard.cgp"))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := position.ParseCGP("one-tile-hard.cgp", strings.TrimSpace(string(line)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	res, err := Solve(ctx, tables, pos, Options{Threads: 2, TTMB: 64})
	if err != nil {
		t.Fatal(err)
	}
	if res.Proven || res.Stopped != "time" || res.BagTiles != 1 {
		t.Fatalf("proven %v, stopped %q, bag %d: want an answer stopped by the clock", res.Proven, res.Stopped, res.BagTiles)
	}
	if len(res.Candidates) != DefaultTop {
		t.Fatalf("%d candidates ranked, want %d", len(res.Candidates), DefaultTop)
	}
	deepest := 1 << 10
	for i, c := range res.Candidates {
		t.Logf("%d %s %.1f%% %+.3f proven %v plies %d", i+1, c.Notation, c.WinPct, c.MeanSpread, c.Proven, c.Plies)
		if c.Draws != 8 || c.Wins+c.Ties+c.Losses != 8 {
			t.Errorf("%s: %d-%d-%d of %d draws, want the 8 unseen tiles", c.Notation, c.Wins, c.Ties, c.Losses, c.Draws)
		}
		if c.Proven {
			if i > 0 && !res.Candidates[i-1].Proven {
				t.Errorf("%s: an exact record ranked below an estimate", c.Notation)
			}
			continue
		}
		if c.Spread != "estimate" || c.PerDraw != nil {
			t.Errorf("%s: spread %q, %d per-draw outcomes: want an estimate without them", c.Notation, c.Spread, len(c.PerDraw))
		}
		if c.Plies > deepest {
			t.Errorf("%s at %d plies ranked below one at %d", c.Notation, c.Plies, deepest)
		}
		deepest = c.Plies
	}
	// ExactOnly keeps the old answer: the exact solve's leaders only.
	ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	res, err = Solve(ctx, tables, pos, Options{Threads: 2, TTMB: 64, ExactOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Candidates) != 0 || res.Stopped != "time" {
		t.Errorf("ExactOnly: %d candidates, stopped %q: want none settled in a second", len(res.Candidates), res.Stopped)
	}
}

// TestSpreadOrder: spreadOrder is a permutation of 0..n-1 whose first k
// (k a power of two up to n) fall one in each k-th of the range.
func TestSpreadOrder(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 8, 20, 64, 100} {
		o := spreadOrder(n)
		seen := make([]bool, n)
		for _, i := range o {
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("n %d: %v is not a permutation", n, o)
			}
			seen[i] = true
		}
		if len(o) != n {
			t.Fatalf("n %d: %d indices", n, len(o))
		}
		for k := 1; k <= n && n&(n-1) == 0; k *= 2 {
			part := make([]bool, k)
			for _, i := range o[:k] {
				part[i*k/n] = true
			}
			if slices.Contains(part, false) {
				t.Errorf("n %d: the first %d, %v, miss a %d-th of the range", n, k, o[:k], k)
			}
		}
	}
}
