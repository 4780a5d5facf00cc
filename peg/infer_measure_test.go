package peg_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"scrabble/endgame"
	"scrabble/eval"
	"scrabble/game"
	"scrabble/infer"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/peg"
	"scrabble/position"
	"scrabble/rules"
)

// oneTileCase is a one-tile pre-endgame from a game between equity
// players, with what the player to move knows of the opponent's last move
// and the truth: the tile really in the bag.
type oneTileCase struct {
	pos     position.Position
	sit     infer.Situation
	bagTile rules.Letter
	opp     rules.Rack // the opponent's true rack
}

// oneTileCases plays games between equity players and keeps every turn
// taken with seven tiles and one in the bag, right after the opponent's
// play.
func oneTileCases(t *testing.T, tables *movegen.Tables, leaves movegen.LeaveValuer, want int, seed uint64) []oneTileCase {
	t.Helper()
	var out []oneTileCase
	tab := game.NewTable(tables)
	for g := uint64(0); len(out) < want; g++ {
		players := [2]game.Player{game.NewEquityPlayer(leaves, eval.Terms{}), game.NewEquityPlayer(leaves, eval.Terms{})}
		rec, err := tab.Play(context.Background(), players, seed+g, int(g%2))
		if err != nil {
			t.Fatal(err)
		}
		var b rules.Board
		var totals [rules.MaxPlayers]int
		zero := 0
		for i, tu := range rec.Turns {
			before := b
			if tu.Move.Kind == move.Play && !tu.Withdrawn {
				b.Apply(tu.Move.Placed())
			}
			totals = tu.Totals
			if tu.Score == 0 {
				zero++
			} else {
				zero = 0
			}
			if i+1 == len(rec.Turns) || tu.Move.Kind != move.Play || tu.Withdrawn {
				continue
			}
			next := rec.Turns[i+1]
			unseen, err := rules.Unseen(&b, next.Rack)
			if err != nil || next.Rack.Count() != rules.RackSize || unseen.Count() != rules.RackSize+1 {
				continue
			}
			opp := tu.Move.Leave(tu.Rack)
			for l, n := range tu.Drawn {
				opp[l] += n
			}
			bag := unseen
			bag.Sub(opp)
			tile := rules.Blank
			for slot, n := range bag {
				if n > 0 && slot > 0 {
					tile = rules.Letter(slot)
				}
			}
			me := next.Player
			pos := position.Position{Board: b, Racks: [rules.MaxPlayers]rules.Rack{next.Rack}, Scores: [rules.MaxPlayers]int{totals[me], totals[1-me]}, ZeroTurns: zero}
			out = append(out, oneTileCase{pos: pos, sit: infer.Situation{Board: before, Rack: next.Rack, Last: tu.Move}, bagTile: tile, opp: opp})
			if len(out) == want {
				break
			}
		}
	}
	return out
}

