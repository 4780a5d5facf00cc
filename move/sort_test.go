package move_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"scrabble/eval"
	"scrabble/internal/benchset"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// sortedBy is ms sorted by slices.SortFunc with cmp.
func sortedBy(ms []move.Move, cmp func(a, b *move.Move) int) []move.Move {
	want := slices.Clone(ms)
	slices.SortFunc(want, func(a, b move.Move) int { return cmp(&a, &b) })
	return want
}

// sorts are the radix sorts and the comparison each must agree with.
var sorts = []struct {
	name string
	sort func([]move.Move)
	cmp  func(a, b *move.Move) int
}{
	{"SortByScore", move.SortByScore, move.ByScore},
	{"SortByEquity", move.SortByEquity, move.ByEquity},
}

// firstDiff returns the first index where got and want differ, or -1.
func firstDiff(got, want []move.Move) int {
	for i := range want {
		if got[i] != want[i] {
			return i
		}
	}
	return -1
}

// TestSortByScoreGenerated sorts every move (plays, exchanges and the pass),
// by score (SortByScore) and by equity (SortByEquity),
// of random positions from seeded games, played with the engine, and of
// the same positions with one or two blanks swapped into the rack (blanks
// make long runs of plays tied on score and squares): the same list, byte
// for byte, as slices.SortFunc with ByScore or ByEquity.
func TestSortByScoreGenerated(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves(lex.Header().Name)
	if err != nil {
		t.Fatal(err)
	}
	games := 12
	if testing.Short() {
		games = 3
	}
	var valuer movegen.LeaveValuer
	if leaves != nil {
		valuer = leaves
	}
	rng := rand.New(rand.NewPCG(2027, 5))
	var all movegen.AllMoves
	positions, moves, tied := 0, 0, 0
	check := func(g *movegen.Generator, rack rules.Rack, bagLen int) {
		t.Helper()
		all.Reset()
		g.Generate(&rack, bagLen, movegen.Options{Exchanges: true, Pass: true}, &all)
		var want []move.Move // by score, for the count of ties below
		for k, o := range sorts {
			w := sortedBy(all.Moves, o.cmp)
			if k == 0 {
				want = w
			}
			got := slices.Clone(all.Moves)
			o.sort(got)
			if i := firstDiff(got, w); i >= 0 {
				t.Fatalf("rack %s on\n%s\nmove %d of %d: %s gives %s (score %d, equity %d), SortFunc %s (score %d, equity %d)",
					rack, g.Board().GridString(), i, len(w), o.name, got[i].NotationOn(g.Board()), got[i].Score, got[i].Equity,
					w[i].NotationOn(g.Board()), w[i].Score, w[i].Equity)
			}
		}
		positions++
		moves += len(want)
		for i := 1; i < len(want); i++ {
			a, b := &want[i-1], &want[i]
			if a.Score == b.Score && a.Kind == b.Kind && a.Dir == b.Dir && a.Row == b.Row && a.Col == b.Col && a.Len == b.Len {
				tied++
			}
		}
	}
	tables := testgen.Tables(lex)
	for game := range games {
		g := movegen.New(tables)
		g.SetLeaves(valuer)
		bag := rules.NewBag(uint64(9000 + game))
		var racks [2]rules.Rack
		bag.DrawInto(&racks[0], rules.RackSize)
		bag.DrawInto(&racks[1], rules.RackSize)
		for turn := 0; turn < 40; turn++ {
			rack := &racks[turn%2]
			check(g, *rack, bag.Len())
			// The same board with blanks swapped in for tiles.
			for k := 1; k <= 2; k++ {
				r := *rack
				tiles := r.Tiles()
				for _, tl := range tiles[:min(k, len(tiles))] {
					r.Remove(tl)
					r[rules.Blank]++
				}
				check(g, r, bag.Len())
			}
			// Next turn: the rack's own plays (all.Moves is now a blank
			// rack's), mostly the best by equity, sometimes any.
			all.Reset()
			g.GeneratePlays(rack, &all)
			if len(all.Moves) == 0 {
				break
			}
			m := all.Moves[rng.IntN(len(all.Moves))]
			if rng.IntN(3) > 0 {
				m = slices.MinFunc(all.Moves, func(a, b move.Move) int { return move.ByEquity(&a, &b) })
			}
			g.Apply(&m)
			rack.Sub(m.Used())
			bag.DrawInto(rack, rules.RackSize-rack.Count())
			if rack.Count() == 0 {
				break
			}
		}
	}
	t.Logf("%d positions, %d moves, %d of them tied with the one before on all but their tiles", positions, moves, tied)
	if !testing.Short() && (positions < 300 || tied < moves/4) {
		t.Errorf("%d positions and %d ties of %d moves: want at least 300 positions and a quarter of the moves tied", positions, tied, moves)
	}
}

