package peg

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"scrabble/endgame"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/rules"
)

// Limits and defaults.
const (
	// MaxBag is the most tiles in the bag Solve takes: with four, the draw
	// orders number up to 7,920, and each needs an endgame per candidate.
	MaxBag = 4
	// DefaultTop is how many candidates Solve ranks exactly by default.
	DefaultTop = 5
	// DefaultTTMB is the size of the table the endgames share.
	DefaultTTMB = 512
)

// Options tune a solve. The zero value solves exactly on one thread under
// the NASPA rules.
type Options struct {
	// Threads solve endgames at once (0: 1).
	Threads int
	// TTMB is the size of the transposition table all the endgames of the
	// solve share, in megabytes (0: DefaultTTMB).
	TTMB int
	// ScorelessTurns is the endgame rule (0: 6, NASPA's; MAGPIE uses 2):
	// see package endgame.
	ScorelessTurns int
	// Top is how many candidates are ranked with their exact record (0:
	// DefaultTop). The best comes with its exact mean spread; the others'
	// win counts are exact. The rest are pruned as soon as they cannot
	// enter the top.
	Top int
	// Only, if set, values only these first moves (each must be legal).
	Only []move.Move
	// EndgameNodes bounds each endgame of a staged solve's depth-limited
	// stages (more than one tile in the bag; 0: DefaultEndgameNodes).
	EndgameNodes uint64
	// ExactOnly gives a one-tile solve's exact search the whole of the
	// context's time limit: stopped by it, the answer is only the leaders
	// proven so far, none when it settled none. By default the exact search
	// has two thirds of the limit and the rest values the candidates it
	// did not settle by estimates (see solveOne). With two tiles in the bag
	// it asks for the exact solve that a solve without a time limit makes,
	// in place of the stages a time limit otherwise brings (see exactBag).
	ExactOnly bool
	// OppRackProb, when set, is the chance that the opponent holds a rack
	// (the unseen tiles less the bag's), such as what their last move says
	// they kept (infer.Result.RackProb): each draw is weighted by it in
	// place of the uniform chance of its rack. nil: every split of the
	// unseen tiles is as likely as the ways of picking it.
	OppRackProb func(rules.Rack) float64
	// Progress, when set, is called as candidates are settled.
	Progress func(Progress)
	// NoPrune searches with the whole lexicon. By default a solve first
	// cuts it down to the words the mover's rack and the unseen tiles can
	// make on the board (movegen.Tables.Pruned), once, and every move list
	// and endgame of the solve is generated on that small graph.
	NoPrune bool
}

// Progress is how far a solve has come.
type Progress struct {
	Stage      string // "wins", "spread", or a staged solve's stage
	Done, Of   int    // candidates settled in the stage (with Rounds: rounds of draws)
	Rounds     bool   // a depth-limited stage, counting rounds of draws
	Best       string // the best so far
	BestWinPct float64
	Endgames   int
}

// Counted names what Done and Of count: "candidates" or "rounds of draws".
func (p Progress) Counted() string {
	if p.Rounds {
		return "rounds of draws"
	}
	return "candidates"
}

// Candidate is a first move and its record over the draws.
type Candidate struct {
	Move     move.Move
	Notation string
	// Wins, Ties and Losses count the draws (with one tile in the bag, the
	// bag tile; with more, the draw orders), each weighted by how many
	// ways it can happen: final spread, current scores included, above,
	// equal to or below 0. Draws is their total. With OppRackProb the
	// weights are in Result.DrawUnit parts of one way.
	Wins, Ties, Losses, Draws int
	// WinPct is (Wins + Ties/2) / Draws, in percent.
	WinPct float64
	// MeanSpread is the mean final spread over the draws, when Spread
	// says it is known: "exact", or "estimate" for a staged solve's
	// estimates; "" when it was not computed.
	MeanSpread float64
	Spread     string
	// Plies, for an estimate of a staged solve, is the depth of the
	// endgame searches behind it (each cut there and played out
	// greedily), 0 for greedy playouts of the whole game.
	Plies int
	// Proven says the counts are exact: every endgame after every draw was
	// solved to the end of the game.
	Proven bool
	// PerDraw holds, with one tile in the bag, each possible bag tile's
	// outcome for this move.
	PerDraw []DrawOutcome
}

