package infer

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// truth is a situation from a self-play game with what the opponent really
// kept.
type truth struct {
	Situation
	Leave rules.Rack // what they kept
	Now   rules.Rack // their rack after the draw
}

// selfPlaySituations plays games between equity players (the engine's
// leaves) and returns, for every turn after the first, the situation of
// the player to move with the truth about the move before.
func selfPlaySituations(t testing.TB, tables *movegen.Tables, leaves movegen.LeaveValuer, games int, seed uint64) []truth {
	t.Helper()
	var out []truth
	tab := game.NewTable(tables)
	for g := range games {
		players := [2]game.Player{game.NewEquityPlayer(leaves, eval.Terms{}), game.NewEquityPlayer(leaves, eval.Terms{})}
		rec, err := tab.Play(context.Background(), players, seed+uint64(g), g%2)
		if err != nil {
			t.Fatal(err)
		}
		var b rules.Board
		for i, tu := range rec.Turns {
			if i+1 < len(rec.Turns) {
				next := rec.Turns[i+1]
				last := tu.Move
				if last.Kind == move.Exchange {
					last.Len = 0 // the player to move did not see them
				}
				leave := tu.Move.Leave(tu.Rack)
				now := leave
				for l, n := range tu.Drawn {
					now[l] += n
				}
				out = append(out, truth{Situation: Situation{Board: b, Rack: next.Rack, Last: last}, Leave: leave, Now: now})
			}
			if tu.Move.Kind == move.Play {
				b.Apply(tu.Move.Placed())
			}
		}
	}
	return out
}

func testSetup(t testing.TB) (*movegen.Tables, movegen.LeaveValuer) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	return testgen.Tables(lex), leaves
}

// bruteForce is the plain reference: every distinct rack the opponent may
// have held before the move (tiles from the unseen ones, as many as the
// move used plus the leave), weighed by the number of ways to draw it,
// every move of it listed (movegen.Generate), the best equity and the
// move made's looked up there; a play's leave is the rack less its tiles,
// an unseen exchange's every leave of its size the rack's exchanges keep.
func bruteForce(t testing.TB, gen *movegen.Generator, s *Situation, o Options) map[rules.Rack]float64 {
	t.Helper()
	if err := o.fill(); err != nil {
		t.Fatal(err)
	}
	before, err := rules.Unseen(&s.Board, s.Rack)
	if err != nil {
		t.Fatal(err)
	}
	used := s.Last.Used()
	n := int(s.Last.NumTiles)
	leaveSize := rules.RackSize - n
	avail := before
	avail.Sub(used)
	if avail.Count() < leaveSize {
		leaveSize = avail.Count()
	}
	size := n + leaveSize
	bag := before.Count() - size
	gen.SetBoard(&s.Board)
	val := eval.Equity(o.Leaves, bag, s.Rack)
	gen.SetLeaves(val)
	out := map[rules.Rack]float64{}
	var racks []rules.Rack
	var r rules.Rack
	var walk func(i, left int)
	walk = func(i, left int) {
		if left == 0 {
			racks = append(racks, r)
			return
		}
		if i == rules.RackSlots {
			return
		}
		for c := 0; c <= int(before[i]) && c <= left; c++ {
			r[i] = uint8(c)
			walk(i+1, left-c)
		}
		r[i] = 0
	}
	walk(0, size)
	for _, rack := range racks {
		if !rack.Contains(used) {
			continue
		}
		ways := 1.0
		for i := range rack {
			ways *= plainBinom(int(before[i]), int(rack[i]))
		}
		var all movegen.AllMoves
		gen.Generate(&rack, bag, movegen.Options{Exchanges: true, Pass: true}, &all)
		best := all.Moves[0].Equity
		for _, m := range all.Moves {
			best = max(best, m.Equity)
		}
		weigh := func(eq rules.Equity) float64 {
			gap := math.Max(0, (best - eq).Points())
			switch o.Model {
			case Softmax:
				return math.Exp(-gap / o.Tau)
			case Margin:
				if gap <= o.Margin+1e-9 {
					return 1
				}
				return o.Floor
			}
			return 1
		}
		switch {
		case s.Last.Kind == move.Exchange && s.Last.Len == 0:
			for _, m := range all.Moves {
				if m.Kind == move.Exchange && int(m.NumTiles) == n {
					w := weigh(m.Equity)
					if o.Model == Uniform {
						// Kept tiles a random subset: the ways to keep these.
						l := m.Leave(rack)
						w = 1
						for i := range l {
							w *= plainBinom(int(rack[i]), int(l[i]))
						}
					}
					out[m.Leave(rack)] += ways * w
				}
			}
		default:
			found := false
			for _, m := range all.Moves {
				if move.Same(&m, &s.Last) {
					out[m.Leave(rack)] += ways * weigh(m.Equity)
					found = true
				}
			}
			if !found {
				t.Fatalf("move %s is not among rack %s's", s.Last.NotationOn(&s.Board), rack)
			}
		}
	}
	var total float64
	for _, w := range out {
		total += w
	}
	for l, w := range out {
		out[l] = w / total
	}
	return out
}

