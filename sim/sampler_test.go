package sim

import (
	"context"
	"reflect"
	"testing"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/infer"
	"scrabble/internal/gametest"
	"scrabble/internal/splitmix"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/movegen"
	"scrabble/rules"
)

// listSampler draws one of its racks by the seed.
type listSampler []rules.Rack

func (l listSampler) SampleRack(seed uint64) rules.Rack { return l[splitmix.Mix(seed)%uint64(len(l))] }

// TestSampledOpponent: with a rack sampler every iteration's opponent holds
// the rack it draws for the iteration's seed and the bag is the rest of the
// unseen tiles; the results are the same for any thread count; a sampler
// that draws racks that do not fit is an error.
func TestSampledOpponent(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	pos := *midgame(t)
	unseen, err := rules.Unseen(&pos.Board, pos.Rack)
	if err != nil {
		t.Fatal(err)
	}
	var racks listSampler
	for i := range 5 {
		// Seven tiles of the unseen ones, a different start each time.
		tiles := unseen.Tiles()
		var r rules.Rack
		for j := range rules.RackSize {
			r.Add(tiles[(i*11+j*3)%len(tiles)])
		}
		if r.Count() == rules.RackSize && unseen.Contains(r) {
			racks = append(racks, r)
		}
	}
	if len(racks) < 2 {
		t.Fatal("no racks to sample")
	}
	pos.OpponentRacks = racks
	s := NewSimulator(testgen.Tables(lex))
	opts := Options{Leaves: leaves, Candidates: 4, Iterations: 20, Seed: 3}
	r, _, err := s.prepare(&pos, &opts)
	if err != nil {
		t.Fatal(err)
	}
	w := &simWorker{gen: movegen.New(testgen.Tables(lex))}
	w.reset(r)
	for i := range 20 {
		w.iterate(r, i)
		if want := racks.SampleRack(iterSeed(opts.Seed, i)); w.opps[1] != want {
			t.Fatalf("iteration %d: opponent %s, sampler %s", i, w.opps[1], want)
		}
		all := w.opps[1]
		for _, l := range w.bagBase {
			all.Add(l)
		}
		if all != unseen || len(w.bagBase) != unseen.Count()-rules.RackSize {
			t.Fatalf("iteration %d: rack and bag hold %s, want the unseen %s", i, all, unseen)
		}
	}
	run := func(threads int) Result {
		o := opts
		o.Threads = threads
		res, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), &pos, o)
		if err != nil {
			t.Fatal(err)
		}
		return untimedSim(res)
	}
	if a, b := run(1), run(2); !reflect.DeepEqual(a, b) {
		t.Errorf("1 and 2 threads differ:\n%+v\n%+v", a.Candidates[:2], b.Candidates[:2])
	}
	bad := pos
	bad.OpponentRacks = listSampler{{1: 7}} // seven As: fewer are unseen
	if _, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), &bad, opts); err == nil {
		t.Error("a sampler drawing seven As: no error")
	}
}

// TestInferPlayer: the sim player with inference plays legal games, the
// same for a seed.
func TestInferPlayer(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	tables := testgen.Tables(lex)
	rp := gametest.NewReplayer(t, tables)
	play := func(seed uint64) *game.Record {
		p1, err := NewInferPlayer(Options{Leaves: leaves, Candidates: 4, Iterations: 8}, inferOptions())
		if err != nil {
			t.Fatal(err)
		}
		p2, _ := NewPlayer(Options{Leaves: leaves, Candidates: 4, Iterations: 8})
		rec, err := game.Play(context.Background(), tables, [2]game.Player{p1, p2}, seed, int(seed%2))
		if err != nil {
			t.Fatal(err)
		}
		rp.Check("game", rec)
		return rec
	}
	for seed := range uint64(2) {
		if a, b := play(seed), play(seed); !reflect.DeepEqual(a, b) {
			t.Errorf("seed %d: two games differ", seed)
		}
	}
}

func inferOptions() infer.Options { return infer.Options{Racks: 500} }
