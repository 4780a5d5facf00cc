package infer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"scrabble/eval"
	"scrabble/internal/splitmix"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// Model is how the likelihood of the play made depends on the gap between
// its equity and the best equity of a rack.
type Model uint8

const (
	// Softmax weighs a rack by exp(-gap/Tau): every rack keeps some
	// weight, the more the closer the play made is to its best.
	Softmax Model = iota
	// Margin weighs a rack 1 when the play made is within Margin points
	// of its best, Floor otherwise.
	Margin
	// Uniform ignores the play: the leave is weighed by how likely it was
	// drawn alone (the baseline inference is measured against).
	Uniform
)

// String names the model as the command line writes it.
func (m Model) String() string {
	switch m {
	case Softmax:
		return "softmax"
	case Margin:
		return "margin"
	case Uniform:
		return "uniform"
	}
	return fmt.Sprintf("Model(%d)", uint8(m))
}

// ParseModel reads a model's name ("softmax", "margin" or "uniform").
func ParseModel(s string) (Model, error) {
	for _, m := range []Model{Softmax, Margin, Uniform} {
		if strings.EqualFold(s, m.String()) {
			return m, nil
		}
	}
	return 0, fmt.Errorf("inference model %q: want softmax, margin or uniform", s)
}

// Defaults (docs/benchmarks.md: "Inference" has the measurement behind
// them).
const (
	DefaultTau    = 2.0 // points
	DefaultMargin = 2.0 // points
	DefaultFloor  = 0.01
	// DefaultRacks is how many leaves are valued: a position with more
	// possible leaves values this many drawn at random instead.
	DefaultRacks = 20000
)

// Options configures an inference. The zero value of each field is its
// default.
type Options struct {
	// Leaves values the tiles kept, as the opponent is assumed to (nil:
	// every leave is worth 0): the engine's own values.
	Leaves movegen.LeaveValuer
	Model  Model
	// Tau is the softmax temperature in points (Softmax).
	Tau float64
	// Margin, in points, and Floor, the weight of a rack whose best play
	// is more than Margin better than the play made (Margin). A margin of
	// 0 is the default; ask for a tiny one (1e-12) to keep only racks
	// whose best the move made equals.
	Margin, Floor float64
	// Racks caps the racks valued (one move search each): when more
	// leaves are possible, Racks are drawn from their prior (by Seed) and
	// the result is an estimate (Result.Exact false).
	Racks int
	Seed  uint64
}

func (o *Options) fill() error {
	if o.Tau == 0 {
		o.Tau = DefaultTau
	}
	if o.Margin == 0 {
		o.Margin = DefaultMargin
	}
	if o.Floor == 0 {
		o.Floor = DefaultFloor
	}
	if o.Racks == 0 {
		o.Racks = DefaultRacks
	}
	switch {
	case o.Model > Uniform:
		return fmt.Errorf("infer: unknown model %d", o.Model)
	case !(o.Tau > 0) || math.IsInf(o.Tau, 0):
		return fmt.Errorf("infer: temperature %g: want a positive number of points", o.Tau)
	case !(o.Margin >= 0) || math.IsInf(o.Margin, 0):
		return fmt.Errorf("infer: margin %g: want 0 or more points", o.Margin)
	case !(o.Floor > 0 && o.Floor <= 1):
		return fmt.Errorf("infer: floor %g: want more than 0 and at most 1", o.Floor)
	case o.Racks < 1:
		return fmt.Errorf("infer: %d racks: want at least 1", o.Racks)
	}
	return nil
}

// Situation is what the player to move knows of the opponent's last move.
type Situation struct {
	// Board is the board before the opponent's move.
	Board rules.Board
	// Rack is the player to move's rack (the same before and after the
	// opponent's move).
	Rack rules.Rack
	// Last is the opponent's move on Board: a play, an exchange or a pass.
	// An exchange whose tiles were not seen has Len 0 and NumTiles the
	// number exchanged; one whose tiles are known lists them, as Parse does.
	Last move.Move
	// Known are tiles known to be on the opponent's rack now, apart from
	// what the move says, such as a play challenged off (then Last is a
	// pass): no inference is made about the rest.
	Known rules.Rack
}

// Leave is one leave the opponent may have kept, with its probability.
type Leave struct {
	Leave rules.Rack
	Prob  float64
}

