package movegen_test

import (
	"hash/fnv"
	"testing"

	"scrabble/benchmarks"
	"scrabble/internal/testlex"
	"scrabble/movegen"
	"scrabble/rules"
)

// hashLeaves gives every leave an arbitrary but fixed value between -30 and
// +30 points, so pruning is tested with leaves that reorder plays.
type hashLeaves struct{}

func (hashLeaves) LeaveValue(r *rules.Rack) int32 {
	h := fnv.New32a()
	h.Write(r[:])
	return int32(h.Sum32()%60001) - 30000
}

// TestBestMatchesFullList: the shadow-pruned search finds exactly the move
// that ranks first in the full list, with and without leave values, with
// and without exchanges.
func TestBestMatchesFullList(t *testing.T) {
	lex := testlex.GADDAG(t, "NWL23")
	ps, err := benchmarks.Positions()
	if err != nil {
		t.Fatal(err)
	}
	for _, valuer := range []movegen.LeaveValuer{nil, hashLeaves{}} {
		for _, opts := range []movegen.Options{{}, {Exchanges: true, Pass: true}} {
			g := movegen.New(lex)
			g.SetLeaves(valuer)
			for i, p := range ps {
				g.SetBoard(&p.Board)
				rack := p.Racks[0]
				var all movegen.AllMoves
				g.Generate(&rack, 50, opts, &all)
				got, ok := g.Best(&rack, 50, opts)
				if !ok && len(all.Moves) == 0 {
					continue
				}
				want := all.Moves[0]
				for j := range all.Moves {
					if movegen.ByEquity(&all.Moves[j], &want) < 0 {
						want = all.Moves[j]
					}
				}
				if !ok || got != want {
					t.Fatalf("position %d (%s), leaves %T, opts %+v: Best = %v (%d, eq %d), full list's best = %v (%d, eq %d)",
						i+1, p.CGP(), valuer, opts, got.NotationOn(&p.Board), got.Score, got.Equity,
						want.NotationOn(&p.Board), want.Score, want.Equity)
				}
			}
		}
	}
}
