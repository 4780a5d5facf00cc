package peg

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"scrabble/internal/benchset"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/position"
	"scrabble/rules"
)

// fullLimit is how long BenchmarkSharedPEG's full solves may take a
// position: MAGPIE's limit on these positions (../shared/endgame/README.md).
const fullLimit = 150 * time.Second

// BenchmarkSharedPEG values the shared one-tile pre-endgames under
// MAGPIE's rule on 1 and 2 threads: every position's MAGPIE move exactly
// (8 draws each; magpie-moves), every position solved in full (full: the
// exact best move; minutes), and p009 in full alone (MAGPIE's times are in
// ../shared/endgame/README.md; a full solve stops at MAGPIE's 150 s limit).
// Compare threads within one run. SCRABBLE_PEG_IDS (p001,p008, say) limits
// the full solves to those positions.
func BenchmarkSharedPEG(b *testing.B) {
	ps := loadPEG(b)
	lex := testgen.Tables(testlex.GADDAG(b, "NWL23"))
	type one struct {
		pos *position.Position
		m   move.Move
	}
	var all []one
	var p009 *position.Position
	for _, p := range ps {
		pos, err := position.ParseCGP(p.ID, p.CGP)
		if err != nil {
			b.Fatal(err)
		}
		m, err := move.Parse(p.Best.Move, &pos.Board)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, one{pos, m})
		if p.ID == "p009" {
			p009 = pos
		}
	}
	only := os.Getenv("SCRABBLE_PEG_IDS")
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("magpie-moves/threads=%d", threads), func(b *testing.B) {
			for range b.N {
				for _, o := range all {
					if _, err := Solve(context.Background(), lex, o.pos, Options{ScorelessTurns: 2, Threads: threads, Only: []move.Move{o.m}}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		// Every position solved in full (every candidate, Top 1): the
		// exact answer, each position's seconds reported beside the total.
		// A solve stops at MAGPIE's limit (fullLimit): p001 and p008 take
		// far longer, and a stopped one reports the limit and says so.
		b.Run(fmt.Sprintf("full/threads=%d", threads), func(b *testing.B) {
			for range b.N {
				total := 0.0
				for i, o := range all {
					if only != "" && !slices.Contains(strings.Split(only, ","), ps[i].ID) {
						continue
					}
					ctx, cancel := context.WithTimeout(context.Background(), fullLimit)
					res, err := Solve(ctx, lex, o.pos, Options{ScorelessTurns: 2, Threads: threads, Top: 1, ExactOnly: true})
					cancel()
					if err != nil {
						b.Fatal(err)
					}
					secs := res.Elapsed.Seconds()
					total += secs
					b.ReportMetric(secs, ps[i].ID+"-s")
					if len(res.Candidates) == 0 {
						b.Logf("%s: nothing settled in %.1f s (%s)", ps[i].ID, secs, res.Stopped)
						continue
					}
					c := res.Candidates[0]
					b.Logf("%s: %s %d-%d-%d, mean %.3f, proven %v (%s), %d moves, %d pruned, %d endgames, %.1f million nodes, %.1f s", ps[i].ID, c.Notation,
						c.Wins, c.Ties, c.Losses, c.MeanSpread, res.Proven, res.Stopped, res.Moves, res.Pruned, res.Endgames, float64(res.Nodes)/1e6, secs)
				}
				b.ReportMetric(total, "total-s")
			}
		})
		b.Run(fmt.Sprintf("p009/threads=%d", threads), func(b *testing.B) {
			for range b.N {
				if _, err := Solve(context.Background(), lex, p009, Options{ScorelessTurns: 2, Threads: threads, Top: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStaged times a staged solve's stages up to the first
// depth-limited one (the playouts and the 2-ply searches; the deeper
// stages are left out so that a run takes seconds, not a budget) on the
// first benchmark positions with 3 and 4 tiles in the bag, on 1 and 2
// threads.
func BenchmarkStaged(b *testing.B) {
	lex := testgen.Tables(testlex.GADDAG(b, "NWL23"))
	ps, err := benchset.Positions()
	if err != nil {
		b.Fatal(err)
	}
	saved := depthStages
	defer func() { depthStages = saved }()
	depthStages = saved[:1]
	byBag := map[int]*position.Position{}
	for _, p := range ps {
		unseen, err := rules.Unseen(&p.Board, p.Racks[0])
		if bag := unseen.Count() - rules.RackSize; err == nil && bag >= 3 && bag <= MaxBag && byBag[bag] == nil && p.Racks[0].Count() == rules.RackSize {
			byBag[bag] = p
		}
	}
	for bag := 3; bag <= MaxBag; bag++ {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("bag=%d/threads=%d", bag, threads), func(b *testing.B) {
				pos := byBag[bag]
				if pos == nil {
					b.Skipf("no benchmark position with %d tiles in the bag", bag)
				}
				for range b.N {
					ctx, cancel := context.WithCancel(context.Background())
					// Stop as the exact stage begins.
					opts := Options{Threads: threads, TTMB: 64, Progress: func(p Progress) {
						if p.Stage == fmt.Sprintf("%d plies", depthStages[0].plies) && p.Done == p.Of {
							cancel()
						}
					}}
					res, err := Solve(ctx, lex, pos, opts)
					cancel()
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(res.Endgames), "endgames")
				}
			})
		}
	}
}

// BenchmarkTwoTiles solves two-tile pre-endgames of self-play games
// exactly (no time limit: every candidate raced over the 72 draw orders)
// on 1 and 2 threads: testdata/two-tiles.cgp, a position a line (26
// thousand and 1.8 million nodes on one thread). Compare builds with it in
// one run.
func BenchmarkTwoTiles(b *testing.B) {
	lex := testgen.Tables(testlex.GADDAG(b, "NWL23"))
	file := filepath.Join("testdata", "two-tiles.cgp")
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	ps, err := benchset.Parse(file, data)
	if err != nil {
		b.Fatal(err)
	}
	for i, p := range ps {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", p.Racks[0], threads), func(b *testing.B) {
				for range b.N {
					res, err := Solve(context.Background(), lex, p, Options{Threads: threads, Top: 1})
					if err != nil {
						b.Fatal(err)
					}
					if !res.Proven || res.BagTiles != 2 {
						b.Fatalf("two-tiles.cgp:%d: proven %v, %d tiles in the bag", i+1, res.Proven, res.BagTiles)
					}
					b.ReportMetric(float64(res.Nodes), "nodes")
				}
			})
		}
	}
}