// Result is the inferred distribution of the tiles the opponent kept.
type Result struct {
	// Leaves are the leaves they may have kept, most likely first (ties
	// alphabetically), probabilities summing to 1; empty when Uniform.
	Leaves []Leave
	// Uniform says the move told nothing (a pass, a model ignoring it):
	// the rack is Known plus tiles drawn at random from the unseen ones.
	Uniform bool
	// Known tiles are on the rack in every case (Uniform only).
	Known rules.Rack
	// Exact says every possible leave was valued; otherwise Racks of them
	// were drawn from their prior and the probabilities are estimates.
	Exact bool
	// Racks is how many racks were valued (move searches).
	Racks int
	// Unseen are the tiles the player to move cannot see now: the bag
	// and the opponent's rack.
	Unseen rules.Rack
	// LeaveTiles is the size of a leave; RackTiles the tiles on the
	// opponent's rack now (the leave and what they drew after).
	LeaveTiles, RackTiles int
	// Model is the model used.
	Model Model

	cum []float64 // running sums of the leaves' probabilities, for Sample
}

// Inferer infers racks over one lexicon. It keeps a move generator
// between runs; it is not safe for concurrent use.
type Inferer struct {
	gen *movegen.Generator
}

// stopped says whether ctx is done, asked every 64 move searches (a search
// takes tens of microseconds).
func stopped(ctx context.Context, searches int) bool {
	return searches&63 == 0 && ctx.Err() != nil
}

// New returns an inferer on the tables' lexicon.
func New(t *movegen.Tables) *Inferer { return &Inferer{gen: movegen.New(t)} }

// Infer works out what the opponent kept after the move of s.
func (in *Inferer) Infer(s *Situation, opts Options) (*Result, error) {
	return in.InferContext(context.Background(), s, opts)
}

// InferContext is Infer stopped when ctx is done (a server's time limit):
// it then returns ctx's error, wrapped. The inference makes up to
// Options.Racks move searches, about a second's work at the default cap.
func (in *Inferer) InferContext(ctx context.Context, s *Situation, opts Options) (*Result, error) {
	if err := opts.fill(); err != nil {
		return nil, err
	}
	p, err := prepare(s)
	if err != nil {
		return nil, err
	}
	res := &Result{Unseen: p.unseen, LeaveTiles: p.k, RackTiles: p.rackTiles, Model: opts.Model, Exact: true}
	if p.uniform {
		res.Uniform, res.Known = true, s.Known
		return res, nil
	}
	var w weights
	if s.Last.Kind == move.Exchange && !p.exchangeKnown {
		w, res.Exact, res.Racks = in.exchange(ctx, s, p, &opts)
	} else {
		w, res.Exact, res.Racks = in.play(ctx, s, p, &opts)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("infer: stopped after %d of the racks: %w", res.Racks, err)
	}
	res.Leaves = w.distribution()
	if len(res.Leaves) == 0 {
		return nil, errors.New("infer: no leave has any weight")
	}
	res.cum = make([]float64, len(res.Leaves))
	sum := 0.0
	for i, l := range res.Leaves {
		sum += l.Prob
		res.cum[i] = sum
	}
	return res, nil
}

// prepared is a situation's counts.
type prepared struct {
	before        rules.Rack // unseen before the move: where their rack came from
	used          rules.Rack // the tiles the move took off their rack (known ones)
	pool          rules.Rack // what a leave is drawn from: before less used
	unseen        rules.Rack // unseen now
	k             int        // leave size
	rackTiles     int        // their rack now
	bagBefore     int
	score         int
	uniform       bool
	exchangeKnown bool
}