// DrawOutcome is a candidate's result for one bag tile.
type DrawOutcome struct {
	Tile   rules.Letter
	Weight int // unseen tiles of that letter
	// Prob is the chance the bag holds this tile: Weight over the unseen
	// tiles, or as OppRackProb weighs it.
	Prob float64
	// Result is "win", "tie" or "loss"; Spread the exact final spread
	// when SpreadKnown.
	Result      string
	Spread      int
	SpreadKnown bool
}

// Result is a solved pre-endgame.
type Result struct {
	// Candidates holds the Top best, ranked by win percentage, then mean
	// spread (the best's is exact; among candidates with the best's win
	// percentage whose spread was not needed, the order is the search's).
	Candidates []Candidate
	// BagTiles is how many tiles the bag holds; Unseen the tiles the
	// player to move cannot see (the opponent's rack and the bag).
	BagTiles int
	Unseen   rules.Rack
	// DrawUnit is the weight of one way of drawing in the candidates'
	// counts: 1, or InferredUnit when OppRackProb weighted the draws.
	DrawUnit int
	// Moves is how many first moves were candidates; Pruned how many left
	// the race because they could not enter the top.
	Moves, Pruned int
	// Proven says the ranking is exact: the best's record and spread are
	// proven and no pruned move could enter the top. A solve stopped by its
	// context, or a staged one whose last stage did not complete, is not.
	Proven bool
	// Stopped says why the solve ended: "complete", "time" or "cancelled".
	Stopped  string
	Endgames int
	Nodes    uint64
	Elapsed  time.Duration
}

// Solve values the pre-endgame pos for the player to move, whose rack must
// be known; the opponent's is not (what the CGP holds for it is ignored):
// every way the unseen tiles can split between the bag and the opponent's
// rack is a draw. With one tile in the bag the answer is exact, and with
// two when the context has no deadline (or with ExactOnly); with two and
// a deadline the solve is staged, then exact if time is left (see
// solveStagedThenExact); with more it is staged (see solveStaged). The
// context's deadline or cancellation stops the solve with the best answer
// so far.
func Solve(ctx context.Context, tables *movegen.Tables, pos *position.Position, opts Options) (*Result, error) {
	if tables == nil {
		return nil, errors.New("peg: no move-generator tables")
	}
	if pos == nil {
		return nil, errors.New("peg: no position")
	}
	opts, err := opts.normalize()
	if err != nil {
		return nil, err
	}
	p := *pos
	p.Racks[1] = rules.Rack{}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("peg: %w", err)
	}
	if n := p.Players(); n != 2 {
		return nil, fmt.Errorf("peg: a %d-player position: the solver handles two players", n)
	}
	rack := p.Racks[0]
	if rack.Count() == 0 {
		return nil, errors.New("peg: the player to move has no tiles: the game is over")
	}
	unseen, err := rules.Unseen(&p.Board, rack)
	if err != nil {
		return nil, fmt.Errorf("peg: %w", err)
	}
	bagLen := unseen.Count() - rules.RackSize
	switch {
	case bagLen < 1:
		return nil, fmt.Errorf("peg: %d tiles are unseen: the bag is empty, an endgame (scrabble endgame) solves this", unseen.Count())
	case bagLen > MaxBag:
		return nil, fmt.Errorf("peg: %d tiles in the bag: a pre-endgame has 1 to %d", bagLen, MaxBag)
	case rack.Count() != rules.RackSize:
		return nil, fmt.Errorf("peg: the player to move holds %d tiles: with tiles in the bag a rack holds %d", rack.Count(), rules.RackSize)
	}
	if p.ZeroTurns < 0 || p.ZeroTurns >= rules.MaxScorelessTurns {
		return nil, fmt.Errorf("peg: %d consecutive scoreless turns: the game is over", p.ZeroTurns)
	}
	return solveBag(ctx, tables, p, unseen, bagLen, opts)
}