// TestSortByScoreSynthetic sorts random lists of made-up moves, short and
// long, drawn from a few scores, squares and letters so that most tie on
// all but a few fields (tiles past Len are left as noise: Compare ignores
// them), some with fields no key can hold (a negative row, kind 7, direction 3, column 20; scores
// 2^32 apart in a list of over 2^17): sorted
// by ByScore, and a permutation of the input.
func TestSortByScoreSynthetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	letters := []rules.Letter{rules.PlayedThrough, 1, 2, 26, 1 | rules.BlankBit, 26 | rules.BlankBit, 0xff}
	for trial := range 2001 {
		n := rng.IntN(40)
		if trial%10 == 0 {
			n = rng.IntN(3000)
		}
		wild := trial%7 == 0
		cases := 6 // of the wild fields below
		if trial == 2000 {
			// Scores 2^32 apart and 2^17 moves: fields that fit, but more
			// than a key holds.
			n, wild, cases = 1<<17+100, true, 2
		}
		step := int32(1 + trial%2*999) // scores 1 or 1000 apart
		ms := make([]move.Move, n)
		for i := range ms {
			m := &ms[i]
			m.Kind = move.Kind(rng.IntN(3))
			m.Dir = rules.Direction(rng.IntN(2))
			m.Row, m.Col = int8(rng.IntN(3)), int8(rng.IntN(2)*14)
			m.Len = int8(2 + rng.IntN(2)*13)
			few := len(letters) // a few letters: tiles tie in their first 8
			if rng.IntN(2) == 0 {
				few = 2
			}
			for j := range m.Tiles {
				m.Tiles[j] = letters[rng.IntN(few)]
			}
			m.Score = int32(rng.IntN(4)) * step
			m.Equity = rules.Equity(rng.IntN(4)) * rules.Equity(step)
			if rng.IntN(4) == 0 {
				m.Equity = rules.Equity(rng.Int32())
			}
			if wild && rng.IntN(50) == 0 {
				switch rng.IntN(cases) {
				case 0:
					m.Score, m.Equity = -1<<31, -1<<31
				case 1:
					m.Score, m.Equity = 1<<31-1, 1<<31-1
				case 2:
					m.Row = -1
				case 3:
					m.Kind = 7
				case 4:
					m.Dir = 3
				case 5:
					m.Col = 20
				}
			}
			if i > 0 && rng.IntN(10) == 0 {
				*m = ms[rng.IntN(i)] // a duplicate
			}
		}
		for _, o := range sorts {
			want := sortedBy(ms, o.cmp)
			got := slices.Clone(ms)
			o.sort(got)
			for i := range want {
				if o.cmp(&got[i], &want[i]) != 0 {
					t.Fatalf("%s, trial %d (%d moves): move %d is %+v, want %+v", o.name, trial, n, i, got[i], want[i])
				}
			}
			key := func(a, b move.Move) int {
				if c := o.cmp(&a, &b); c != 0 {
					return c
				}
				for _, c := range []int{int(a.NumTiles) - int(b.NumTiles), int(a.Equity) - int(b.Equity), int(a.Score) - int(b.Score)} {
					if c != 0 {
						return c
					}
				}
				return slices.Compare(a.Tiles[:], b.Tiles[:])
			}
			slices.SortFunc(got, key)
			slices.SortFunc(want, key)
			if !slices.Equal(got, want) {
				t.Fatalf("%s, trial %d (%d moves): the sorted list is not a permutation of the input", o.name, trial, n)
			}
		}
	}
}

// benchLists returns every move of each committed benchmark position (as
// `scrabble moves` lists them: plays with equity), in the generator's
// order.
func benchLists(b *testing.B) [][]move.Move {
	lex := testlex.GADDAG(b, "NWL23")
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil || leaves == nil {
		b.Fatalf("no built-in NWL23 leave values: %v", err)
	}
	ps, err := benchset.Positions()
	if err != nil {
		b.Fatal(err)
	}
	g := movegen.New(testgen.Tables(lex))
	g.SetLeaves(leaves)
	lists := make([][]move.Move, len(ps))
	for i, p := range ps {
		var all movegen.AllMoves
		g.SetBoard(&p.Board)
		g.Generate(&p.Racks[0], 50, movegen.Options{}, &all)
		lists[i] = all.Moves
	}
	return lists
}

// BenchmarkSortByScore sorts the moves of the committed positions, each
// list copied into place first (in the generator's order), by SortByScore
// and by the comparison sort it replaced; "copy" is the copying alone.
func BenchmarkSortByScore(b *testing.B) { // and SortByEquity
	lists := benchLists(b)
	buf := make([]move.Move, 0, 1<<16)
	for _, bm := range []struct {
		name string
		sort func([]move.Move)
	}{
		{"radix", move.SortByScore},
		{"SortFunc", func(ms []move.Move) {
			slices.SortFunc(ms, func(a, b move.Move) int { return move.ByScore(&a, &b) })
		}},
		{"copy", func([]move.Move) {}},
		{"radix equity", move.SortByEquity},
		{"SortFunc equity", func(ms []move.Move) {
			slices.SortFunc(ms, func(a, b move.Move) int { return move.ByEquity(&a, &b) })
		}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				buf = append(buf[:0], lists[i%len(lists)]...)
				bm.sort(buf)
				i++
			}
		})
	}
}
