package benchmarks_test

import (
	"runtime"
	"testing"

	"scrabble/eval"
	"scrabble/internal/benchset"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

type counter struct{ plays int }

func (c *counter) Record(*move.Move) { c.plays++ }

// benchPositions runs work on the committed positions in turn, one
// generator per position with its board set up before the timer starts, and
// reports positions per second.
func benchPositions(b *testing.B, work func(g *movegen.Generator, rack *rules.Rack)) {
	tables := testgen.Tables(testlex.GADDAG(b, "NWL23"))
	ps, err := benchset.Positions()
	if err != nil {
		b.Fatal(err)
	}
	gens := make([]*movegen.Generator, len(ps))
	for i, p := range ps {
		gens[i] = movegen.New(tables)
		gens[i].SetBoard(&p.Board)
	}
	// The generators' shared tables (the anagram index is built by the
	// first search) are made and their garbage collected before the timer
	// starts: the timer sees searches only.
	tables.Prepare()
	runtime.GC()
	positions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		i := positions % len(ps)
		work(gens[i], &ps[i].Racks[0])
		positions++
	}
	b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkGenerateAll generates, scores and records every play of each
// committed position.
func BenchmarkGenerateAll(b *testing.B) {
	var c counter
	positions := 0
	benchPositions(b, func(g *movegen.Generator, rack *rules.Rack) {
		g.GeneratePlays(rack, &c)
		positions++
	})
	b.ReportMetric(float64(c.plays)/b.Elapsed().Seconds(), "plays/s")
	b.ReportMetric(float64(c.plays)/float64(positions), "plays/position")
}

// BenchmarkBest finds only the highest-scoring play of each position with
// the shadow-pruned search.
func BenchmarkBest(b *testing.B) {
	benchPositions(b, func(g *movegen.Generator, rack *rules.Rack) {
		g.ForgetRacks() // each search does all its work, as on a new position
		g.Best(rack, 0, movegen.Options{})
	})
}

// BenchmarkBestScoreFullScan finds the highest-scoring play by generating
// every play into a best-only recorder (no pruning), for comparison.
func BenchmarkBestScoreFullScan(b *testing.B) {
	var best movegen.BestScore
	benchPositions(b, func(g *movegen.Generator, rack *rules.Rack) {
		best.Reset()
		g.GeneratePlays(rack, &best)
	})
}

// BenchmarkBestEquity finds the highest-equity move (score plus the
// built-in NWL23 leave values; exchanges and pass included) of each
// position, as the equity player does every turn.
func BenchmarkBestEquity(b *testing.B) {
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil || leaves == nil {
		b.Fatalf("no built-in NWL23 leave values: %v", err)
	}
	benchPositions(b, func(g *movegen.Generator, rack *rules.Rack) {
		g.SetLeaves(leaves)
		g.ForgetRacks()
		g.Best(rack, 50, movegen.Options{Exchanges: true, Pass: true})
	})
}

// BenchmarkMovesSorted does what `scrabble moves` does for each position:
// every play with its equity (score plus the built-in NWL23 leave values,
// or the end-of-game arithmetic with the bag empty; no equity terms), then
// the whole list sorted by move.SortByScore. Its source compiles against
// commit 21519d3's API too (benchmarks/tools/abbenchcopy.sh), so the same
// benchmark runs on both builds of an A/B.
func BenchmarkMovesSorted(b *testing.B) {
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil || leaves == nil {
		b.Fatalf("no built-in NWL23 leave values: %v", err)
	}
	var terms eval.Terms
	var all movegen.AllMoves
	moves, positions := 0, 0
	benchPositions(b, func(g *movegen.Generator, rack *rules.Rack) {
		unseen, err := rules.Unseen(g.Board(), *rack)
		if err != nil {
			b.Fatal(err)
		}
		bag := max(0, unseen.Count()-rules.RackSize)
		g.SetLeaves(eval.EquityWith(leaves, terms, bag, unseen))
		all.Reset()
		g.Generate(rack, bag, movegen.Options{OpenCost: terms.OpenCost(bag)}, &all)
		move.SortByScore(all.Moves)
		moves += len(all.Moves)
		positions++
	})
	b.ReportMetric(float64(moves)/float64(positions), "moves/position")
}
