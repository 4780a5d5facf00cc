package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scrabble/eval"
	"scrabble/internal/benchset"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/rules"
)

// exchangeRacks are racks built to want an exchange: duplicated awkward
// letters with one vowel or none. A rack that does not fit a position's
// unseen tiles is left out there.
var exchangeRacks = []string{"IIUUVVW", "VVWWUUI", "QVVWWUU", "QIIUUVW", "UUUVVWW", "IIIIUUV", "QZXJKVW"}

// TestRankBestWeighsExchangesAndPass: best's ranking is the full list's
// (every play, exchange and the pass, sorted by equity, ties by move.Compare),
// top move and runners-up, with the NWL23 leave values, on every committed
// benchmark position (and examples/pos.cgp, testdata/endgame.cgp) with its own rack and with racks built to need an
// exchange, at the position's bag and at the bag sizes either side of the
// exchange limit; its best move is the one the self-play equity player
// takes (gen.Best with exchanges and pass); with fewer than 7 tiles in the
// bag there is no exchange but the pass is weighed.
func TestRankBestWeighsExchangesAndPass(t *testing.T) {
	lex := testlex.GADDAG(t, "NWL23")
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil || leaves == nil {
		t.Fatalf("no built-in NWL23 leave values: %v", err)
	}
	ps, err := benchset.Positions()
	if err != nil {
		t.Fatal(err)
	}
	// The other committed positions: the README's example and an endgame
	// with the opponent's rack known.
	for _, f := range []string{filepath.Join("..", "..", "examples", "pos.cgp"), filepath.Join("testdata", "endgame.cgp")} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		more, err := benchset.Parse(f, data)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, more...)
	}
	var bad []rules.Rack
	for _, s := range exchangeRacks {
		r, err := rules.ParseRack(s)
		if err != nil {
			t.Fatal(err)
		}
		bad = append(bad, r)
	}
	gen := movegen.New(testgen.Tables(lex))
	const runnersUp = 6
	var cases, exchangeBest, passWeighed int
	for i, p := range ps {
		gen.SetBoard(&p.Board)
		racks := []rules.Rack{p.Racks[0]}
		for _, r := range bad {
			if unseen, err := rules.Unseen(&p.Board, r); err == nil && unseen.Contains(p.Racks[1]) {
				racks = append(racks, r)
			}
		}
		for ri, rack := range racks {
			unseen, err := rules.Unseen(&p.Board, rack)
			if err != nil {
				t.Fatalf("position %d: rack %s: %v", i+1, rack, err)
			}
			bag := max(0, unseen.Count()-rules.RackSize) // as loadTurn takes it
			if opp := p.Racks[1]; opp.Count() > 0 {
				bag = unseen.Count() - opp.Count()
			}
			bags := []int{bag}
			if ri > 0 && i%4 == 0 && unseen.Count() >= rules.RackSize+rules.ExchangeMinBag {
				bags = append(bags, rules.ExchangeMinBag, rules.ExchangeMinBag-1)
			}
			for _, bag := range bags {
				cases++
				gen.SetLeaves(eval.EquityWith(leaves, eval.Terms{}, bag, unseen))
				var all movegen.AllMoves
				gen.Generate(&rack, bag, movegen.Options{Exchanges: true, Pass: true}, &all)
				full := all.Moves
				slices.SortFunc(full, func(a, b move.Move) int { return move.ByEquity(&a, &b) })
				where := fmt.Sprintf("position %d (%s), rack %s, bag %d", i+1, p.CGP(), rack, bag)

				var exchanges, passes int
				for j := range full {
					switch full[j].Kind {
					case move.Exchange:
						exchanges++
					case move.Pass:
						passes++
					}
				}
				if passes != 1 || (exchanges > 0) != rules.CanExchange(bag) {
					t.Fatalf("%s: the full list has %d exchanges and %d passes", where, exchanges, passes)
				}

				got, c := rankBest(gen, &rack, bag, 0, runnersUp)
				want := full[:min(len(full), runnersUp)]
				if !slices.Equal(got, want) {
					t.Fatalf("%s: best ranks\n%s\nthe full list ranks\n%s", where, notations(&p.Board, got), notations(&p.Board, want))
				}
				if c.plays+c.exchanges+c.pass != len(full) || c.exchanges != exchanges || c.pass != passes {
					t.Fatalf("%s: counted %+v, the full list has %d moves, %d exchanges", where, c, len(full), exchanges)
				}
				if i%8 == 0 {
					// --top 0: every move, in the full list's order.
					if everything, _ := rankBest(gen, &rack, bag, 0, 0); !slices.Equal(everything, full) {
						t.Fatalf("%s: best --top 0 ranks %d moves, not the full list's %d in order", where, len(everything), len(full))
					}
				}

				m, ok := gen.Best(&rack, bag, movegen.Options{Exchanges: true, Pass: true})
				if !ok || m != got[0] {
					t.Fatalf("%s: best shows %s, the equity player takes %s", where, got[0].NotationOn(&p.Board), m.NotationOn(&p.Board))
				}
				switch got[0].Kind {
				case move.Exchange:
					exchangeBest++
				case move.Pass:
					passWeighed++
				}
				if !rules.CanExchange(bag) && slices.ContainsFunc(got, func(m move.Move) bool { return m.Kind == move.Pass }) {
					passWeighed++
				}
			}
		}
	}
	// The racks were built to need an exchange: the test means something
	// only if many of them get one, and if the pass ranks among the best
	// when exchanges are not allowed.
	if exchangeBest < 50 || passWeighed == 0 {
		t.Errorf("%d cases: an exchange was best in %d, the pass among the best in %d", cases, exchangeBest, passWeighed)
	}
	t.Logf("%d cases: an exchange best in %d, the pass among the best in %d", cases, exchangeBest, passWeighed)
}