// solveBag solves p with bagLen of the unseen tiles in the bag and the rest
// on the opponent's rack. Solve checks that the racks are full; the tests
// call it with short racks, whose trees a plain minimax can search.
func solveBag(ctx context.Context, tables *movegen.Tables, p position.Position, unseen rules.Rack, bagLen int, opts Options) (*Result, error) {
	start := time.Now()
	if !opts.NoPrune {
		pool := unseen
		for l, c := range p.Racks[0] {
			pool[l] += c
		}
		var err error
		if tables, err = tables.Pruned(&p.Board, pool); err != nil {
			return nil, fmt.Errorf("peg: %w", err)
		}
	}
	s := &solver{
		ctx:     ctx,
		tables:  tables,
		pos:     p,
		opts:    opts,
		unseen:  unseen,
		bagLen:  bagLen,
		spread0: p.Scores[0] - p.Scores[1],
		table:   endgame.NewTable(opts.TTMB),
		start:   start,
	}
	defer s.table.Release()
	if err := s.candidates(); err != nil {
		return nil, err
	}
	s.draws = drawsOf(unseen, bagLen)
	if opts.OppRackProb != nil {
		f, err := rackFactors(s.draws, opts.OppRackProb)
		if err != nil {
			return nil, err
		}
		for i := range s.draws {
			s.draws[i].weight *= f[s.draws[i].opp]
		}
	}
	for _, d := range s.draws {
		s.total += d.weight
	}
	s.twin = twinsOf(s.draws, bagLen)
	var err error
	switch {
	case s.exactRace():
		err = s.solveOne()
	case s.bagLen <= exactBag:
		err = s.solveStagedThenExact()
	default:
		err = s.solveStaged()
	}
	if err != nil {
		return nil, err
	}
	return s.result(), nil
}

func (o Options) normalize() (Options, error) {
	if o.Threads == 0 {
		o.Threads = 1
	}
	if o.TTMB == 0 {
		o.TTMB = DefaultTTMB
	}
	if o.Top == 0 {
		o.Top = DefaultTop
	}
	if o.EndgameNodes == 0 {
		o.EndgameNodes = DefaultEndgameNodes
	}
	switch {
	case o.Threads < 0 || o.Threads > 256:
		return o, fmt.Errorf("peg: %d threads: want 1 to 256", o.Threads)
	case o.TTMB < 0:
		return o, fmt.Errorf("peg: table size %d MB: want a positive size", o.TTMB)
	case o.Top < 0:
		return o, fmt.Errorf("peg: top %d: want 1 or more", o.Top)
	case o.ScorelessTurns < 0:
		return o, fmt.Errorf("peg: %d scoreless turns: want 1 or more", o.ScorelessTurns)
	}
	return o, nil
}

// draw is one way the unseen tiles split: the bag's tiles in drawing
// order, the rest on the opponent's rack, with how many ways of picking
// the unseen tiles give it.
type draw struct {
	bag    []rules.Letter
	opp    rules.Rack
	weight int
}

// drawsOf lists the draw orders of n tiles from the unseen pool: every
// sequence of letters, weighted by the number of ways of picking those
// tiles in that order (two unseen E's make a lone E twice as likely).
func drawsOf(unseen rules.Rack, n int) []draw {
	var out []draw
	var seq []rules.Letter
	var rec func(pool rules.Rack, weight int)
	rec = func(pool rules.Rack, weight int) {
		if len(seq) == n {
			out = append(out, draw{bag: slices.Clone(seq), opp: pool, weight: weight})
			return
		}
		for slot, c := range pool {
			if c == 0 {
				continue
			}
			l := letterOfSlot(slot)
			pool[slot]--
			seq = append(seq, l)
			rec(pool, weight*int(c))
			seq = seq[:len(seq)-1]
			pool[slot]++
		}
	}
	rec(unseen, 1)
	return out
}

// twinsOf pairs each two-tile draw order with its reverse (nil for other
// bag sizes).
func twinsOf(draws []draw, bagLen int) []int {
	if bagLen != 2 {
		return nil
	}
	at := make(map[[2]rules.Letter]int, len(draws))
	for i, d := range draws {
		at[[2]rules.Letter{d.bag[0], d.bag[1]}] = i
	}
	twin := make([]int, len(draws))
	for i, d := range draws {
		twin[i] = at[[2]rules.Letter{d.bag[1], d.bag[0]}]
	}
	return twin
}

