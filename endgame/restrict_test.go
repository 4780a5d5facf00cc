package endgame

import (
	"context"
	"sort"
	"testing"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/position"
)

// TestRestrict: a solve restricted to one first move gives that move's
// value as the ranking of every first move gives it (two searches that
// share nothing), the best move's value is the position's, and MaxNodes
// cuts a search the same way twice.
func TestRestrict(t *testing.T) {
	ps := loadShared(t)
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Seconds < ps[j].Seconds })
	for _, p := range ps[:6] {
		pos, err := position.ParseCGP(p.ID, p.CGP)
		if err != nil {
			t.Fatal(err)
		}
		all, err := Solve(context.Background(), lex, pos, Options{TTMB: 16, Top: 4})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range all.Ranked {
			one, err := Solve(context.Background(), lex, pos, Options{TTMB: 16, Restrict: []move.Move{r.Move}})
			if err != nil {
				t.Fatal(err)
			}
			if !one.Proven || one.Value != r.Value || !move.Same(&one.Best, &r.Move) {
				t.Errorf("%s: %s restricted: value %d (proven %v, move %s); ranked %d", p.ID, r.Notation, one.Value, one.Proven, one.Notation, r.Value)
			}
		}
		if all.Ranked[0].Value != all.Value {
			t.Errorf("%s: best ranked %d, value %d", p.ID, all.Ranked[0].Value, all.Value)
		}
		var cut [2]*Result
		for i := range cut {
			if cut[i], err = Solve(context.Background(), lex, pos, Options{TTMB: 16, MaxNodes: 3000}); err != nil {
				t.Fatal(err)
			}
		}
		if cut[0].Value != cut[1].Value || cut[0].Depth != cut[1].Depth || cut[0].Notation != cut[1].Notation || cut[0].Nodes != cut[1].Nodes {
			t.Errorf("%s: two searches cut at 3000 nodes: %+v / %+v", p.ID, cut[0], cut[1])
		}
	}
	pos, _ := position.ParseCGP(ps[0].ID, ps[0].CGP)
	bogus := move.Move{Kind: move.Exchange, Len: 1}
	if _, err := Solve(context.Background(), lex, pos, Options{TTMB: 16, Restrict: []move.Move{bogus}}); err == nil {
		t.Error("a restriction to an illegal move: no error")
	}
}
