package endgame

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/rules"
)

// A real endgame (shared e053: IIRU against NO, MAGPIE's value -11 under
// the two-turn rule) and the same position with the opponent's rack left
// out.
const (
	e053      = "3SOZzLED1KAYS/3OPA3U1E3/6POINTER2/3HAJES1I1F3/9T5/8NE5/7QI6/6VAX6/5R1DE6/1V3A1I6C/1E1TALCS6U/1GROWL3DUG2B/BA1DAYTIME1ELHI/ON6EMOTION/W2FeRRATE2ENG IIRU/NO 398/413 0 lex NWL23;"
	e053NoOpp = "3SOZzLED1KAYS/3OPA3U1E3/6POINTER2/3HAJES1I1F3/9T5/8NE5/7QI6/6VAX6/5R1DE6/1V3A1I6C/1E1TALCS6U/1GROWL3DUG2B/BA1DAYTIME1ELHI/ON6EMOTION/W2FeRRATE2ENG IIRU/ 398/413 0 lex NWL23;"
	e053Value = -11
)

func mustCGP(t *testing.T, s string) *position.Position {
	t.Helper()
	p, err := position.ParseCGP("test", s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSolveErrors: positions that are not endgames and bad options are
// errors that say why, not panics.
func TestSolveErrors(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	ctx := context.Background()
	tests := []struct {
		name string
		cgp  string
		opts Options
		want string
	}{
		{"bag not empty", "15/15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15 AEINRST/DEILOPR 12/0 0 lex NWL23;", Options{}, "in the bag"},
		{"opponent unknown, bag not empty", "15/15/15/15/15/15/15/7CAT5/15/15/15/15/15/15/15 AEINRST/ 12/0 0 lex NWL23;", Options{}, "bag is not empty"},
		{"racks short of the unseen tiles", strings.Replace(e053, "IIRU/NO", "IIR/NO", 1), Options{}, "in the bag"},
		{"too many tiles", strings.Replace(e053, "IIRU/NO", "IIRUQ/NO", 1), Options{}, "too many"},
		{"mover has no tiles", strings.Replace(e053, "IIRU/NO", "/NO", 1), Options{}, "no tiles"},
		{"game over on scoreless turns", strings.Replace(e053, "398/413 0", "398/413 6", 1), Options{}, "game is over"},
		{"bad rule", e053, Options{ScorelessTurns: 99}, "scoreless turns"},
		{"bad threads", e053, Options{Threads: -1}, "threads"},
		{"bad plies", e053, Options{Plies: -2}, "plies"},
		{"bad table", e053, Options{TTMB: -5}, "table size"},
		{"three players", strings.Replace(e053, "IIRU/NO 398/413", "IIRU/NO/ 398/413/100", 1), Options{}, "endgame: a 3-player position: the solver handles two players"},
		{"four players", strings.Replace(e053, "IIRU/NO 398/413", "IIRU/// 398/413/100/0", 1), Options{}, "endgame: a 4-player position: the solver handles two players"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Solve(ctx, lex, mustCGP(t, tc.cgp), tc.opts)
			if err == nil {
				t.Fatalf("no error; result %+v", res)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
	if _, err := Solve(ctx, nil, mustCGP(t, e053), Options{}); err == nil {
		t.Error("no error without a lexicon")
	}
	if _, err := Solve(ctx, lex, nil, Options{}); err == nil {
		t.Error("no error without a position")
	}
}

// TestOpponentRackInferred: an empty opponent's rack is the unseen tiles.
func TestOpponentRackInferred(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	for _, cgp := range []string{e053, e053NoOpp} {
		res, err := Solve(context.Background(), lex, mustCGP(t, cgp), Options{ScorelessTurns: 2, TTMB: 8})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Proven || res.Value != e053Value {
			t.Errorf("%s: value %d (proven %v), want %d", cgp, res.Value, res.Proven, e053Value)
		}
		checkPV(t, res)
		if res.PV[0].Rack.String() != "IIRU" {
			t.Errorf("first step's rack %s, want IIRU", res.PV[0].Rack)
		}
	}
}

// TestStartScoreless: the position's count under the six-turn rule, read
// under a shorter one.
func TestStartScoreless(t *testing.T) {
	tests := []struct{ zero, n, want int }{
		{0, 6, 0}, {3, 6, 3}, {5, 6, 5},
		{0, 2, 0}, {4, 2, 0}, {5, 2, 1},
		{3, 4, 1}, {5, 4, 3}, {1, 4, 0},
	}
	for _, tc := range tests {
		if got := startScoreless(tc.zero, tc.n); got != tc.want {
			t.Errorf("startScoreless(%d, %d) = %d, want %d", tc.zero, tc.n, got, tc.want)
		}
	}
}

// sharedByID returns one shared position, skipping when they are absent.
func sharedByID(t *testing.T, id string) (sharedPosition, *position.Position) {
	t.Helper()
	for _, p := range loadShared(t) {
		if p.ID == id {
			return p, mustCGP(t, p.CGP)
		}
	}
	t.Fatalf("no shared position %s", id)
	return sharedPosition{}, nil
}

// TestProgress: one report an iteration, deeper each time, the last the
// proven value.
func TestProgress(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	var got []Progress
	res, err := Solve(context.Background(), lex, mustCGP(t, e053), Options{ScorelessTurns: 2, TTMB: 8,
		Progress: func(p Progress) { got = append(got, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != res.Depth {
		t.Fatalf("%d reports for %d iterations", len(got), res.Depth)
	}
	for i, p := range got {
		if p.Depth != i+1 || p.Proven != (i == len(got)-1) {
			t.Errorf("report %d: %+v", i, p)
		}
	}
	if last := got[len(got)-1]; last.Value != res.Value || last.Best != res.Notation {
		t.Errorf("last report %+v, result %d %s", last, res.Value, res.Notation)
	}
}

// TestDepthLimited: with Plies the answer is not proven (on a 7-against-7
// endgame), its line is no deeper than the limit, and the value is that of
// a playout-valued search.
func TestDepthLimited(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	_, pos := sharedByID(t, "e045")
	res, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: 2, Plies: 2, TTMB: 16})
	if err != nil {
		t.Fatal(err)
	}
	if res.Proven || res.Depth != 2 || len(res.PV) > 2 || len(res.PV) == 0 {
		t.Errorf("proven %v, depth %d, line %v: want an unproven answer at depth 2", res.Proven, res.Depth, pvString(res.PV))
	}
	t.Logf("depth 2: %s value %d, %d nodes, %v", res.Notation, res.Value, res.Nodes, res.Elapsed)

	// A limit past the end of a small endgame proves it all the same.
	res, err = Solve(context.Background(), lex, mustCGP(t, e053), Options{ScorelessTurns: 2, Plies: 20, TTMB: 8})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Proven || res.Value != e053Value {
		t.Errorf("e053 with 20 plies: value %d (proven %v), want %d proven", res.Value, res.Proven, e053Value)
	}
}

// TestDeadline: a context deadline stops the search with the deepest answer
// completed, not proven.
func TestDeadline(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	_, pos := sharedByID(t, "e045")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := Solve(ctx, lex, pos, Options{ScorelessTurns: 2, TTMB: 16, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	// The first iteration always completes (a playout for each first
	// move: about 0.15 s here, ten times that under the race detector).
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("took %v with a 100 ms deadline", el)
	}
	if res.Proven || res.Depth < 1 || len(res.PV) == 0 {
		t.Errorf("proven %v, depth %d, line %v: want an unproven answer", res.Proven, res.Depth, pvString(res.PV))
	}
	t.Logf("100 ms: %s value %d at depth %d, %d nodes, %v", res.Notation, res.Value, res.Depth, res.Nodes, res.Elapsed)
}

// TestTopMatchesMinimax: every first move ranked by the solver has the value
// the plain minimax gives it, on small endgames.
func TestTopMatchesMinimax(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	games, _ := minimaxValues(lex, randomEndgames(lex, 30, 99))
	newGen := func() *movegen.Generator { return newGenerator(lex) }
	for _, e := range games {
		opts, _ := Options{ScorelessTurns: e.n, TTMB: 4, Top: 1000}.normalize()
		res, err := solve(context.Background(), lex, e.st, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Ranked) == 0 || res.Ranked[0].Value != res.Value {
			t.Fatalf("%s: ranked %v, value %d", e.name, res.Ranked, res.Value)
		}
		for i, r := range res.Ranked {
			if i > 0 && r.Value > res.Ranked[i-1].Value {
				t.Errorf("%s: ranked out of order at %d", e.name, i)
			}
			want := firstMoveValue(t, newGen, e, r)
			if r.Value != want {
				t.Errorf("%s: %s ranked at %d, minimax %d", e.name, r.Notation, r.Value, want)
			}
		}
	}
}

// firstMoveValue is the plain minimax's value of playing r first (the test
// skipped if the tree is too big).
func firstMoveValue(t *testing.T, newGen func() *movegen.Generator, e withMinimax, r Ranked) int {
	t.Helper()
	v, ok := firstMoveMinimax(newGen, e, r)
	if !ok {
		t.Skip("tree too big")
	}
	return v
}

// firstMoveMinimax is the plain minimax's value of playing r first; ok is
// false when the tree is too big.
func firstMoveMinimax(newGen func() *movegen.Generator, e withMinimax, r Ranked) (int, bool) {
	st := e.st
	m := r.Move
	mover, opp := st.racks[0], st.racks[1]
	score := int(m.Score)
	ns := st.scoreless + 1
	if score > 0 {
		ns = 0
	}
	next := st.board
	if m.Kind == move.Play {
		mover.Sub(m.Used())
		next.Apply(m.Placed())
		if mover.Count() == 0 {
			return score + 2*opp.Value(), true
		}
	}
	if ns >= e.n {
		return score - mover.Value() + opp.Value(), true
	}
	v, _, ok := minimaxValue(newGen, state{board: next, racks: [2]rules.Rack{opp, mover}, scoreless: ns}, e.n, 10*minimaxNodeLimit)
	return score - v, ok
}

// TestAnswerSameForAnyThreads: a proven answer (the move, its line and the
// ranking of the first moves) is the same on one thread, four and two, whose
// searches share their work differently each run; and the move answered is
// the first, in the root's first order (firstMoves), of the moves that the
// plain minimax values at the root's value: which of equal moves comes
// first is not left to the search.
func TestAnswerSameForAnyThreads(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	count := 300
	if testing.Short() {
		count = 100
	}
	games, _ := minimaxValues(lex, randomEndgames(lex, count, 41))
	newGen := func() *movegen.Generator { return newGenerator(lex) }
	answer := func(r *Result) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%s %d %v;", r.Notation, r.Value, pvString(r.PV))
		for _, rk := range r.Ranked {
			fmt.Fprintf(&b, " %s=%d", rk.Notation, rk.Value)
		}
		return b.String()
	}
	ties, before, unchecked := 0, 0, 0
	for _, e := range games {
		var want string
		var first *Result
		for _, threads := range []int{1, 4, 2} {
			res := solveSmall(t, lex, e, Options{TTMB: 4, Threads: threads, Top: 4, NoPrune: true})
			if !res.Proven || res.Value != e.want {
				t.Fatalf("%s, %d threads: value %d (proven %v), minimax %d", e.name, threads, res.Value, res.Proven, e.want)
			}
			if len(res.Ranked) == 0 || !move.Same(&res.Ranked[0].Move, &res.Best) {
				t.Errorf("%s, %d threads: answer %s, ranked first %v", e.name, threads, res.Notation, res.Ranked)
			}
			if first == nil {
				first, want = res, answer(res)
			} else if got := answer(res); got != want {
				t.Errorf("%s: %d threads answer\n  %s\nwhere one thread answers\n  %s", e.name, threads, got, want)
			}
		}
		if len(first.Ranked) > 1 && first.Ranked[1].Value == first.Value {
			ties++
		}
		opts, _ := Options{ScorelessTurns: e.n, NoPrune: true}.normalize()
		sh := &shared{tables: lex, opts: opts, root: e.st, maxPl: maxPlies(e.st.racks[0].Count()+e.st.racks[1].Count(), e.n)}
		for _, rm := range newSearcher(sh, 0).firstMoves() {
			if move.Same(&rm.m, &first.Best) {
				break
			}
			v, ok := firstMoveMinimax(newGen, e, Ranked{Move: rm.m})
			switch {
			case !ok:
				unchecked++
			case v >= e.want:
				t.Errorf("%s: answer %s, but %s comes first and the minimax values it %d, the root's value", e.name, first.Notation, rm.m.NotationOn(&e.st.board), v)
			default:
				before++
			}
		}
	}
	t.Logf("%d endgames, %d with a tie for the best value; %d first moves before the answer checked below its value, %d too big to check", len(games), ties, before, unchecked)
	if ties < len(games)/20 {
		t.Errorf("only %d endgames with tied best moves: the test asks too little", ties)
	}
}

// TestNoAllocationPerNode: once its buffers are warm, the search allocates
// nothing per node (the allocations of a solve are its set-up).
func TestNoAllocationPerNode(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	_, pos := sharedByID(t, "e024")
	// The pruned lexicon is set-up too (a few thousand words): made here.
	pool := pos.Racks[0]
	for l, c := range pos.Racks[1] {
		pool[l] += c
	}
	pruned, err := lex.Pruned(&pos.Board, pool)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{ScorelessTurns: 2, TTMB: 16, Pruned: pruned}
	if _, err := Solve(context.Background(), lex, pos, opts); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := Solve(context.Background(), lex, pos, opts)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	allocs := after.Mallocs - before.Mallocs
	perNode := float64(allocs) / float64(res.Nodes)
	t.Logf("%d allocations for %d nodes (%.4f a node)", allocs, res.Nodes, perNode)
	if perNode > 0.01 {
		t.Errorf("%.4f allocations a node: the hot loop allocates", perNode)
	}
}

// TestThreadsSameAnswer: the proven value, the move answered and its line
// do not depend on the number of threads, on shared positions (e004, e012,
// e017 and e021 have several moves of the best value, and two threads
// answered another of them than one thread did, before the answer was
// chosen among them).
func TestThreadsSameAnswer(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	for _, id := range []string{"e004", "e012", "e017", "e020", "e021", "e024", "e042"} {
		p, pos := sharedByID(t, id)
		var want []string
		for _, threads := range []int{1, 2, 3, 4, 2} {
			res, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: 2, Threads: threads, TTMB: 32})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Proven || res.Value != p.Value {
				t.Errorf("%s, %d threads: value %d (proven %v), want %d", id, threads, res.Value, res.Proven, p.Value)
			}
			checkPV(t, res)
			if got := pvString(res.PV); want == nil {
				want = got
			} else if !slices.Equal(got, want) {
				t.Errorf("%s, %d threads: line %v, one thread %v", id, threads, got, want)
			}
		}
	}
}

// TestScorelessCountFromCGP: the position's count of scoreless turns is
// where the count starts (read as doc.go says under a shorter rule), checked
// through Solve against the plain minimax on small endgames.
func TestScorelessCountFromCGP(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	newGen := func() *movegen.Generator { return newGenerator(lex) }
	checked := 0
	for _, e := range randomEndgames(lex, 40, 3) {
		if e.st.racks[0].Count()+e.st.racks[1].Count() > 4 {
			continue
		}
		for _, c := range []struct{ n, zero int }{{2, 0}, {2, 4}, {2, 5}, {6, 0}, {6, 3}, {6, 5}} {
			pos := &position.Position{Board: e.st.board, Racks: [rules.MaxPlayers]rules.Rack{e.st.racks[0], e.st.racks[1]}, ZeroTurns: c.zero}
			res, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: c.n, TTMB: 4})
			if err != nil {
				t.Fatal(err)
			}
			st := e.st
			st.scoreless = startScoreless(c.zero, c.n)
			want, _, ok := minimaxValue(newGen, st, c.n, minimaxNodeLimit)
			if !ok {
				continue
			}
			checked++
			if !res.Proven || res.Value != want {
				t.Errorf("%s, rule %d, count %d: value %d (proven %v), minimax %d", e.name, c.n, c.zero, res.Value, res.Proven, want)
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d cases checked", checked)
	}
	t.Logf("%d cases checked", checked)
}

// TestTableRelease checks that a released table's memory is what the next
// table of its size gets, with none of its entries (a new generation), and
// that releasing twice, or a nil table, is harmless.
func TestTableRelease(t *testing.T) {
	a := NewTable(2)
	a.cur.Load().store(12345, ttData{move: 7, value: 3, depth: 2, bound: boundExact})
	if _, ok := a.cur.Load().probe(12345); !ok {
		t.Fatal("a stored entry is not found")
	}
	mem := &a.cur.Load().slots[0]
	a.Release()
	a.Release()
	var none *Table
	none.Release()
	b := NewTable(2)
	defer b.Release()
	if &b.cur.Load().slots[0] != mem {
		t.Error("the next table of the same size did not reuse the released one's memory")
	}
	if _, ok := b.cur.Load().probe(12345); ok {
		t.Error("the reused table still holds the released one's entry")
	}
}
