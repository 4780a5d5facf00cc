package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/infer"
	"scrabble/internal/splitmix"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// TestMeasureInferDecisions measures whether inference makes the sim
// player's choices better against the equity player, decision by decision
// rather than by games won (whose noise hid any difference in 1,858 games:
// docs/benchmarks.md, "Strength: the full player"). On positions of games
// between equity players (the middle game: 5 or more tiles in the bag after
// the opponent's play), the full player's simulation chooses a move without
// inference and with it (softmax, each tau of SIM_INFER_TAUS; "none" is the
// control: without inference again, on other draws). Where the
// choices differ, each is valued by a simulation that knows the opponent's
// true rack (SIM_INFER_TRUTH iterations, every choice on the same draws):
// with the truth known, the better decision rule has the higher mean value
// of its choices over positions drawn from play. Off unless
// SIM_INFER_MEASURE is set:
//
//	SIM_INFER_MEASURE=2000 SIM_INFER_WORKERS=2 SIM_INFER_OUT=runs/infer.jsonl \
//	  go test ./sim -run TestMeasureInferDecisions -v -timeout 3h
func TestMeasureInferDecisions(t *testing.T) {
	want, _ := strconv.Atoi(os.Getenv("SIM_INFER_MEASURE"))
	if want <= 0 {
		t.Skip("SIM_INFER_MEASURE not set")
	}
	workers := envInt(t, "SIM_INFER_WORKERS", 1)
	iterations := envInt(t, "SIM_INFER_ITERATIONS", 256)
	truthIterations := envInt(t, "SIM_INFER_TRUTH", 1000)
	// Each variant: a softmax temperature, or "none" for the control, the
	// simulation without inference again on other draws (the choices
	// that differ by chance alone).
	variants := []string{"2", "0.5", "none"}
	if s := os.Getenv("SIM_INFER_TAUS"); s != "" {
		variants = strings.Split(s, ",")
	}
	taus := make([]float64, len(variants))
	for k, v := range variants {
		switch v {
		case "none":
			continue
		case "truth":
			taus[k] = -1
			continue
		case "kept":
			taus[k] = -2
			continue
		}
		var err error
		if taus[k], err = strconv.ParseFloat(v, 64); err != nil || !(taus[k] > 0) {
			t.Fatalf("SIM_INFER_TAUS: %q: want temperatures, none, kept or truth", v)
		}
	}
	lex := testlex.GADDAG(t, "NWL23")
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	tables := testgen.Tables(lex)
	cases := middleGameCases(t, tables, leaves, want, 4242)

	type outcome struct {
		Case   int       `json:"case"`
		Choice []string  `json:"choice"` // without inference, then each tau
		Win    []float64 `json:"win"`    // each choice's win chance with the truth known
		Equity []float64 `json:"equity"` // and its simulated equity
	}
	out := make([]outcome, len(cases))
	var file *os.File
	if name := os.Getenv("SIM_INFER_OUT"); name != "" {
		if file, err = os.Create(name); err != nil {
			t.Fatal(err)
		}
		defer file.Close()
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sm := NewSimulator(tables)
			inf := infer.New(tables)
			for i := w; i < len(cases); i += workers {
				c := &cases[i]
				opts := DefaultPlayer()
				opts.Leaves, opts.Iterations = leaves, iterations
				opts.Seed = splitmix.Mix(uint64(i) + 0x1F3)
				choose := func(sampler RackSampler, seed uint64, known rules.Rack) move.Move {
					pos := c.pos
					pos.OpponentRacks = sampler
					pos.Opponent = known
					o := opts
					o.Seed = seed
					res, err := sm.Simulate(context.Background(), &pos, o)
					if err != nil {
						panic(fmt.Sprintf("case %d: %v", i, err))
					}
					return res.Candidates[0].Move
				}
				choices := []move.Move{choose(nil, opts.Seed, rules.Rack{})}
				for _, tau := range taus {
					switch {
					case tau == 0:
						choices = append(choices, choose(nil, opts.Seed+1, rules.Rack{}))
						continue
					case tau == -1:
						choices = append(choices, choose(nil, opts.Seed, c.oppRack))
						continue
					case tau == -2:
						choices = append(choices, choose(nil, opts.Seed, c.kept))
						continue
					}
					io := infer.Options{Leaves: leaves, Model: infer.Softmax, Tau: tau, Seed: opts.Seed}
					r, err := inf.Infer(&c.sit, io)
					if err != nil {
						panic(fmt.Sprintf("case %d: %v", i, err))
					}
					choices = append(choices, choose(r, opts.Seed, rules.Rack{}))
				}
				o := outcome{Case: i, Win: make([]float64, len(choices)), Equity: make([]float64, len(choices))}
				for _, m := range choices {
					o.Choice = append(o.Choice, m.NotationOn(&c.pos.Board))
				}
				// The truth: the opponent's rack known, every choice on
				// the same draws (one move alone needs no valuing).
				differ := false
				for _, m := range choices[1:] {
					differ = differ || !move.Same(&m, &choices[0])
				}
				if differ {
					pos := c.pos
					pos.Opponent = c.oppRack
					to := DefaultPlayer()
					to.Leaves, to.Iterations, to.Confidence, to.Candidates = leaves, truthIterations, 0, 1
					to.Add, to.Seed = choices, splitmix.Mix(uint64(i)+0x7A1)
					res, err := sm.Simulate(context.Background(), &pos, to)
					if err != nil {
						panic(fmt.Sprintf("case %d: %v", i, err))
					}
					for k, m := range choices {
						for _, rc := range res.Candidates {
							if move.Same(&rc.Move, &m) {
								o.Win[k], o.Equity[k] = rc.WinProb, rc.Mean
							}
						}
					}
				}
				mu.Lock()
				out[i] = o
				if file != nil {
					b, _ := json.Marshal(o)
					fmt.Fprintf(file, "%s\n", b)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for k, v := range variants {
		var dw, de []float64
		differ := 0
		for _, o := range out {
			if o.Choice[k+1] != o.Choice[0] {
				differ++
			}
			dw = append(dw, 100*(o.Win[k+1]-o.Win[0]))
			de = append(de, o.Equity[k+1]-o.Equity[0])
		}
		mw, hw := meanHalfWidth(dw)
		me, he := meanHalfWidth(de)
		t.Logf("%s: %d positions, %d choices differ; win chance %+.3f points a decision (95%% %+.3f to %+.3f), equity %+.3f (%+.3f to %+.3f)",
			v, len(out), differ, mw, mw-hw, mw+hw, me, me-he, me+he)
	}
}

// inferCase is a position of the middle game after an equity player's move,
// with what the player to move knows and the truth.
type inferCase struct {
	pos     Position
	sit     infer.Situation
	oppRack rules.Rack // the opponent's rack now
	kept    rules.Rack // the tiles they kept from their last move
}

// middleGameCases plays games between equity players from seed until it has
// n positions where the opponent has just moved and 5 or more tiles remain
// in the bag.
func middleGameCases(t *testing.T, tables *movegen.Tables, leaves movegen.LeaveValuer, n int, seed uint64) []inferCase {
	var out []inferCase
	tab := game.NewTable(tables)
	for g := 0; len(out) < n; g++ {
		players := [2]game.Player{game.NewEquityPlayer(leaves, eval.Terms{}), game.NewEquityPlayer(leaves, eval.Terms{})}
		rec, err := tab.Play(context.Background(), players, seed+uint64(g), g%2)
		if err != nil {
			t.Fatal(err)
		}
		var b rules.Board
		bag := rules.TileCount() - 2*rules.RackSize
		scoreless := 0
		for i, tu := range rec.Turns {
			before := b
			if tu.Move.Kind == move.Play {
				b.Apply(tu.Move.Placed())
			}
			bag -= tu.Drawn.Count()
			if tu.Move.Kind == move.Exchange {
				bag += int(tu.Move.NumTiles)
			}
			if tu.Score == 0 {
				scoreless++
			} else {
				scoreless = 0
			}
			if i+1 >= len(rec.Turns) || bag < 5 || tu.Withdrawn || tu.Move.Kind == move.Pass || len(out) == n {
				continue
			}
			next := rec.Turns[i+1]
			last := tu.Move
			if last.Kind == move.Exchange {
				last.Len = 0 // not seen by the player to move
			}
			now := tu.Move.Leave(tu.Rack)
			for l, k := range tu.Drawn {
				now[l] += k
			}
			c := inferCase{sit: infer.Situation{Board: before, Rack: next.Rack, Last: last}, oppRack: now, kept: tu.Move.Leave(tu.Rack)}
			c.pos = Position{Board: b, Rack: next.Rack, Scoreless: scoreless}
			c.pos.Scores[0], c.pos.Scores[1] = tu.Totals[next.Player], tu.Totals[tu.Player]
			out = append(out, c)
		}
	}
	return out
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		t.Fatalf("%s=%q: want a positive number", name, s)
	}
	return v
}

// meanHalfWidth is the mean of xs and the half-width of its 95% interval.
func meanHalfWidth(xs []float64) (mean, half float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	if len(xs) > 1 {
		half = 1.96 * math.Sqrt(ss/float64(len(xs)-1)/float64(len(xs)))
	}
	return mean, half
}