// twinOf is the draw whose game is draw i's for candidate c, other than i
// itself: with two tiles in the bag and c drawing both, the draw with the
// tiles the other way round (the same rack after the draw, the same
// opponent's rack). -1 when there is none. The exact race keeps the two
// draws' bounds equal, so that one search settles both.
func (s *solver) twinOf(c *cand, i int) int {
	if s.twin == nil || s.tilesDrawn(c) < 2 || s.twin[i] == i {
		return -1
	}
	return s.twin[i]
}

// InferredUnit is the weight of one way of drawing when the draws are
// weighted by OppRackProb: a rack's factor is its chance over its uniform
// chance in InferredUnit parts, so weights stay integers and a rack the
// model rules out keeps a 4096th of its uniform weight (every draw is
// still valued).
const InferredUnit = 4096

// rackFactors returns, for each rack the opponent may hold in draws, the
// integer its draws' weights are multiplied by: InferredUnit times prob's
// chance of the rack over its share of the uniform weights, at least 1.
func rackFactors(draws []draw, prob func(rules.Rack) float64) (map[rules.Rack]int, error) {
	uniform := map[rules.Rack]int{}
	total := 0
	for _, d := range draws {
		uniform[d.opp] += d.weight
		total += d.weight
	}
	probs := make(map[rules.Rack]float64, len(uniform))
	sum := 0.0
	for r := range uniform {
		p := prob(r)
		if !(p >= 0 && p <= 1) {
			return nil, fmt.Errorf("peg: the opponent's rack %s has probability %g", r, p)
		}
		probs[r] = p
		sum += p
	}
	if !(sum > 1e-12) {
		return nil, errors.New("peg: no rack the opponent may hold has any probability")
	}
	// The chances are made to sum to 1 over the racks here (a model may
	// spread some over racks the draws cannot leave).
	f := make(map[rules.Rack]int, len(uniform))
	for r, w := range uniform {
		f[r] = max(1, int(math.Round(InferredUnit*probs[r]/sum*float64(total)/float64(w))))
	}
	return f, nil
}

// letterOfSlot is the tile of a rack slot: 0 the blank, 1..26 A..Z.
func letterOfSlot(slot int) rules.Letter {
	if slot == 0 {
		return rules.Blank
	}
	return rules.Letter(slot)
}

// solver is one solve's state.
type solver struct {
	ctx     context.Context
	tables  *movegen.Tables
	pos     position.Position
	opts    Options
	unseen  rules.Rack
	bagLen  int
	spread0 int
	table   *endgame.Table
	start   time.Time

	cands []*cand
	draws []draw
	total int // every draw's weight
	// twin[i], with two tiles in the bag, is the draw with draw i's two
	// tiles the other way round (i itself for two of a letter): for a
	// move that draws both, the same game (see twinOf).
	twin []int
	// byTiles[k] holds the draws as a first move drawing k tiles meets
	// them (mergeDraws), in a staged solve.
	byTiles [][]draw
	// wide: the first leaders are being valued, one at a time, the
	// threads taking their draws in turn (see solveOne).
	wide bool
	// stopRace ends the exact race of solveStagedThenExact (for
	// raceStopForTest).
	stopRace context.CancelFunc
	// raceStage names the race in Progress: "exact" alone, proofStage
	// after the stages (whose own exact stage is "exact" over fewer
	// candidates, so the count would seem to go back).
	raceStage string
	// mu guards the counts below, which the threads update.
	mu       sync.Mutex
	endgames int
	nodes    uint64
	pruned   int
	stopped  string
	proven   bool
}