func plainBinom(n, k int) float64 {
	x := 1.0
	for i := range k {
		x = x * float64(n-i) / float64(i+1)
	}
	return x
}

// agree reports the largest difference between a result and the reference.
func agree(res *Result, ref map[rules.Rack]float64) (worst float64, at rules.Rack) {
	got := map[rules.Rack]float64{}
	for _, l := range res.Leaves {
		got[l.Leave] = l.Prob
	}
	for l, p := range ref {
		if d := math.Abs(got[l] - p); d > worst {
			worst, at = d, l
		}
	}
	for l, p := range got {
		if _, ok := ref[l]; !ok && p > worst {
			worst, at = p, l
		}
	}
	return worst, at
}

// TestInferBruteForce: on hundreds of self-play positions whose racks are
// few enough to list, every model's exact distribution agrees with the
// plain reference.
func TestInferBruteForce(t *testing.T) {
	tables, leaves := testSetup(t)
	sits := selfPlaySituations(t, tables, leaves, 40, 11)
	in := New(tables)
	gen := movegen.New(tables)
	models := []Options{
		{Leaves: leaves, Model: Softmax, Racks: 1 << 30},
		{Leaves: leaves, Model: Softmax, Tau: 4, Racks: 1 << 30},
		{Leaves: leaves, Model: Margin, Margin: 3, Racks: 1 << 30},
		{Leaves: leaves, Model: Uniform, Racks: 1 << 30},
	}
	checked := 0
	for i, s := range sits {
		if s.Last.Kind != move.Play {
			continue
		}
		pool, _ := rules.Unseen(&s.Board, s.Rack)
		pool.Sub(s.Last.Used())
		if countLeaves(&pool, min(rules.RackSize-int(s.Last.NumTiles), pool.Count())) > 250 {
			continue
		}
		o := models[checked%len(models)]
		checked++
		res, err := in.Infer(&s.Situation, o)
		if err != nil {
			t.Fatalf("situation %d: %v", i, err)
		}
		if !res.Exact {
			t.Fatalf("situation %d: not exact", i)
		}
		ref := bruteForce(t, gen, &s.Situation, o)
		if d, at := agree(res, ref); d > 1e-9 {
			t.Fatalf("situation %d (%s, %s, model %v): leave %s: inferred %g, reference %g", i, s.Last.NotationOn(&s.Board), s.Rack, o.Model, at, res.Prob(at), ref[at])
		}
		if res.Prob(s.Leave) == 0 {
			t.Errorf("situation %d: the true leave %s has probability 0", i, s.Leave)
		}
	}
	if checked < 200 {
		t.Fatalf("only %d positions checked", checked)
	}
	t.Logf("%d positions checked", checked)
}