func prepare(s *Situation) (*prepared, error) {
	if n := s.Rack.Count(); n > rules.RackSize {
		return nil, fmt.Errorf("infer: rack %s has %d tiles: want at most %d", s.Rack, n, rules.RackSize)
	}
	before, err := rules.Unseen(&s.Board, s.Rack)
	if err != nil {
		return nil, fmt.Errorf("infer: rack %s does not fit the board: %w", s.Rack, err)
	}
	p := &prepared{before: before}
	m := &s.Last
	switch m.Kind {
	case move.Play:
		pl := m.PlacedView()
		if err := s.Board.CheckPlacement(pl); err != nil {
			return nil, fmt.Errorf("infer: last move %s: %w", m.NotationOn(&s.Board), err)
		}
		p.score = s.Board.ScorePlay(pl)
		p.used = m.Used()
	case move.Exchange:
		if m.NumTiles < 1 || m.NumTiles > rules.RackSize {
			return nil, fmt.Errorf("infer: exchange of %d tiles: want 1 to %d", m.NumTiles, rules.RackSize)
		}
		if m.Len > 0 {
			if int(m.Len) != int(m.NumTiles) {
				return nil, fmt.Errorf("infer: exchange of %d tiles lists %d", m.NumTiles, m.Len)
			}
			p.used, p.exchangeKnown = m.Used(), true
		}
	case move.Pass:
	default:
		return nil, fmt.Errorf("infer: last move of kind %d", m.Kind)
	}
	if !before.Contains(p.used) {
		return nil, fmt.Errorf("infer: last move %s uses tiles the board and rack %s leave unseen only %s of", m.NotationOn(&s.Board), s.Rack, before)
	}
	p.pool = before
	p.pool.Sub(p.used)
	nUsed := int(m.NumTiles)
	if m.Kind == move.Pass {
		nUsed = 0
	}
	// An exchange's tiles are back in the bag: the unseen tiles are as
	// they were. A play's are on the board.
	p.unseen = before
	if m.Kind == move.Play {
		p.unseen.Sub(p.used)
	}
	// Their rack was full unless the bag was empty, and then it was every
	// unseen tile but the ones they played.
	p.k = min(rules.RackSize-nUsed, p.pool.Count())
	if m.Kind == move.Exchange {
		p.k = rules.RackSize - nUsed
		if !rules.CanExchange(before.Count() - rules.RackSize) {
			return nil, fmt.Errorf("infer: an exchange with %d tiles in the bag: the rules want %d", max(0, before.Count()-rules.RackSize), rules.ExchangeMinBag)
		}
	}
	if !p.pool.Contains(s.Known) {
		return nil, fmt.Errorf("infer: known tiles %s are not among the unseen %s", s.Known, p.pool)
	}
	p.bagBefore = before.Count() - p.k - nUsed
	p.rackTiles = min(rules.RackSize, p.unseen.Count())
	if p.bagBefore < 0 {
		return nil, fmt.Errorf("infer: %d unseen tiles before the move cannot hold a rack that played %d", before.Count(), nUsed)
	}
	if m.Kind == move.Play {
		p.rackTiles = p.k + min(nUsed, p.bagBefore)
	}
	p.uniform = m.Kind == move.Pass
	if s.Known.Count() > 0 && !p.uniform {
		return nil, errors.New("infer: known tiles go with a pass (a play challenged off) only")
	}
	return p, nil
}

// weights maps leaves to unnormalised posterior weights, in insertion order.
type weights struct {
	leaves []rules.Rack
	w      []float64
	at     map[rules.Rack]int
}

func (w *weights) add(l rules.Rack, x float64) {
	if w.at == nil {
		w.at = make(map[rules.Rack]int)
	}
	if i, ok := w.at[l]; ok {
		w.w[i] += x
		return
	}
	w.at[l] = len(w.leaves)
	w.leaves = append(w.leaves, l)
	w.w = append(w.w, x)
}

// distribution normalises the weights and sorts them.
func (w *weights) distribution() []Leave {
	var total float64
	for _, x := range w.w {
		total += x
	}
	if !(total > 0) {
		return nil
	}
	out := make([]Leave, 0, len(w.leaves))
	for i, l := range w.leaves {
		if w.w[i] > 0 {
			out = append(out, Leave{Leave: l, Prob: w.w[i] / total})
		}
	}
	slices.SortFunc(out, func(a, b Leave) int {
		switch {
		case a.Prob > b.Prob:
			return -1
		case a.Prob < b.Prob:
			return 1
		}
		return strings.Compare(a.Leave.String(), b.Leave.String())
	})
	return out
}

// like is the model's weight of a rack whose best move beats the one made
// by gap millipoints.
func like(o *Options, gap rules.Equity) float64 {
	g := max(0, gap.Points())
	switch o.Model {
	case Softmax:
		return math.Exp(-g / o.Tau)
	case Margin:
		if g <= o.Margin+1e-9 {
			return 1
		}
		return o.Floor
	}
	return 1
}

// valuer is the opponent's equity before their move.
func (p *prepared) valuer(s *Situation, o *Options) movegen.LeaveValuer {
	return eval.Equity(o.Leaves, p.bagBefore, s.Rack)
}