// cand is a candidate's state in the search.
type cand struct {
	m        move.Move
	notation string
	order    int // place in the candidate order
	// The weights of the draws won, tied and lost.
	wins, ties, losses int
	// lo, hi bound each draw's final spread (exact when equal).
	lo, hi []int
	done   bool // every draw settled
	pruned bool
	// spread is the exact sum of weight x final spread, when spreadDone.
	spread     int
	spreadDone bool
	// The playouts' estimate (see orderByPlayouts): the sum of weight x
	// final spread (a mean, once recordEstimate made it the record), and
	// the weights won and tied. stage is 0 once the record is exact,
	// else the stage of the estimate (see stageOf): plies is the depth of
	// its endgames (0: the playouts).
	estimate         float64
	estWins, estTies int
	estWeight        int // the weight of the draws played out
	stage            int
	plies            int
	// guess holds each draw's final spread by the playouts, when every
	// draw was played out: where an exact value's search starts.
	guess []int
	// budget, when set, bounds the nodes c's endgames may take before it
	// is put off (errDeferred); spent counts them (under solver.mu).
	budget, spent uint64
	deferred      bool // put off once: no budget again
}

// winKey orders records by win percentage: twice the wins plus the ties.
func (c *cand) winKey() int { return 2*c.wins + c.ties }

// candidates lists the first moves: every play and the pass (the bag holds
// too few tiles to exchange), ordered by a cheap estimate so the likely
// best come first and prune the rest sooner.
func (s *solver) candidates() error {
	g := movegen.New(s.tables)
	g.SetBoard(&s.pos.Board)
	var all movegen.AllMoves
	g.GeneratePlays(&s.pos.Racks[0], &all)
	moves := append(all.Moves, move.Move{Kind: move.Pass})
	if len(s.opts.Only) > 0 {
		var kept []move.Move
		for _, o := range s.opts.Only {
			i := slices.IndexFunc(moves, func(m move.Move) bool { return move.Same(&m, &o) })
			if i < 0 {
				return fmt.Errorf("peg: %s is not a legal move here", o.NotationOn(&s.pos.Board))
			}
			kept = append(kept, moves[i])
		}
		moves = kept
	}
	type keyed struct {
		m   move.Move
		key int
	}
	ks := make([]keyed, len(moves))
	for i, m := range moves {
		ks[i] = keyed{m, estimate(&m)}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return cmp.Compare(b.key, a.key) })
	for i, k := range ks {
		m := k.m
		m.Equity = 0
		s.cands = append(s.cands, &cand{m: m, notation: m.NotationOn(&s.pos.Board), order: i})
	}
	return nil
}

// estimate is the order candidates are tried in: the score and what the
// tiles played will not cost at the end, as the endgame orders its moves.
func estimate(m *move.Move) int {
	if m.Kind != move.Play {
		return -1000
	}
	v := 0
	for _, t := range m.Tiles[:m.Len] {
		if t != rules.PlayedThrough {
			v += t.Value()
		}
	}
	return 2*int(m.Score) + 3*v + 2*int(m.NumTiles)
}

// solveDraw solves the game after candidate c's first move with draw d:
// the value is the final spread's change for the player to move, the
// candidate's score included. With a window it is a fail-soft bound.
func (s *solver) solveDraw(ctx context.Context, c *cand, d *draw, w endgame.Window, threads int, plies int, nodes uint64) (*endgame.Result, error) {
	p := s.pos
	p.Racks[1] = d.opp
	first := c.m
	res, err := endgame.Solve(ctx, s.tables, &p, endgame.Options{
		Threads:        threads,
		ScorelessTurns: s.opts.ScorelessTurns,
		Bag:            d.bag,
		First:          &first,
		Window:         w,
		ValueOnly:      true,
		Table:          s.table,
		Plies:          plies,
		MaxNodes:       nodes,
		NoPrune:        true, // s.tables are pruned for every endgame of the solve
		// An exact endgame with a window here has a table other endgames
		// filled: iterative deepening costs far more than it saves (see
		// endgame.Options.NoDeepening). A null window's node budget (a
		// first leader's, see solveOne) stops it with no answer.
		NoDeepening: plies == 0 && (w.Lo > -endgameInf || w.Hi < endgameInf),
	})
	if err != nil {
		return nil, fmt.Errorf("peg: %s with %s drawn: %w", c.notation, rules.WordString(d.bag), err)
	}
	s.mu.Lock()
	s.endgames++
	s.nodes += res.Nodes
	c.spent += res.Nodes
	s.mu.Unlock()
	return res, nil
}

// stoppedBy says why the context stopped the solve, "" if it did not.
func (s *solver) stoppedBy() string {
	switch {
	case s.ctx.Err() == nil:
		return ""
	case errors.Is(s.ctx.Err(), context.DeadlineExceeded):
		return "time"
	default:
		return "cancelled"
	}
}