func notations(b *rules.Board, ms []move.Move) string {
	var sb strings.Builder
	for i := range ms {
		fmt.Fprintf(&sb, "  %s %d\n", ms[i].NotationOn(b), ms[i].Equity)
	}
	return sb.String()
}

// TestBestShowsExchange: on examples/pos.txt with NWL23, IIUUVVW's best
// move is an exchange (the issue: best showed 12B VU(G) at -18.5), the
// move of highest equity in 'moves --exchanges'; text and --json show it,
// and --top 0 lists every move by equity.
func TestBestShowsExchange(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.GADDAG(t, "NWL23") // skips without the word lists
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	txt := filepath.Join("..", "..", "examples", "pos.txt")

	// The independent answer: the highest equity among all moves.
	var all []jsonMove
	if err := json.Unmarshal([]byte(e.ok("--lexicon", "NWL23", "moves", "--board", txt, "--rack", "IIUUVVW", "--exchanges", "--json")), &all); err != nil {
		t.Fatal(err)
	}
	slices.SortStableFunc(all, func(a, b jsonMove) int {
		switch {
		case a.Equity > b.Equity:
			return -1
		case a.Equity < b.Equity:
			return 1
		}
		return 0
	})
	top := all[0]
	if top.Kind != "exchange" || all[1].Equity == top.Equity {
		t.Fatalf("moves --exchanges: the top by equity is %+v (then %+v); the test wants one exchange on top", top, all[1])
	}
	out := e.ok("--lexicon", "NWL23", "best", "--board", txt, "--rack", "IIUUVVW")
	head := fmt.Sprintf("Best move: %s (exchange %s)  0 points, equity %.1f\n  leave:   %s\n", top.Move, top.Tiles, top.Equity, top.Leave)
	if !strings.Contains(out, "Rack IIUUVVW, lexicon NWL23: ") || !strings.Contains(out, " exchanges and the pass\n") ||
		!strings.Contains(out, head) || strings.Contains(out, "Best play:") {
		t.Errorf("best:\n%s\nwant it to start with\n%s", out, head)
	}
	var js []jsonMove
	if err := json.Unmarshal([]byte(e.ok("--lexicon", "NWL23", "best", "--board", txt, "--rack", "IIUUVVW", "--json", "--top", "0")), &js); err != nil {
		t.Fatal(err)
	}
	if len(js) != len(all) || js[0].Move != top.Move || js[0].Kind != "exchange" || js[0].Equity != top.Equity {
		t.Fatalf("best --json --top 0: %d moves, first %+v; want all %d, first %+v", len(js), js[0], len(all), top)
	}
	for i := 1; i < len(js); i++ {
		if js[i].Equity > js[i-1].Equity {
			t.Errorf("best --json: %s (%v) ranks below %s (%v)", js[i].Move, js[i].Equity, js[i-1].Move, js[i-1].Equity)
		}
	}
}

// benchEnv is a test environment with NWL23 installed, and the benchmark
// positions.
func benchEnv(t *testing.T) (*testEnv, []*position.Position) {
	t.Helper()
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.GADDAG(t, "NWL23")
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	ps, err := benchset.Positions()
	if err != nil {
		t.Fatal(err)
	}
	return e, ps
}

// TestBestSmallBag: with fewer than 7 tiles in the bag the static ranking
// lists no exchange, but the pass is weighed, and ranks above the plays
// worth less.
func TestBestSmallBag(t *testing.T) {
	e, ps := benchEnv(t)
	// A late benchmark position with a few tiles in the bag (the CGP has
	// no opponent rack, so the bag is the unseen tiles less seven).
	var pos *position.Position
	for _, p := range ps {
		unseen, err := rules.Unseen(&p.Board, p.Racks[0])
		if n := unseen.Count() - rules.RackSize; err == nil && n > 0 && n < rules.ExchangeMinBag {
			pos = p
			break
		}
	}
	if pos == nil {
		t.Fatal("no benchmark position with 1 to 6 tiles in the bag")
	}
	cgp := e.file("late.cgp", pos.CGP()+"\n")
	var js []jsonMove
	// --static: with 1 to 4 tiles in the bag best would solve the
	// pre-endgame instead of listing the moves.
	if err := json.Unmarshal([]byte(e.ok("best", "--board", cgp, "--static", "--json", "--top", "0")), &js); err != nil {
		t.Fatal(err)
	}
	passes := 0
	for i, m := range js {
		switch m.Kind {
		case "exchange":
			t.Errorf("an exchange with fewer than 7 tiles in the bag: %+v", m)
		case "pass":
			passes++
			if i+1 < len(js) && js[i+1].Equity > m.Equity {
				t.Errorf("the pass (%v) ranks above %+v", m.Equity, js[i+1])
			}
		}
	}
	if passes != 1 {
		t.Errorf("%d passes listed, want 1:\n%+v", passes, js)
	}
	if out := e.ok("best", "--board", cgp, "--static"); !strings.Contains(out, " plays and the pass\n") {
		t.Errorf("best on a small bag:\n%s", out)
	}
}
