package infer

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"scrabble/gcg"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// TestMeasureLikelihood measures how well each model predicts the tiles
// an equity player really kept: the mean log-likelihood (nats) of the
// true leave over INFER_MEASURE self-play positions (plays with more than
// one possible leave), every leave enumerated. Off unless INFER_MEASURE is
// set (docs/benchmarks.md has the figures):
//
//	INFER_MEASURE=2000 go test ./infer -run TestMeasureLikelihood -v -timeout 2h
func TestMeasureLikelihood(t *testing.T) {
	want, _ := strconv.Atoi(os.Getenv("INFER_MEASURE"))
	if want <= 0 {
		t.Skip("INFER_MEASURE not set")
	}
	tables, leaves := testSetup(t)
	type model struct {
		name string
		o    Options
	}
	var models []model
	models = append(models, model{"uniform", Options{Model: Uniform}})
	for _, tau := range []float64{0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8} {
		models = append(models, model{fmt.Sprintf("softmax tau %g", tau), Options{Model: Softmax, Tau: tau}})
	}
	for _, m := range []float64{1e-12, 0.5, 2, 5} { // 1e-12: Options reads 0 as the default
		for _, f := range []float64{1e-6, 1e-4, 1e-3, 1e-2, 0.1} {
			models = append(models, model{fmt.Sprintf("margin %g floor %g", math.Round(m*10)/10, f), Options{Model: Margin, Margin: m, Floor: f}})
		}
	}
	for i := range models {
		if err := models[i].o.fill(); err != nil {
			t.Fatal(err)
		}
	}
	sum := make([]float64, len(models))
	top := make([]int, len(models)) // the true leave ranked first
	gen := movegen.New(tables)
	n, single := 0, 0
	source := func(seed uint64) []truth { return selfPlaySituations(t, tables, leaves, 10, seed) }
	if dir := os.Getenv("INFER_MEASURE_GCG"); dir != "" {
		// Games from a directory instead (e.g. sim players'), read once.
		sits := gcgSituations(t, dir)
		source = func(seed uint64) []truth {
			if seed != 1000 {
				t.Fatalf("%s: %d positions, fewer than %d", dir, n, want)
			}
			return sits
		}
	}
	for seed := uint64(1000); n < want; seed += 10 {
		for _, s := range source(seed) {
			if n == want {
				break
			}
			if s.Last.Kind != move.Play {
				continue
			}
			p, err := prepare(&s.Situation)
			if err != nil {
				t.Fatal(err)
			}
			if countLeaves(&p.pool, p.k) == 1 {
				single++
				continue
			}
			gen.SetBoard(&s.Board)
			val := eval_(p, &s, leaves)
			gen.SetLeaves(val)
			type lv struct {
				l       rules.Rack
				prior   float64
				gap     rules.Equity
				isTruth bool
			}
			var all []lv
			forLeaves(&p.pool, p.k, func(l *rules.Rack) {
				r := *l
				for i, c := range p.used {
					r[i] += c
				}
				best, _ := gen.Best(&r, p.bagBefore, movegen.Options{Exchanges: true, Pass: true})
				made := rules.FromPoints(p.score) + val.LeaveValue(l)
				all = append(all, lv{*l, prior(&p.before, &p.used, l), best.Equity - made, *l == s.Leave})
			})
			for mi, m := range models {
				var z, truth, maxOther float64
				for _, x := range all {
					w := x.prior * like(&m.o, x.gap)
					z += w
					if x.isTruth {
						truth = w
					} else {
						maxOther = math.Max(maxOther, w)
					}
				}
				sum[mi] += math.Log(truth / z)
				if truth > maxOther {
					top[mi]++
				}
			}
			n++
			if n%200 == 0 {
				t.Logf("%d positions", n)
			}
		}
	}
	t.Logf("%d positions (plays with more than one possible leave; %d with one skipped)", n, single)
	for i, m := range models {
		t.Logf("%-24s mean log-likelihood %8.4f nats, true leave first %5.1f%%", m.name, sum[i]/float64(n), 100*float64(top[i])/float64(n))
	}
}

// gcgSituations reads every recorded game in dir whose racks are all
// known, and returns its situations as selfPlaySituations does.
func gcgSituations(t testing.TB, dir string) []truth {
	files, err := filepath.Glob(filepath.Join(dir, "*.gcg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no games (%v)", dir, err)
	}
	var out []truth
	for _, f := range files {
		g, err := gcg.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		turns := g.Replay().Turns
		for i := 0; i+1 < len(turns); i++ {
			a, b := turns[i], turns[i+1]
			if a.Rack.Count() != rules.RackSize && a.BagLen > 0 || b.Rack.Count() == 0 || a.Withdrawn {
				continue
			}
			last := a.Move
			if last.Kind == move.Exchange {
				last.Len = 0
			}
			out = append(out, truth{Situation: Situation{Board: a.Board, Rack: b.Rack, Last: last}, Leave: a.Leave()})
		}
	}
	return out
}

func eval_(p *prepared, s *truth, leaves movegen.LeaveValuer) movegen.LeaveValuer {
	o := Options{Leaves: leaves}
	return p.valuer(&s.Situation, &o)
}
