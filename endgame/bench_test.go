package endgame

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/position"
)

// BenchmarkShared times the proof of every shared position (MAGPIE's
// two-pass rule) on 1 and 2 threads: one op is the whole set. It reports
// the total and the median time per position and nodes per second, and logs
// each position's time, MAGPIE's beside it:
//
//	go test ./endgame/ -run '^$' -bench Shared -benchtime 1x -v
func BenchmarkShared(b *testing.B) {
	ps := loadShared(b)
	lex := testgen.Tables(testlex.GADDAG(b, "NWL23"))
	pos := make([]*position.Position, len(ps))
	for i, p := range ps {
		var err error
		if pos[i], err = position.ParseCGP(p.ID, p.CGP); err != nil {
			b.Fatal(err)
		}
	}
	// The generator's per-lexicon tables and a table of the default size
	// are made outside the timing.
	lex.Prepare()
	if _, err := Solve(context.Background(), lex, pos[len(pos)-1], Options{ScorelessTurns: 2}); err != nil {
		b.Fatal(err)
	}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			var total time.Duration
			var nodes uint64
			times := make([]time.Duration, len(ps))
			for n := 0; n < b.N; n++ {
				for i, p := range pos {
					res, err := Solve(context.Background(), lex, p, Options{ScorelessTurns: 2, Threads: threads})
					if err != nil {
						b.Fatal(err)
					}
					if !res.Proven || res.Value != ps[i].Value {
						b.Fatalf("%s: value %d (proven %v), MAGPIE %d", ps[i].ID, res.Value, res.Proven, ps[i].Value)
					}
					times[i] = res.Elapsed
					total += res.Elapsed
					nodes += res.Nodes
				}
			}
			for i, p := range ps {
				b.Logf("%s %-40s %9.3f s   MAGPIE %7.3f s", p.ID, strings.Join(p.Cats, ","), times[i].Seconds(), p.Seconds)
			}
			sorted := slices.Clone(times)
			slices.Sort(sorted)
			median := (sorted[(len(sorted)-1)/2] + sorted[len(sorted)/2]) / 2
			b.ReportMetric(total.Seconds()/float64(b.N), "s/set")
			b.ReportMetric(median.Seconds(), "median-s")
			b.ReportMetric(sorted[len(sorted)-1].Seconds(), "max-s")
			b.ReportMetric(float64(nodes)/total.Seconds(), "nodes/s")
		})
	}
}
