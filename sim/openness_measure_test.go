package sim

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// openPosition is a position of a game between equity players, seen by the
// player to move: the tiles they cannot see, their lead, the game's final
// spread for them, and the board's potential (potentialRacks racks drawn
// from the unseen tiles, the mean score of the best play of each).
type openPosition struct {
	game, unseen, lead, final int
	potential                 float64
}

const potentialRacks = 8

// TestMeasureOpenness asks whether the rollouts' leaf value misses how open
// the board is. The win table values a leaf by the lead and the tiles
// unseen alone; if a board's openness also told how far the game's result
// may still move from the lead, a leaf value knowing it would rank
// candidates that open or close the board differently. On every position
// of OPEN_MEASURE games between equity players (NWL23), the board's
// potential is measured, and in each band of unseen tiles the result less
// the lead is modelled as normal, its mean and deviation either constant
// or linear in the potential (fitted on the even games). The log-likelihood
// of who won in the odd games says how much the potential adds. Off unless
// OPEN_MEASURE is set:
//
//	OPEN_MEASURE=3000 go test ./sim -run TestMeasureOpenness -v -timeout 1h
func TestMeasureOpenness(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("OPEN_MEASURE"))
	if games <= 0 {
		t.Skip("OPEN_MEASURE not set")
	}
	lex := testlex.GADDAG(t, "NWL23")
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	ps := openPositions(t, testgen.Tables(lex), leaves, games)
	t.Logf("%d games, %d positions", games, len(ps))
	t.Logf("unseen | positions | deviation: constant, at potential 20, at 50 | log-likelihood a position: lead alone, with potential")
	var base, with float64
	var n int
	for lo := 7; lo < 93; lo += 6 {
		var train, test []openPosition
		for _, p := range ps {
			switch {
			case p.unseen < lo || p.unseen >= lo+6:
			case p.game%2 == 0:
				train = append(train, p)
			default:
				test = append(test, p)
			}
		}
		if len(train) < 200 || len(test) < 200 {
			continue
		}
		m := fitOpenness(train)
		b, w := m.logLikelihood(test)
		t.Logf("%2d-%2d | %5d | %5.1f %5.1f %5.1f | %.4f %.4f", lo, lo+5, len(test), m.sd0, m.sdAt(20), m.sdAt(50), b/float64(len(test)), w/float64(len(test)))
		base, with, n = base+b, with+w, n+len(test)
	}
	t.Logf("all bands: %.4f %.4f a position (%d)", base/float64(n), with/float64(n), n)
}

// openPositions plays games between equity players and returns every
// position with tiles in the bag, from the player to move's side.
func openPositions(t *testing.T, tables *movegen.Tables, leaves movegen.LeaveValuer, games int) []openPosition {
	tab := game.NewTable(tables)
	gen := movegen.New(tables)
	rng := rand.New(rand.NewPCG(1, 2))
	var out []openPosition
	for g := range games {
		players := [2]game.Player{game.NewEquityPlayer(leaves, eval.Terms{}), game.NewEquityPlayer(leaves, eval.Terms{})}
		rec, err := tab.Play(context.Background(), players, 777+uint64(g), g%2)
		if err != nil {
			t.Fatal(err)
		}
		var b rules.Board
		bag := rules.TileCount() - 2*rules.RackSize
		for i, tu := range rec.Turns {
			if tu.Move.Kind == move.Play {
				b.Apply(tu.Move.Placed())
			}
			bag -= tu.Drawn.Count()
			if tu.Move.Kind == move.Exchange {
				bag += int(tu.Move.NumTiles)
			}
			if i+1 >= len(rec.Turns) || bag < 1 {
				continue
			}
			next := rec.Turns[i+1]
			mover := next.Player
			unseen, err := rules.Unseen(&b, next.Rack)
			if err != nil {
				t.Fatal(err)
			}
			pool := unseen.Tiles()
			gen.SetBoard(&b)
			gen.SetLeaves(nil)
			sum := 0
			for range potentialRacks {
				rng.Shuffle(len(pool), func(a, c int) { pool[a], pool[c] = pool[c], pool[a] })
				var r rules.Rack
				for _, l := range pool[:min(rules.RackSize, len(pool))] {
					r.Add(l)
				}
				gen.ForgetRacks()
				m, _ := gen.Best(&r, bag, movegen.Options{Pass: true})
				sum += int(m.Score)
			}
			out = append(out, openPosition{
				game: g, unseen: unseen.Count(),
				lead:      tu.Totals[mover] - tu.Totals[1-mover],
				final:     rec.Scores[mover] - rec.Scores[1-mover],
				potential: float64(sum) / potentialRacks,
			})
		}
	}
	return out
}

// opennessModel: the result less the lead is normal with mean mu0 and
// deviation sd0, or with mean a+b*potential and deviation c+d*potential.
type opennessModel struct {
	mu0, sd0, a, b, c, d float64
}

func (m opennessModel) sdAt(potential float64) float64 { return m.c + m.d*potential }

// fitOpenness fits both models by least squares: the mean, then the
// deviation from the mean absolute residual (sqrt(pi/2) times it).
func fitOpenness(ps []openPosition) opennessModel {
	xs := make([]float64, len(ps))
	ys := make([]float64, len(ps))
	for i, p := range ps {
		xs[i], ys[i] = p.potential, float64(p.final-p.lead)
	}
	var m opennessModel
	m.mu0 = mean(ys)
	for _, y := range ys {
		m.sd0 += (y - m.mu0) * (y - m.mu0)
	}
	m.sd0 = math.Sqrt(m.sd0 / float64(len(ys)))
	m.a, m.b = lineFit(xs, ys)
	abs := make([]float64, len(ps))
	for i := range ps {
		abs[i] = math.Abs(ys[i] - (m.a + m.b*xs[i]))
	}
	m.c, m.d = lineFit(xs, abs)
	m.c, m.d = m.c*math.Sqrt(math.Pi/2), m.d*math.Sqrt(math.Pi/2)
	return m
}

// logLikelihood is the sum over ps of the log chance each model gave the
// mover's result (a win, a loss; a draw half of each).
func (m opennessModel) logLikelihood(ps []openPosition) (base, with float64) {
	ll := func(p float64, y float64) float64 {
		p = min(max(p, 1e-4), 1-1e-4)
		return y*math.Log(p) + (1-y)*math.Log(1-p)
	}
	for _, p := range ps {
		y := 0.5 // a draw
		switch {
		case p.final > 0:
			y = 1
		case p.final < 0:
			y = 0
		}
		lead := float64(p.lead)
		base += ll(normalCDF((lead+m.mu0)/m.sd0), y)
		with += ll(normalCDF((lead+m.a+m.b*p.potential)/max(5, m.sdAt(p.potential))), y)
	}
	return base, with
}

func normalCDF(x float64) float64 { return 0.5 * (1 + math.Erf(x/math.Sqrt2)) }

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// lineFit is the least-squares line y = a + b*x.
func lineFit(xs, ys []float64) (a, b float64) {
	mx, my := mean(xs), mean(ys)
	var sxx, sxy float64
	for i := range xs {
		sxx += (xs[i] - mx) * (xs[i] - mx)
		sxy += (xs[i] - mx) * (ys[i] - my)
	}
	return my - sxy/sxx*mx, sxy / sxx
}