// play infers the leave of a play, or of an exchange whose tiles are known:
// every leave (or Racks drawn ones), weighed by its prior and by how close
// the move's equity is to the best of the rack it leaves.
func (in *Inferer) play(ctx context.Context, s *Situation, p *prepared, o *Options) (weights, bool, int) {
	var w weights
	g := in.gen
	g.SetBoard(&s.Board)
	val := p.valuer(s, o)
	g.SetLeaves(val)
	searches := 0
	value := func(l rules.Rack) float64 {
		if o.Model == Uniform {
			return 1
		}
		r := l
		for i, n := range p.used {
			r[i] += n
		}
		if stopped(ctx, searches) {
			return 0
		}
		best, _ := g.Best(&r, p.bagBefore, movegen.Options{Exchanges: true, Pass: true})
		searches++
		// The move's equity as the generator values it (an exchange
		// scores 0).
		made := rules.FromPoints(p.score) + val.LeaveValue(&l)
		return like(o, best.Equity-made)
	}
	n := countLeaves(&p.pool, p.k)
	if n == 1 {
		// One leave is possible (their rack was every unseen tile): no
		// search needed.
		forLeaves(&p.pool, p.k, func(l *rules.Rack) { w.add(*l, 1) })
		return w, true, 0
	}
	if n <= float64(o.Racks) {
		forLeaves(&p.pool, p.k, func(l *rules.Rack) {
			if x := prior(&p.before, &p.used, l); x > 0 {
				w.add(*l, x*value(*l))
			}
		})
		return w, true, searches
	}
	// Too many: the leaves Racks draws from the pool come to, each weighed
	// exactly as above. The likely ones are drawn, so what is missed
	// weighs little (counting the draws instead is far noisier).
	rng := rand.New(rand.NewPCG(o.Seed, 0x1AFE_4E_1EAF))
	seen := map[rules.Rack]bool{}
	for range o.Racks {
		l := drawTiles(rng, p.pool, p.k)
		if !seen[l] {
			seen[l] = true
			w.add(l, prior(&p.before, &p.used, &l)*value(l))
		}
	}
	return w, false, searches
}

// exchange infers the leave of an exchange of tiles not seen: every rack
// they may have held (or Racks drawn ones), and for each every leave of the
// size kept, weighed by how close keeping it is to the rack's best move.
func (in *Inferer) exchange(ctx context.Context, s *Situation, p *prepared, o *Options) (weights, bool, int) {
	var w weights
	g := in.gen
	g.SetBoard(&s.Board)
	val := p.valuer(s, o)
	g.SetLeaves(val)
	searches := 0
	value := func(r rules.Rack, x float64) {
		var best move.Move
		if o.Model != Uniform {
			if stopped(ctx, searches) {
				return
			}
			best, _ = g.Best(&r, p.bagBefore, movegen.Options{Exchanges: true, Pass: true})
			searches++
		}
		forLeaves(&r, p.k, func(l *rules.Rack) {
			ways := 1.0 // the leave's share of the rack's prior, Uniform
			if o.Model == Uniform {
				ways = subsetWays(&r, l)
			} else {
				ways = like(o, best.Equity-val.LeaveValue(l))
			}
			w.add(*l, x*ways)
		})
	}
	n := countLeaves(&p.pool, rules.RackSize)
	if n <= float64(o.Racks) {
		var none rules.Rack
		forLeaves(&p.pool, rules.RackSize, func(r *rules.Rack) {
			value(*r, prior(&p.before, &none, r))
		})
		return w, true, searches
	}
	// Too many: the racks Racks draws come to, each by its prior (as play
	// does).
	rng := rand.New(rand.NewPCG(o.Seed, 0xE4C4_A96E))
	seen := map[rules.Rack]bool{}
	var none rules.Rack
	for range o.Racks {
		r := drawTiles(rng, p.pool, rules.RackSize)
		if !seen[r] {
			seen[r] = true
			value(r, prior(&p.before, &none, &r))
		}
	}
	return w, false, searches
}

// subsetWays is the number of ways to take the tiles l from r when each
// tile is told apart: the product of C(r_i, l_i).
func subsetWays(r, l *rules.Rack) float64 {
	x := 1.0
	for i, n := range l {
		x *= binom(int(r[i]), int(n))
	}
	return x
}

// prior is the chance, up to a constant, that the rack before the move was
// used plus l: racks are drawn from the tiles unseen before the move with
// every tile told apart, so it is the product of C(before_i, used_i+l_i).
func prior(before, used, l *rules.Rack) float64 {
	x := 1.0
	for i := range before {
		x *= binom(int(before[i]), int(used[i])+int(l[i]))
	}
	return x
}

var binoms = func() (t [101][8]float64) {
	for n := range t {
		t[n][0] = 1
		for k := 1; k < 8; k++ {
			t[n][k] = t[n][k-1] * float64(n-k+1) / float64(k)
		}
	}
	return t
}()

func binom(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	return binoms[n][k]
}

// countLeaves counts the distinct multisets of k tiles from pool.
func countLeaves(pool *rules.Rack, k int) float64 {
	c := make([]float64, k+1)
	c[0] = 1
	for _, n := range pool {
		for j := k; j > 0; j-- {
			for t := 1; t <= int(n) && t <= j; t++ {
				c[j] += c[j-t]
			}
		}
	}
	return c[k]
}