// TestInferExchangeBruteForce: an exchange whose tiles were not seen, on
// late positions with few unseen tiles, agrees with the reference.
func TestInferExchangeBruteForce(t *testing.T) {
	tables, leaves := testSetup(t)
	sits := selfPlaySituations(t, tables, leaves, 40, 23)
	in := New(tables)
	gen := movegen.New(tables)
	checked := 0
	for i, s := range sits {
		unseen, _ := rules.Unseen(&s.Board, s.Rack)
		if s.Last.Kind != move.Play || unseen.Count() < 14+int(s.Last.NumTiles) || unseen.Count() > 17+int(s.Last.NumTiles) {
			continue
		}
		if s.Last.Kind == move.Play {
			s.Board.Apply(s.Last.Placed()) // an exchange on the board after it instead
			unseen, _ = rules.Unseen(&s.Board, s.Rack)
			if unseen.Count() < 14 {
				continue
			}
		}
		s.Last = move.Move{Kind: move.Exchange, NumTiles: int8(1 + checked%7)}
		o := Options{Leaves: leaves, Model: Model(checked % 3), Tau: 2, Racks: 1 << 30}
		checked++
		res, err := in.Infer(&s.Situation, o)
		if err != nil {
			t.Fatalf("situation %d: %v", i, err)
		}
		ref := bruteForce(t, gen, &s.Situation, o)
		if d, at := agree(res, ref); d > 1e-9 {
			t.Fatalf("situation %d (exchange %d, model %v): leave %s: inferred %g, reference %g", i, s.Last.NumTiles, o.Model, at, res.Prob(at), ref[at])
		}
		if checked == 20 {
			break
		}
	}
	if checked < 10 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestInferSampled: past Racks the leaves are drawn, reproducibly, and the
// estimate is near the exact distribution.
func TestInferSampled(t *testing.T) {
	tables, leaves := testSetup(t)
	sits := selfPlaySituations(t, tables, leaves, 4, 5)
	in := New(tables)
	checked := 0
	for i, s := range sits {
		if s.Last.Kind != move.Play || s.Last.NumTiles < 3 {
			continue
		}
		pool, _ := rules.Unseen(&s.Board, s.Rack)
		pool.Sub(s.Last.Used())
		n := countLeaves(&pool, rules.RackSize-int(s.Last.NumTiles))
		if n < 3000 || n > 8000 {
			continue
		}
		exact, err := in.Infer(&s.Situation, Options{Leaves: leaves, Racks: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		o := Options{Leaves: leaves, Racks: int(n) - 1, Seed: 3}
		a, err := in.Infer(&s.Situation, o)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := in.Infer(&s.Situation, o)
		if a.Exact || !reflect.DeepEqual(a, b) {
			t.Fatalf("situation %d: sampled twice: exact %v, same %v", i, a.Exact, reflect.DeepEqual(a, b))
		}
		// Total variation distance between estimate and truth.
		var tv float64
		for _, l := range exact.Leaves {
			tv += math.Abs(l.Prob - a.Prob(l.Leave))
		}
		t.Logf("situation %d: %d leaves, total variation %.3f", i, int(n), tv/2)
		if tv /= 2; tv > 0.3 {
			t.Errorf("situation %d: %d leaves, total variation %.3f from the exact distribution", i, int(n), tv)
		}
		if checked++; checked == 3 {
			break
		}
	}
	if checked == 0 {
		t.Fatal("no situation checked")
	}
}

// TestSample: racks drawn from a result follow it: the leave's frequency
// is its probability, the rack has RackTiles tiles from the unseen ones,
// and the same seed gives the same rack.
func TestSample(t *testing.T) {
	tables, leaves := testSetup(t)
	sits := selfPlaySituations(t, tables, leaves, 1, 9)
	in := New(tables)
	for _, s := range sits[3:6] {
		res, err := in.Infer(&s.Situation, Options{Leaves: leaves})
		if err != nil {
			t.Fatal(err)
		}
		if res.RackTiles != s.Now.Count() {
			t.Errorf("rack tiles %d, really %d", res.RackTiles, s.Now.Count())
		}
		top := res.Leaves[0]
		hits := 0
		const n = 20000
		for seed := range uint64(n) {
			r := res.Sample(seed)
			if r != res.Sample(seed) {
				t.Fatal("same seed, another rack")
			}
			if r.Count() != res.RackTiles || !res.Unseen.Contains(r) {
				t.Fatalf("sampled %s: want %d of the unseen %s", r, res.RackTiles, res.Unseen)
			}
			if r.Contains(top.Leave) {
				hits++
			}
		}
		// Racks holding the top leave: at least its probability.
		if f := float64(hits) / n; f < top.Prob-4*math.Sqrt(top.Prob*(1-top.Prob)/n) {
			t.Errorf("top leave %s (p %.3f) in %.3f of the racks", top.Leave, top.Prob, f)
		}
		var sum float64
		for _, l := range res.Leaves {
			sum += l.Prob
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("probabilities sum to %g", sum)
		}
	}
}

// TestSampleMarginals: over many drawn racks, the share holding each
// letter is the chance Marginals gives it (within 4.5 standard errors),
// for plays, an unseen exchange and a pass.
func TestSampleMarginals(t *testing.T) {
	tables, leaves := testSetup(t)
	sits := selfPlaySituations(t, tables, leaves, 1, 13)
	in := New(tables)
	var pick []Situation
	for _, s := range sits[2:12] {
		pick = append(pick, s.Situation)
	}
	pass := sits[5].Situation
	pass.Board.Apply(pass.Last.Placed())
	pass.Last = move.Move{Kind: move.Pass}
	exch := pass
	exch.Last = move.Move{Kind: move.Exchange, NumTiles: 3}
	pick = append(pick, pass, exch)
	for i, s := range pick {
		res, err := in.Infer(&s, Options{Leaves: leaves, Racks: 3000})
		if err != nil {
			t.Fatalf("situation %d: %v", i, err)
		}
		want := res.Marginals()
		const n = 40000
		var got [rules.RackSlots]int
		for seed := range uint64(n) {
			r := res.Sample(seed)
			for l, c := range r {
				if c > 0 {
					got[l]++
				}
			}
		}
		for l, p := range want {
			f := float64(got[l]) / n
			if se := math.Sqrt(p*(1-p)/n) + 1e-9; math.Abs(f-p) > 4.5*se {
				t.Errorf("situation %d (%s): %s on %.4f of the racks drawn, marginal %.4f", i, s.Last.Notation(), rules.SlotName(l), f, p)
			}
		}
	}
}

// TestRackProb: late in games, where every rack the opponent may hold can
// be listed, RackProb sums to 1 over them, gives the true rack a chance,
// and matches the share of racks Sample draws (within 4.5 standard
// errors) for each rack of 2% or more: for plays, an unseen exchange and
// a pass.
func TestRackProb(t *testing.T) {
	tables, leaves := testSetup(t)
	in := New(tables)
	checked := 0
	for _, s := range selfPlaySituations(t, tables, leaves, 12, 31) {
		unseen, err := rules.Unseen(&s.Board, s.Rack)
		if err != nil {
			t.Fatal(err)
		}
		if s.Last.Kind == move.Play {
			unseen.Sub(s.Last.Used())
		}
		if n := unseen.Count(); n < 8 || n > 12 || s.Now.Count() != rules.RackSize {
			continue
		}
		res, err := in.Infer(&s.Situation, Options{Leaves: leaves})
		if err != nil {
			t.Fatal(err)
		}
		checked++
		sum := 0.0
		probs := map[rules.Rack]float64{}
		forLeaves(&res.Unseen, res.RackTiles, func(r *rules.Rack) {
			p := res.RackProb(*r)
			sum += p
			probs[*r] = p
		})
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: rack probabilities sum to %g", s.Last.Notation(), sum)
		}
		if res.RackProb(s.Now) == 0 {
			t.Errorf("%s: the true rack %s has probability 0", s.Last.Notation(), s.Now)
		}
		const n = 40000
		got := map[rules.Rack]int{}
		for seed := range uint64(n) {
			got[res.Sample(seed)]++
		}
		for r, p := range probs {
			if p < 0.02 {
				continue
			}
			if f := float64(got[r]) / n; math.Abs(f-p) > 4.5*math.Sqrt(p*(1-p)/n) {
				t.Errorf("%s: rack %s drawn %.4f of the time, RackProb %.4f", s.Last.Notation(), r, f, p)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("only %d late situations", checked)
	}
	t.Logf("%d late situations checked", checked)
}

// TestAfter: the board before a play, worked out from the board after it,
// is the board the game had; a pass or an exchange leaves it as it is.
func TestAfter(t *testing.T) {
	tables, leaves := testSetup(t)
	plays := 0
	for _, s := range selfPlaySituations(t, tables, leaves, 2, 41) {
		after := s.Board
		if s.Last.Kind == move.Play {
			after.Apply(s.Last.Placed())
			plays++
		}
		got := After(&after, s.Rack, s.Last)
		if got.Board != s.Board || got.Rack != s.Rack || got.Last != s.Last {
			t.Fatalf("%s: After does not give the situation before the move", s.Last.Notation())
		}
	}
	if plays == 0 {
		t.Fatal("no play in the games")
	}
}

// countdown is a context whose Err reports it cancelled once asked more
// than n times.
type countdown struct {
	context.Context
	n int
}

func (c *countdown) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestInferContext: a context done mid-way stops the inference within 64
// searches of it, with the context's error; one that stays live gives
// Infer's answer.
func TestInferContext(t *testing.T) {
	tables, leaves := testSetup(t)
	sits := selfPlaySituations(t, tables, leaves, 3, 11)
	in := New(tables)
	checked := 0
	for i, s := range sits {
		if s.Last.Kind == move.Pass {
			continue
		}
		o := Options{Leaves: leaves, Racks: 1000}
		want, err := in.Infer(&s.Situation, o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := in.InferContext(context.Background(), &s.Situation, o)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("situation %d: with a live context %v, the same answer %v", i, err, reflect.DeepEqual(got, want))
		}
		if want.Racks <= 128 {
			continue
		}
		// Asked at searches 0, 64 and 128: the third answer stops it.
		res, err := in.InferContext(&countdown{context.Background(), 2}, &s.Situation, o)
		if !errors.Is(err, context.Canceled) || res != nil || !strings.Contains(err.Error(), "stopped after 128 of the racks") {
			t.Fatalf("situation %d (%d racks): cancelled after 128 searches: %v, result %v", i, want.Racks, err, res != nil)
		}
		checked++
	}
	if checked < 5 {
		t.Fatalf("only %d situations checked", checked)
	}
	t.Logf("%d situations stopped", checked)
}