// TestMeasureInferPEG measures whether weighting a one-tile pre-endgame's
// draws by what the opponent's last play says they kept
// (Options.OppRackProb from infer) makes better decisions than weighting
// every bag tile by its count. On one-tile positions from games between
// equity players, the solve chooses a move both ways within a player's
// budget; where the choices differ, the truth (the opponent's rack and the
// tile really in the bag) decides each choice's result: the exact endgame
// after it, the bag tile drawn. PEG_INFER_CONTROL makes the second solve
// uniform too: how often the clock alone changes the choice. Positions either solve does
// value within PEG_INFER_TIME (seconds, default 6), or whose truth the
// endgame does not prove within four times that, are left out. Off unless
// PEG_INFER_MEASURE is set:
//
//	PEG_INFER_MEASURE=400 PEG_INFER_WORKERS=2 PEG_INFER_OUT=runs/peginfer.jsonl \
//	  go test ./peg -run TestMeasureInferPEG -v -timeout 3h
func TestMeasureInferPEG(t *testing.T) {
	want, _ := strconv.Atoi(os.Getenv("PEG_INFER_MEASURE"))
	if want <= 0 {
		t.Skip("PEG_INFER_MEASURE not set")
	}
	workers := max(1, atoiEnv("PEG_INFER_WORKERS", 1))
	limit := time.Duration(atoiEnv("PEG_INFER_TIME", 6)) * time.Second
	tau, _ := strconv.ParseFloat(os.Getenv("PEG_INFER_TAU"), 64)
	// The control: the second solve uniform too, so that only the clock
	// (a solve stopped by it is not reproducible) makes the choices differ.
	control := os.Getenv("PEG_INFER_CONTROL") != ""
	lex := testlex.GADDAG(t, "NWL23")
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	tables := testgen.Tables(lex)
	cases := oneTileCases(t, tables, leaves, want, 9090)

	type outcome struct {
		Case     int       `json:"case"`
		Tile     string    `json:"tile"`
		Choice   [2]string `json:"choice"` // uniform, inferred
		Win      [2]float64
		Spread   [2]int
		Skipped  string     `json:"skipped,omitempty"`
		Differ   bool       `json:"differ"`
		WinPct   [2]float64 `json:"win_pct"` // as each solve saw its choice
		Proven   [2]bool    `json:"proven"`
		Seconds  [2]float64 `json:"seconds"`
		LeaveTop string     `json:"leave_top"`
	}
	out := make([]outcome, len(cases))
	var mu sync.Mutex
	var enc *json.Encoder
	if p := os.Getenv("PEG_INFER_OUT"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		enc = json.NewEncoder(f)
	}
	next := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := infer.New(tables)
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(cases) {
					return
				}
				c := &cases[i]
				o := outcome{Case: i, Tile: tileName(c.bagTile)}
				res, err := in.Infer(&c.sit, infer.Options{Leaves: leaves, Tau: tau})
				if err != nil {
					o.Skipped = "infer: " + err.Error()
				} else {
					if len(res.Leaves) > 0 {
						o.LeaveTop = res.Leaves[0].Leave.String()
					}
					var choice [2]move.Move
					second := res.RackProb
					if control {
						second = nil
					}
					for k, w := range []func(rules.Rack) float64{nil, second} {
						ctx, cancel := context.WithTimeout(context.Background(), limit)
						r, err := peg.Solve(ctx, tables, &c.pos, peg.Options{Top: 1, TTMB: 64, OppRackProb: w})
						cancel()
						switch {
						case err != nil:
							o.Skipped = err.Error()
						case len(r.Candidates) == 0:
							o.Skipped = fmt.Sprintf("nothing valued within %v", limit)
						}
						if o.Skipped != "" {
							break
						}
						b := r.Candidates[0]
						choice[k] = b.Move
						o.Choice[k], o.WinPct[k], o.Proven[k], o.Seconds[k] = b.Notation, b.WinPct, r.Proven, r.Elapsed.Seconds()
					}
					o.Differ = o.Skipped == "" && o.Choice[0] != o.Choice[1]
					// The truth values the choices: the endgame after each
					// with the true bag tile and the opponent's true rack.
					for k := 0; o.Differ && k < 2 && o.Skipped == ""; k++ {
						pos := c.pos
						pos.Racks[1] = c.opp
						ctx, cancel := context.WithTimeout(context.Background(), 4*limit)
						r, err := endgame.Solve(ctx, tables, &pos, endgame.Options{TTMB: 64, Bag: []rules.Letter{c.bagTile}, Restrict: []move.Move{choice[k]}})
						cancel()
						switch {
						case err != nil:
							o.Skipped = "truth: " + err.Error()
						case !r.Proven:
							o.Skipped = "truth not proven"
						default:
							final := c.pos.Scores[0] - c.pos.Scores[1] + r.Value
							o.Spread[k] = final
							o.Win[k] = map[bool]float64{true: 1}[final > 0] + map[bool]float64{true: 0.5}[final == 0]
						}
					}
				}
				mu.Lock()
				out[i] = o
				if enc != nil {
					enc.Encode(o)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	var dWin, dSpread []float64
	differ, skipped := 0, 0
	for _, o := range out {
		if o.Skipped != "" {
			skipped++
			continue
		}
		dWin = append(dWin, o.Win[1]-o.Win[0])
		dSpread = append(dSpread, float64(o.Spread[1]-o.Spread[0]))
		if o.Differ {
			differ++
		}
	}
	m, h := meanCI(dWin)
	ms, hs := meanCI(dSpread)
	t.Logf("%d one-tile positions, %d skipped; the choices differ in %d", len(out), skipped, differ)
	t.Logf("inferred weights less uniform, a decision with the truth known: win %+.4f (%+.4f to %+.4f), spread %+.3f (%+.3f to %+.3f)", m, m-h, m+h, ms, ms-hs, ms+hs)
}

func meanCI(x []float64) (mean, half float64) {
	if len(x) < 2 {
		return 0, 0
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, 1.96 * math.Sqrt(ss/float64(len(x)-1)/float64(len(x)))
}

func atoiEnv(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

func tileName(l rules.Letter) string {
	var r rules.Rack
	r.Add(l)
	return r.String()
}