// forLeaves calls f with every distinct multiset of k tiles from pool, in
// a fixed order; f must not keep the pointer.
func forLeaves(pool *rules.Rack, k int, f func(*rules.Rack)) {
	var l rules.Rack
	var rec func(slot, left int)
	rec = func(slot, left int) {
		if left == 0 {
			f(&l)
			return
		}
		if slot == rules.RackSlots {
			return
		}
		for n := min(int(pool[slot]), left); n >= 0; n-- {
			l[slot] = uint8(n)
			rec(slot+1, left-n)
		}
		l[slot] = 0
	}
	rec(0, k)
}

// drawTiles draws n tiles at random from pool, every tile told apart.
func drawTiles(rng *rand.Rand, pool rules.Rack, n int) rules.Rack {
	var out rules.Rack
	left := pool.Count()
	for range min(n, left) {
		x := rng.IntN(left)
		for i, c := range pool {
			if x < int(c) {
				pool[i]--
				out[i]++
				break
			}
			x -= int(c)
		}
		left--
	}
	return out
}

// Sample draws the opponent's whole rack now: a leave by its probability,
// then the tiles drawn after the move from the unseen tiles less the
// leave. The same seed gives the same rack. Safe for concurrent use.
func (r *Result) Sample(seed uint64) rules.Rack {
	var pcg rand.PCG
	pcg.Seed(splitmix.Mix(seed), 0x5A3_91E)
	rng := rand.New(&pcg)
	rest := r.Unseen
	var rack rules.Rack
	if r.Uniform {
		rack = r.Known
	} else {
		x := rng.Float64()
		i, _ := slices.BinarySearchFunc(r.cum, x, func(c, x float64) int {
			if c <= x {
				return -1
			}
			return 1
		})
		rack = r.Leaves[min(i, len(r.Leaves)-1)].Leave
	}
	rest.Sub(rack)
	drawn := drawTiles(rng, rest, r.RackTiles-rack.Count())
	for i, n := range drawn {
		rack[i] += n
	}
	return rack
}

// SampleRack is Sample, as sim.RackSampler has it.
func (r *Result) SampleRack(seed uint64) rules.Rack { return r.Sample(seed) }

// Marginals returns, for each letter (rack slot, 0 the blank), the
// probability that the opponent's rack now holds at least one.
func (r *Result) Marginals() [rules.RackSlots]float64 {
	var out [rules.RackSlots]float64
	add := func(leave rules.Rack, p float64) {
		rest := r.Unseen
		rest.Sub(leave)
		d := r.RackTiles - leave.Count()
		total := rest.Count()
		for i := range out {
			if leave[i] > 0 {
				out[i] += p
				continue
			}
			// None among d tiles drawn from total, rest[i] of them i.
			none := 1.0
			for j := range d {
				none *= float64(total-int(rest[i])-j) / float64(total-j)
			}
			out[i] += p * (1 - max(0, none))
		}
	}
	if r.Uniform {
		add(r.Known, 1)
		return out
	}
	for _, l := range r.Leaves {
		add(l.Leave, l.Prob)
	}
	return out
}

// RackProb returns the probability that the opponent's rack now is exactly
// rack (RackTiles of the unseen tiles): the sum over the leaves they may
// have kept of the leave's probability times the chance of drawing the
// rest of rack from the unseen tiles less the leave. Given the leave, the
// other unseen tiles are alike to the player to move, so the tiles in the
// bag are rack's complement with the same probability: a pre-endgame
// weights its draws by it (peg.Options.OppRackProb).
func (r *Result) RackProb(rack rules.Rack) float64 {
	if rack.Count() != r.RackTiles || !r.Unseen.Contains(rack) {
		return 0
	}
	if r.Uniform {
		return drawProb(r.Unseen, r.Known, rack)
	}
	p := 0.0
	for _, l := range r.Leaves {
		if rack.Contains(l.Leave) {
			p += l.Prob * drawProb(r.Unseen, l.Leave, rack)
		}
	}
	return p
}

// drawProb is the chance that tiles drawn at random from unseen less kept,
// as many as rack has beyond kept, are rack less kept (kept within rack,
// rack within unseen).
func drawProb(unseen, kept, rack rules.Rack) float64 {
	pool, want := unseen, rack
	pool.Sub(kept)
	want.Sub(kept)
	return subsetWays(&pool, &want) / binom(pool.Count(), want.Count())
}

// Prob returns the probability of leave l (0 for one not listed; for a
// Uniform result, the chance of drawing it).
func (r *Result) Prob(l rules.Rack) float64 {
	for _, x := range r.Leaves {
		if x.Leave == l {
			return x.Prob
		}
	}
	return 0
}