// result ranks the candidates and builds the answer.
func (s *solver) result() *Result {
	res := &Result{
		BagTiles: s.bagLen,
		Unseen:   s.unseen,
		DrawUnit: 1,
		Moves:    len(s.cands),
		Pruned:   s.pruned,
		Proven:   s.proven,
		Stopped:  s.stopped,
		Endgames: s.endgames,
		Nodes:    s.nodes,
		Elapsed:  time.Since(s.start),
	}
	if res.Stopped == "" {
		res.Stopped = "complete"
	}
	if s.opts.OppRackProb != nil {
		res.DrawUnit = InferredUnit
	}
	total := s.total
	var shown []*cand
	for _, c := range s.cands {
		if c.done && !c.pruned {
			shown = append(shown, c)
		}
	}
	slices.SortStableFunc(shown, rank)
	if len(shown) > s.opts.Top {
		shown = shown[:s.opts.Top]
	}
	for _, c := range shown {
		out := Candidate{
			Move: c.m, Notation: c.notation,
			Wins: c.wins, Ties: c.ties, Losses: c.losses, Draws: total,
			Proven: c.stage == 0,
		}
		if !out.Proven {
			out.Plies = c.plies
		}
		out.WinPct = 100 * float64(c.winKey()) / float64(2*total)
		switch {
		case c.spreadDone:
			out.MeanSpread, out.Spread = float64(c.spread)/float64(total), "exact"
		case c.stage > 0:
			out.MeanSpread, out.Spread = c.estimate, "estimate"
		}
		if s.bagLen == 1 && out.Proven {
			for i, d := range s.draws {
				o := DrawOutcome{Tile: d.bag[0], Weight: int(s.unseen[d.bag[0].RackIndex()]), Prob: float64(d.weight) / float64(total)}
				switch {
				case c.lo[i] > 0:
					o.Result = "win"
				case c.hi[i] < 0:
					o.Result = "loss"
				default:
					o.Result = "tie"
				}
				if c.lo[i] == c.hi[i] {
					o.Spread, o.SpreadKnown = c.lo[i], true
				}
				out.PerDraw = append(out.PerDraw, o)
			}
		}
		res.Candidates = append(res.Candidates, out)
	}
	return res
}

// rank orders two settled candidates: exact records before estimates
// (a staged solve's, or those of a one-tile solve stopped by the clock),
// deeper estimates before shallower ones, then by win percentage, then by
// mean spread where both are known (an exact spread before an unknown one;
// estimates by their own), then by the search's order.
func rank(a, b *cand) int {
	if a.stage != b.stage {
		return cmp.Compare(a.stage, b.stage) // exact records first
	}
	if c := cmp.Compare(b.winKey(), a.winKey()); c != 0 {
		return c
	}
	switch {
	case a.spreadDone && b.spreadDone:
		if c := cmp.Compare(b.spread, a.spread); c != 0 {
			return c
		}
	case a.spreadDone != b.spreadDone:
		if a.spreadDone {
			return -1
		}
		return 1
	case a.stage > 0:
		if c := cmp.Compare(b.estimate, a.estimate); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.order, b.order)
}

// exactBag is the most tiles in the bag that a solve without a time limit
// (or with Options.ExactOnly) solves exactly, as solveOne does: every
// candidate raced over every draw order. With two tiles that takes from a
// second to minutes on one thread (positions of self-play games: 3 of 12
// proven within 60 s), so a solve with a deadline is staged first, and
// races with the time left (solveStagedThenExact); with more tiles every
// solve is staged.
const exactBag = 2

// exactRace says whether the solve races every candidate over every draw
// (solveOne) rather than going in stages (solveStaged).
func (s *solver) exactRace() bool {
	if s.bagLen == 1 {
		return true
	}
	_, deadline := s.ctx.Deadline()
	return s.bagLen <= exactBag && (s.opts.ExactOnly || !deadline)
}

// noWindow asks an endgame for its exact value.
var noWindow = endgame.Window{}

// inf bounds spreads: beyond any a game can reach.
const inf = math.MaxInt32 / 4
