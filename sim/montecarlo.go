package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"scrabble/eval"
	"scrabble/internal/crash"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/referee"
	"scrabble/rules"
)

// Monte Carlo simulation ranks the candidate moves of a position by
// playing each forward many times against random draws (see Simulator).

// Position is the position to simulate, seen by the player to move.
type Position struct {
	Board rules.Board
	Rack  rules.Rack // the player to move's tiles
	// Seats is the number of players, 2 to rules.MaxPlayers; 0 means 2.
	// With more than two, every other player's rack is unknown and full
	// (Opponent, OpponentTiles and OpponentRacks are for two players), and
	// the bag must hold tiles: with it empty the racks of the others are
	// not known, and callers rank by static equity instead.
	Seats int
	// Opponent is what is known of the opponent's rack: empty means
	// unknown. When it holds fewer tiles than the opponent does (see
	// OpponentTiles) it is a partly known rack, as CGP defines one: every
	// iteration draws the rest at random from the unseen tiles less the
	// known ones.
	Opponent rules.Rack
	// OpponentTiles is how many tiles the opponent holds; 0 means a full
	// rack (or every unseen tile, if fewer).
	OpponentTiles int
	// Scores are the player to move's, then the other players' in turn
	// order (the opponent's with two players); those past Seats are not
	// read.
	Scores [rules.MaxPlayers]int
	// Scoreless is the number of consecutive scoreless turns so far,
	// counted over all players.
	Scoreless int
	// OpponentRacks, if set, draws the opponent's whole rack for each
	// iteration in place of a uniform draw (a rack inferred from their
	// last move: infer.Result); the rest of the unseen tiles are the bag.
	// Opponent must then be empty. Unused with the bag empty.
	OpponentRacks RackSampler
}

// players is the number of players of pos (Seats, 2 when 0).
func (pos *Position) players() int {
	if pos.Seats == 0 {
		return 2
	}
	return pos.Seats
}

// Options configures a simulation. The zero value of each field but the
// budget means its default.
type Options struct {
	// Leaves values the tiles kept, for picking candidates and for both
	// sides' answers (nil: every leave is worth 0).
	Leaves movegen.LeaveValuer
	// WinPct turns a rollout's final spread (plus the leave difference)
	// into a chance of winning for whoever is then on move; nil leaves win
	// probabilities out (reported as 0), except for rollouts that reach the
	// end of the game. A game of more than two players does not use it
	// (the table is of two-player games; see Candidate.WinProb).
	WinPct *eval.WinPct
	// Candidates is how many plays to simulate, the best by static equity
	// (default 15); the best CandidateExchanges exchanges (when the bag
	// allows exchanging) and the pass come on top.
	Candidates int
	// Add are moves to simulate whatever their static equity, such as a
	// move the user names or the one a player made: each must be one the
	// player can make by the rules (tiles from the rack, placement, the bag
	// for an exchange); words are not checked, so a phony can be valued.
	// Their Score and Equity are computed. A move already among the
	// candidates is simulated once.
	Add []move.Move
	// Plies is how many moves each rollout plays after the candidate
	// (default 2: the opponent's answer and the player's next move),
	// counted over all players: with three, 2 plies are the replies of the
	// two others, and 3 bring the player's next move.
	Plies int
	// PlayOut, when above 0, plays every rollout on to the end of the game
	// when the bag holds at most this many tiles (Plies is then not used).
	// Near the end, the position a few plies leave is judged worse by the
	// leave values, trained on the middle game, than by playing it out.
	PlayOut int
	// Iterations caps the iterations: one iteration plays every candidate
	// still in the race forward once. 0 means no cap (Time must be set).
	Iterations int
	// Time caps the run's duration (0: no cap). A run stopped by time is
	// not reproducible.
	Time time.Duration
	// Confidence, when above 0 (such as 0.95 or 0.99), prunes a candidate
	// once the leader is ahead of it at this one-sided confidence level (a
	// paired test of the statistic Rank ranks by), and stops when only the
	// leader is left. 0 plays every candidate for the whole budget.
	Confidence float64
	// Rank is the statistic that ranks, prunes and stops: the chance of
	// winning (the zero value; without WinPct it falls back to equity) or
	// simulated equity.
	Rank Rank
	// Sampling is which candidates each iteration plays: every one in the
	// race, or the leader and its closest challenger (top-two; the zero
	// value means DefaultSampling). Iterations caps every candidate's
	// iterations either way.
	Sampling Sampling
	// Threads is how many goroutines play iterations (default 1).
	Threads int
	// Seed fixes the draws: the same seed, budget and Threads give the same
	// result (for a run not stopped by Time).
	Seed uint64
	// Progress, if set, is called after every round of iterations from the
	// goroutine that called Simulate.
	Progress func(Progress)
}

// Defaults.
const (
	DefaultCandidates = 15
	DefaultPlies      = 2
	// CandidateExchanges is how many exchanges, the best by static
	// equity, are simulated beside the plays.
	CandidateExchanges = 3
	// MaxCandidates keeps the paired statistics (one sum per pair) small.
	MaxCandidates = 100
	// MaxPlies is the most plies a rollout plays after its candidate
	// before the bag is empty.
	MaxPlies = maxRolloutPlies / 2
	// minPruneIterations: no candidate is pruned before this many
	// iterations, so the normal approximation behind the test holds.
	minPruneIterations = 16
	// maxRolloutPlies bounds a rollout that plays on to the end of the game
	// once the bag is empty (six scoreless turns end any game, so a real
	// game never needs this many).
	maxRolloutPlies = 60
)

// Progress is the state of a running simulation.
type Progress struct {
	Iterations int // done by the leader
	Rollouts   int64
	Live       int // candidates still in the race
	Leader     move.Move
	LeaderMean float64 // simulated equity, points
	Elapsed    time.Duration
}

// Candidate is one simulated move.
type Candidate struct {
	Move move.Move // Equity is the static equity (millipoints)
	// Mean is the simulated equity in points: the spread change over the
	// rollout (candidate's score included) plus, if the game did not end,
	// the value of the player's leave at the end less the opponent's. With
	// more than two players, the spread and the leaves are against the
	// field: the player's less the mean of the others' (a player who did
	// not move in the rollout has a leave of 0).
	Mean, StdErr float64
	// WinProb is the mean chance of winning after the rollout, WinStdErr
	// its standard error. With more than two players there is no table of
	// chances: it is the share of rollouts after which the player stands
	// first (alone: 1; sharing first place with k others: 1/(k+1)), by
	// the final scores when the rollout reached the end of the game, else
	// by score plus the value of the leave. It is reported, not ranked
	// by: such a game ranks by equity (Result.Rank).
	WinProb, WinStdErr float64
	Iterations         int
	// Pruned is true when the candidate left the race early.
	Pruned bool
	// Added is true when the move was one of Options.Add.
	Added bool
}

// Result is a finished simulation.
type Result struct {
	// Candidates, best first: those still in the race by simulated equity,
	// then the pruned ones.
	Candidates []Candidate
	Iterations int   // the most iterations a candidate played (the leader's)
	Rollouts   int64 // candidate rollouts played
	// Generations counts the move searches (Generator.Best) of the rollouts.
	Generations int64
	BagLen      int
	// Endgame is true when the bag was empty: the opponent's rack is known,
	// every rollout is the same, and one iteration settles each candidate
	// (played out to the end of the game by both sides' static play).
	Endgame bool
	// PlayedOut says the rollouts played on to the end of the game
	// (Options.PlayOut), whatever Plies said.
	PlayedOut bool
	// Stopped says why the run ended: "iterations", "time", "confident"
	// (only the leader was left), "endgame", "single" (one candidate, and a
	// stopping rule: one round values it) or "cancelled".
	Stopped string
	Elapsed time.Duration
	// Rank is the statistic that ranked: Options.Rank, or RankEquity when
	// RankWin had no WinPct table or the game has more than two players.
	// Sampling is the sampling used.
	Rank     Rank
	Sampling Sampling
}

// Simulator runs simulations over one lexicon. It keeps a move generator
// per thread between runs. It is not safe for concurrent use.
type Simulator struct {
	tables  *movegen.Tables
	root    *movegen.Generator
	after   []*movegen.Generator // the board after each play candidate
	workers []*simWorker
	cands   candidateRecorder
}

// NewSimulator returns a simulator on the tables' lexicon.
func NewSimulator(tables *movegen.Tables) *Simulator {
	return &Simulator{tables: tables, root: movegen.New(tables)}
}

// simRun is what the workers of one run share, read-only during a round.
type simRun struct {
	opts Options
	// after[c] is the board once candidate c is played (the root's for an
	// exchange or the pass): a rollout starts by copying it, sparing the
	// workers an Apply per rollout. Read-only, shared by the workers.
	after    []*movegen.Generator
	seats    int // players, 2 to rules.MaxPlayers
	rack     rules.Rack
	opp      rules.Rack // known opponent rack, or empty (two players)
	oppTiles int        // tiles to draw for an unknown rack, each other player's
	pool     []rules.Letter
	scores   [rules.MaxPlayers]int // the mover's, then the others' in turn order
	zero     int
	cands    []move.Move
	added    []bool // added[c]: cands[c] is one of the options' Add
	live     []int  // indexes into cands of the candidates in the race
	// order is the candidates a round plays (the live ones, or a top-two
	// round's two) in the order rollouts play them: candidates that keep
	// the same leave together, so that their second plies (the same rack:
	// the leave plus the same draws) follow one another, and the move
	// generator reuses what it found for that rack (see movegen.Best).
	order []int
	rank  Rank // the statistic that ranks (Options.Rank, or its fallback)
	// playOut: every rollout plays to the end of the game (Options.PlayOut).
	playOut bool
	// The round's plan: candidate c plays iterations [from[c], to[c]) and
	// writes rollout i's result to hist[c][i-base[c]] (nil outside a
	// round: then order plays every iteration, as in tests).
	from, to, base []int
	hist           [][]rolled
	scratch        []int // for the simAcc methods, which the main goroutine runs
	// sampler draws the opponent's rack (Position.OpponentRacks), nil for
	// a uniform draw.
	sampler RackSampler
}

// Simulate ranks the candidate moves of pos by simulation. It returns an
// error for a position outside the rules or bad options. When ctx is
// cancelled it returns the result so far with ctx's error.
func (s *Simulator) Simulate(ctx context.Context, pos *Position, opts Options) (*Result, error) {
	start := time.Now()
	r, bag, err := s.prepare(pos, &opts)
	if err != nil {
		return nil, err
	}
	res := &Result{BagLen: bag, Endgame: bag == 0, PlayedOut: r.playOut, Rank: r.rank, Sampling: r.opts.Sampling}
	total := newSimAcc(len(r.cands))
	total.pairs = newPairSums(len(r.cands))
	finish := func(stopped string) *Result {
		res.Stopped = stopped
		res.Elapsed = time.Since(start)
		res.Rollouts, res.Generations = total.rollouts, total.gens
		res.Candidates, res.Iterations = total.rankAll(r)
		return res
	}
	maxIter := opts.Iterations
	if res.Endgame {
		maxIter = 1 // nothing is random: one iteration is exact
	}
	threads := max(1, opts.Threads)
	for len(s.workers) < threads {
		s.workers = append(s.workers, &simWorker{gen: movegen.New(s.tables)})
	}
	workers := s.workers[:threads]
	for _, w := range workers {
		w.reset(r)
	}
	stopping := opts.Confidence > 0
	// Rounds end where pruning and the time budget are decided: short
	// enough to prune early, long enough to keep the threads busy.
	round := 32
	if stopping {
		round = 8
	}
	iters := make([]int, 0, max(64, maxIter)) // a round's iterations (at most the cap)
	for {
		if err := ctx.Err(); err != nil {
			return finish("cancelled"), err
		}
		iters = r.plan(total, maxIter, round, iters[:0])
		if len(iters) == 0 {
			return finish("iterations"), nil // top-two: no challenger can play further
		}
		if err := s.round(ctx, r, workers, iters); err != nil {
			if ctx.Err() != nil {
				return finish("cancelled"), ctx.Err()
			}
			return nil, err
		}
		for _, w := range workers {
			total.merge(&w.acc)
			w.acc.clear()
		}
		total.addPairs(r)
		if stopping {
			r.prune(total)
		}
		done := 0
		for _, c := range r.live {
			done = max(done, int(total.n[c]))
		}
		stopped := ""
		switch {
		case res.Endgame:
			stopped = "endgame"
		case stopping && len(r.cands) == 1:
			stopped = "single" // nothing to compare: one round values it
		case stopping && len(r.live) == 1:
			stopped = "confident"
		case r.opts.Sampling == SamplingPaired && maxIter > 0 && done >= maxIter:
			stopped = "iterations"
		case opts.Time > 0 && time.Since(start) >= opts.Time:
			stopped = "time"
		}
		if opts.Progress != nil {
			lead := total.leader(r)
			opts.Progress(Progress{Iterations: done, Rollouts: total.rollouts, Live: len(r.live),
				Leader: r.cands[lead], LeaderMean: total.mean(lead), Elapsed: time.Since(start)})
		}
		if stopped != "" {
			return finish(stopped), nil
		}
	}
}

// histRoom is the room a top-two run first makes for each candidate's
// history (it grows beyond as needed); a variable so that tests can make
// it small.
var histRoom = 4096

// plan sets the next round's plan (r.from, r.to, r.order, the history's
// room) and appends to iters the iterations it plays, in order; none when
// nothing is left to play. Paired: every live candidate plays the next
// round iterations (at most maxIter in all, 0: no cap). Top-two: every
// live candidate first plays minPruneIterations; then the leader and its
// challenger play to the challenger's count plus topTwoBlock.
func (r *simRun) plan(a *simAcc, maxIter, round int, iters []int) []int {
	k := len(r.cands)
	if r.from == nil {
		r.from, r.to, r.base = make([]int, k), make([]int, k), make([]int, k)
		r.hist = make([][]rolled, k)
		r.scratch = make([]int, 0, k)
		for c := range r.hist {
			// Room for the whole run when it is capped (up to histRoom),
			// so that the rollouts allocate nothing.
			n := round
			if r.opts.Sampling == SamplingTopTwo {
				n = histRoom
				if maxIter > 0 {
					n = min(n, max(minPruneIterations, maxIter))
				}
			}
			r.hist[c] = make([]rolled, 0, n)
		}
	}
	limit := math.MaxInt
	if maxIter > 0 {
		limit = maxIter
	}
	for c := range k {
		r.from[c], r.to[c] = int(a.n[c]), int(a.n[c])
	}
	playing := r.order[:0]
	if r.opts.Sampling == SamplingPaired {
		for _, c := range r.live {
			r.to[c] = min(r.from[c]+round, limit)
			playing = append(playing, c)
		}
	} else {
		warm := false
		for _, c := range r.live {
			if r.from[c] < minPruneIterations {
				r.to[c] = min(minPruneIterations, limit)
				warm = true
			}
		}
		if !warm {
			lead := a.leader(r)
			if ch := a.challenger(r, lead, limit); ch >= 0 {
				r.to[ch] = min(r.from[ch]+topTwoBlock, limit)
				r.to[lead] = max(r.from[lead], r.to[ch])
			}
		}
		for _, c := range r.live {
			if r.to[c] > r.from[c] {
				playing = append(playing, c)
			}
		}
	}
	r.order = playing
	r.sortOrder()
	lo, hi := math.MaxInt, 0
	for _, c := range playing {
		if r.opts.Sampling == SamplingPaired {
			// Pairs are summed as each round ends, so only the round's
			// rollouts need keeping: the memory stays small.
			r.base[c] = r.from[c]
		}
		// Top-two keeps the history (base 0; its length only grows), paired
		// only the round's.
		if n := r.to[c] - r.base[c]; n <= cap(r.hist[c]) {
			r.hist[c] = r.hist[c][:n]
		} else {
			r.hist[c] = append(r.hist[c], make([]rolled, n-len(r.hist[c]))...)
		}
		lo, hi = min(lo, r.from[c]), max(hi, r.to[c])
	}
	for i := lo; i < hi; i++ {
		for _, c := range playing {
			if i >= r.from[c] && i < r.to[c] {
				iters = append(iters, i)
				break
			}
		}
	}
	return iters
}

// challenger is the live candidate other than lead, below limit
// iterations, that the leader is least surely ahead of: the lowest z score
// of their paired difference (ties: fewer iterations, then the earlier
// candidate); -1 if none.
func (a *simAcc) challenger(r *simRun, lead, limit int) int {
	best, bestZ := -1, math.Inf(1)
	for _, c := range r.live {
		if c == lead || int(a.n[c]) >= limit {
			continue
		}
		d, se, _ := a.pairs.diff(lead, c, r.rank)
		var z float64
		switch {
		case se > 0:
			z = d / se
		case d > 0:
			z = math.Inf(1)
		case d < 0:
			z = math.Inf(-1)
		}
		if best < 0 || z < bestZ || (z == bestZ && a.n[c] < a.n[best]) {
			best, bestZ = c, z
		}
	}
	return best
}

// PlaysOut reports whether, with bag tiles in the bag, the rollouts play to
// the end of the game (PlayOut).
func (o *Options) PlaysOut(bag int) bool { return o.PlayOut > 0 && bag <= o.PlayOut }

// checkOptions fills in the defaults and checks the options.
func checkOptions(o *Options) error {
	switch {
	case o.Candidates == 0:
		o.Candidates = DefaultCandidates
	case o.Candidates < 1 || o.Candidates > MaxCandidates:
		return fmt.Errorf("sim: %d candidates: want 1 to %d", o.Candidates, MaxCandidates)
	}
	switch {
	case o.Plies == 0:
		o.Plies = DefaultPlies
	case o.Plies < 1 || o.Plies > MaxPlies:
		return fmt.Errorf("sim: %d plies: want 1 to %d", o.Plies, MaxPlies)
	}
	switch {
	case o.PlayOut < 0:
		return fmt.Errorf("sim: play out from %d tiles in the bag: want 0 (never) or more", o.PlayOut)
	case o.Iterations < 0:
		return fmt.Errorf("sim: %d iterations", o.Iterations)
	case o.Time < 0:
		return fmt.Errorf("sim: time budget %v", o.Time)
	case o.Iterations == 0 && o.Time == 0:
		return errors.New("sim: no budget: set the iterations, the time, or both")
	case !(o.Confidence >= 0 && o.Confidence < 1): // NaN too: it would turn the stopping rule off
		return fmt.Errorf("sim: confidence %g: want 0 (no stopping rule) or a level between 0 and 1 such as 0.99", o.Confidence)
	case o.Threads < 0:
		return fmt.Errorf("sim: %d threads", o.Threads)
	case o.Rank != RankWin && o.Rank != RankEquity:
		return fmt.Errorf("sim: rank %v: want win or equity", o.Rank)
	case o.Sampling < SamplingDefault || o.Sampling > SamplingTopTwo:
		return fmt.Errorf("sim: sampling %v: want paired or toptwo", o.Sampling)
	}
	if o.Sampling == SamplingDefault {
		o.Sampling = DefaultSampling
	}
	return nil
}

// prepare checks the position and options and sets up the run: the
// candidates (plays by static equity, the best exchanges, the pass, the
// added moves) and the unseen tiles the iterations draw from. It returns
// the bag's size.
func (s *Simulator) prepare(pos *Position, opts *Options) (*simRun, int, error) {
	o := opts
	if err := checkOptions(o); err != nil {
		return nil, 0, err
	}
	if n := pos.Rack.Count(); n == 0 || n > rules.RackSize {
		return nil, 0, fmt.Errorf("sim: rack %q has %d tiles: want 1 to %d", pos.Rack.String(), n, rules.RackSize)
	}
	unseen, err := rules.Unseen(&pos.Board, pos.Rack)
	if err != nil {
		return nil, 0, fmt.Errorf("sim: rack %s does not fit the board: %w", pos.Rack, err)
	}
	seats := pos.players()
	if err := rules.CheckPlayers(seats); err != nil {
		return nil, 0, fmt.Errorf("sim: %v", err)
	}
	r := &simRun{opts: *o, seats: seats, rack: pos.Rack, scores: pos.Scores, zero: pos.Scoreless, rank: o.Rank}
	if o.WinPct == nil || seats > 2 {
		// Without the table only rollouts that end the game have a chance
		// of winning: equity is the better ranking then. The table is of
		// two-player games.
		r.rank = RankEquity
	}
	if seats > 2 {
		if err := r.prepareField(pos, unseen); err != nil {
			return nil, 0, err
		}
		return s.prepareCandidates(r, pos, o, unseen.Count()-(seats-1)*rules.RackSize)
	}
	// The opponent holds n tiles: the known ones and n-known drawn at
	// random (all of them when nothing is known). With the bag empty the
	// opponent holds every unseen tile, known or not.
	known := pos.Opponent
	if known.Count() > rules.RackSize {
		return nil, 0, fmt.Errorf("sim: the opponent's rack %s has %d tiles: want at most %d", known, known.Count(), rules.RackSize)
	}
	if !unseen.Contains(known) {
		return nil, 0, fmt.Errorf("sim: the opponent's rack %s does not fit the unseen tiles %s", known, unseen)
	}
	n := pos.OpponentTiles
	if n < 0 || n > rules.RackSize || n > unseen.Count() {
		return nil, 0, fmt.Errorf("sim: the opponent holds %d tiles: want 0 to %d (and no more than the %d unseen)", n, rules.RackSize, unseen.Count())
	}
	if n == 0 {
		n = min(rules.RackSize, unseen.Count())
	}
	if known.Count() > n {
		return nil, 0, fmt.Errorf("sim: the opponent's rack %s has %d tiles, but the opponent holds %d", known, known.Count(), n)
	}
	unseen.Sub(known)
	r.opp = known
	draws := n - known.Count()
	bag := unseen.Count() - draws
	if bag == 0 {
		r.opp = addRack(r.opp, unseen) // the opponent holds every unseen tile
		unseen = rules.Rack{}
	} else {
		r.oppTiles = draws
	}
	if r.opp.Count() == 0 && r.oppTiles == 0 {
		return nil, 0, errors.New("sim: the opponent has no tiles: the game is over")
	}
	r.pool = unseen.Tiles()
	if err := r.setSampler(pos.OpponentRacks, unseen); err != nil {
		return nil, 0, err
	}
	return s.prepareCandidates(r, pos, o, bag)
}

// prepareField sets up a run of more than two players: every other
// player's rack is unknown and full, drawn each iteration from the unseen
// tiles, and the bag holds the rest.
func (r *simRun) prepareField(pos *Position, unseen rules.Rack) error {
	if pos.Opponent.Count() > 0 || pos.OpponentTiles != 0 || pos.OpponentRacks != nil {
		return fmt.Errorf("sim: a %d-player position: the other players' racks are drawn at random (a known, partly known or inferred rack is for two players)", r.seats)
	}
	others := (r.seats - 1) * rules.RackSize
	if unseen.Count() <= others {
		return fmt.Errorf("sim: a %d-player position with %d unseen tiles for %d other racks: the bag is empty, and how the tiles split between the racks is unknown (rank by static equity)",
			r.seats, unseen.Count(), r.seats-1)
	}
	r.oppTiles = rules.RackSize
	r.pool = unseen.Tiles()
	return nil
}

// prepareCandidates finds the candidates of r (the bag holds bag tiles):
// plays by static equity, the best exchanges, the pass, the added moves.
func (s *Simulator) prepareCandidates(r *simRun, pos *Position, o *Options, bag int) (*simRun, int, error) {
	r.playOut = o.PlaysOut(bag)
	// The candidates, valued as a static player would.
	root := s.root
	root.SetBoard(&pos.Board)
	oppView, _ := rules.Unseen(&pos.Board, pos.Rack) // with the bag empty, the opponent's rack
	valuer := eval.EquityAmong(o.Leaves, bag, oppView, r.seats)
	root.SetLeaves(valuer)
	c := &s.cands
	c.reset(o.Candidates)
	root.Generate(&pos.Rack, bag, movegen.Options{Exchanges: true, Pass: true}, c)
	r.cands = c.moves(r.cands[:0])
	r.added = make([]bool, len(r.cands), len(r.cands)+len(o.Add))
	for i := range o.Add {
		m, err := forcedMove(&o.Add[i], pos, bag, valuer)
		if err != nil {
			return nil, 0, err
		}
		at := slices.IndexFunc(r.cands, func(c move.Move) bool { return move.Same(&c, &m) })
		if at < 0 {
			r.cands = append(r.cands, m)
			r.added = append(r.added, true)
			continue
		}
		r.added[at] = true
	}
	sortCandidates(r.cands, r.added)
	r.after = make([]*movegen.Generator, len(r.cands))
	for len(s.after) < len(r.cands) {
		s.after = append(s.after, movegen.New(s.tables))
	}
	for i := range r.cands {
		m := &r.cands[i]
		if m.Kind != move.Play {
			r.after[i] = root
			continue
		}
		r.after[i] = s.after[i]
		r.after[i].CopyBoard(root)
		r.after[i].Apply(m)
	}
	r.live = make([]int, len(r.cands))
	for i := range r.live {
		r.live[i] = i
	}
	r.orderLive()
	return r, bag, nil
}

// forcedMove checks an added move m against the position (the bag holds
// bag tiles) and returns it with its score and static equity by valuer,
// the one the candidates were valued by.
func forcedMove(m *move.Move, pos *Position, bag int, valuer movegen.LeaveValuer) (move.Move, error) {
	f := *m
	score, err := referee.CheckMove(&f, &pos.Board, pos.Rack, bag, nil)
	if err != nil {
		return move.Move{}, fmt.Errorf("sim: added move %s: %w", m.NotationOn(&pos.Board), err)
	}
	leave := f.Leave(pos.Rack)
	f.Score = int32(score)
	f.Equity = rules.FromPoints(f.Score) + valuer.LeaveValue(&leave)
	return f, nil
}

// sortCandidates orders the candidates by static equity (see ByEquity),
// keeping added[i] with cands[i].
func sortCandidates(cands []move.Move, added []bool) {
	type cand struct {
		m     move.Move
		added bool
	}
	cs := make([]cand, len(cands))
	for i := range cands {
		cs[i] = cand{cands[i], added[i]}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return move.ByEquity(&a.m, &b.m) })
	for i := range cs {
		cands[i], added[i] = cs[i].m, cs[i].added
	}
}

// addRack returns a with b's tiles added.
func addRack(a, b rules.Rack) rules.Rack {
	for i := range a {
		a[i] += b[i]
	}
	return a
}

// round plays the iterations iters on the workers, each taking the next
// iteration as it finishes one.
func (s *Simulator) round(ctx context.Context, r *simRun, workers []*simWorker, iters []int) (err error) {
	if len(workers) == 1 {
		defer caught(&err)
		w := workers[0]
		for _, i := range iters {
			w.iterate(r, i)
		}
		return nil
	}
	// Goroutines a round: an allocation or two every round, none per
	// iteration.
	var next atomic.Int64
	end := int64(len(iters))
	eg, gctx := errgroup.WithContext(ctx)
	for _, w := range workers {
		eg.Go(func() (err error) {
			defer caught(&err)
			for {
				j := next.Add(1) - 1
				if j >= end || gctx.Err() != nil {
					return gctx.Err()
				}
				w.iterate(r, iters[j])
			}
		})
	}
	return eg.Wait()
}

// caught turns a panic (a bug) into *err, so a simulation fails like any
// other instead of the process dying with a goroutine dump (a
// worker's panic cannot be recovered by its caller). Defer it.
func caught(err *error) {
	if r := recover(); r != nil {
		*err = crash.Error(r)
	}
}

// candidateRecorder keeps the best plays by equity, the best exchanges and
// the pass.
type candidateRecorder struct {
	plays     movegen.TopN
	exchanges movegen.TopN
	pass      move.Move
	hasPass   bool
}

func (c *candidateRecorder) reset(n int) {
	c.plays.N, c.plays.Better = n, move.ByEquity
	c.plays.Reset()
	c.exchanges.N, c.exchanges.Better = CandidateExchanges, move.ByEquity
	c.exchanges.Reset()
	c.hasPass = false
}

func (c *candidateRecorder) Record(m *move.Move) {
	switch m.Kind {
	case move.Play:
		c.plays.Record(m)
	case move.Exchange:
		c.exchanges.Record(m)
	case move.Pass:
		c.pass, c.hasPass = *m, true
	}
}

// moves appends the candidates to out, best static equity first.
func (c *candidateRecorder) moves(out []move.Move) []move.Move {
	out = append(out, c.plays.Moves()...)
	out = append(out, c.exchanges.Moves()...)
	if c.hasPass {
		out = append(out, c.pass)
	}
	slices.SortStableFunc(out, func(a, b move.Move) int { return move.ByEquity(&a, &b) })
	return out
}

// simAcc sums what the rollouts of a set of iterations found, per
// candidate. Sums are integers (millipoints, millionths of a win), so
// adding up the workers' sums in any order gives the same totals.
// winSqScale divides the squares of win chances (in millionths) summed in
// simAcc.winSq, to keep the sums in range.
const winSqScale = 1000

type simAcc struct {
	n     []int64
	sum   []int64 // millipoints
	sumSq []int64
	win   []int64 // millionths
	winSq []int64 // (millionths)^2 / winSqScale, kept small enough to sum
	// pairs sums the pairwise differences for the paired test (the run's
	// total only: the workers' are nil).
	pairs    *pairSums
	rollouts int64
	gens     int64
}

func newSimAcc(k int) *simAcc {
	return &simAcc{n: make([]int64, k), sum: make([]int64, k), sumSq: make([]int64, k),
		win: make([]int64, k), winSq: make([]int64, k)}
}

func (a *simAcc) clear() {
	clear(a.n)
	clear(a.sum)
	clear(a.sumSq)
	clear(a.win)
	clear(a.winSq)
	a.rollouts, a.gens = 0, 0
}

// merge adds o's sums.
func (a *simAcc) merge(o *simAcc) {
	for c := range a.n {
		a.n[c] += o.n[c]
		a.sum[c] += o.sum[c]
		a.sumSq[c] += o.sumSq[c]
		a.win[c] += o.win[c]
		a.winSq[c] += o.winSq[c]
	}
	a.rollouts += o.rollouts
	a.gens += o.gens
}

// addPairs adds the round's rollouts to the pairwise sums: each rollout
// of candidate c at iteration i pairs with every other candidate's at i,
// once, in an order (candidate, then iteration) no thread count changes.
func (a *simAcc) addPairs(r *simRun) {
	// cur[d] is how many iterations of d are summed in pairs so far:
	// those before the round, then the round's once d's turn has come.
	cur := r.scratch[:len(r.cands)]
	for c := range cur {
		cur[c] = r.from[c]
	}
	for c := range r.cands {
		for i := r.from[c]; i < r.to[c]; i++ {
			v := r.hist[c][i-r.base[c]]
			for d := range r.cands {
				if d != c && cur[d] > i {
					a.pairs.add(c, d, v, r.hist[d][i-r.base[d]])
				}
			}
		}
		cur[c] = r.to[c]
	}
}

// mean is candidate c's simulated equity in points.
func (a *simAcc) mean(c int) float64 {
	if a.n[c] == 0 {
		return 0
	}
	return rules.MilliToPoints(float64(a.sum[c]) / float64(a.n[c]))
}

// stdErr is the standard error of a mean from its count, sum and sum of
// squares (in the same units).
func stdErr(n, sum, sumSq float64) float64 {
	if n < 2 {
		return 0
	}
	v := (sumSq - sum*sum/n) / (n - 1)
	return math.Sqrt(max(v, 0) / n)
}

// leader is the live candidate ranked first (see simAcc.order).
func (a *simAcc) leader(r *simRun) int {
	cs := append(r.scratch[:0], r.live...)
	a.order(cs, r.rank)
	return cs[0]
}

// prune drops the live candidates the leader is ahead of at the run's
// confidence level, by a paired test of the ranking statistic on the
// iterations they shared (common random numbers make the difference far
// less noisy than either value), once they shared minPruneIterations.
func (r *simRun) prune(a *simAcc) {
	z := math.Sqrt2 * math.Erfinv(2*r.opts.Confidence-1) // one-sided
	lead := a.leader(r)
	keep := r.live[:0:0]
	for _, c := range r.live {
		if c == lead {
			keep = append(keep, c)
			continue
		}
		diff, se, n := a.pairs.diff(lead, c, r.rank)
		if n >= minPruneIterations && (diff > z*se || (se == 0 && diff >= 0)) {
			continue // the leader is ahead: pruned
		}
		keep = append(keep, c)
	}
	r.live = keep
}

// orderLive sets r.order to the live candidates (see sortOrder).
func (r *simRun) orderLive() {
	r.order = append(r.order[:0], r.live...)
	r.sortOrder()
}

// sortOrder sorts r.order by the leave each candidate keeps, then by
// index. Each candidate's rollouts depend on its own draws only, so the
// order changes no result.
func (r *simRun) sortOrder() {
	leave := func(c int) rules.Rack {
		kept := r.rack
		if m := &r.cands[c]; m.Kind != move.Pass {
			kept.Sub(m.Used())
		}
		return kept
	}
	slices.SortStableFunc(r.order, func(a, b int) int {
		la, lb := leave(a), leave(b)
		if c := bytes.Compare(la[:], lb[:]); c != 0 {
			return c
		}
		return a - b
	})
}

// rankAll orders the candidates for the result: live ones, then pruned
// ones, each by the run's ranking (see simAcc.order).
func (a *simAcc) rankAll(r *simRun) ([]Candidate, int) {
	live := make([]bool, len(r.cands))
	for _, c := range r.live {
		live[c] = true
	}
	out := make([]Candidate, len(r.cands))
	iters := 0
	var in, pruned []int
	for c := range r.cands {
		n := float64(a.n[c])
		sc := Candidate{Move: r.cands[c], Iterations: int(a.n[c]), Pruned: !live[c], Added: r.added[c]}
		if n > 0 {
			sc.Mean = rules.MilliToPoints(float64(a.sum[c]) / n)
			sc.StdErr = rules.MilliToPoints(stdErr(n, float64(a.sum[c]), float64(a.sumSq[c])))
			sc.WinProb = float64(a.win[c]) / n / 1e6
			sc.WinStdErr = a.winErr(c) / 1e6
		}
		iters = max(iters, sc.Iterations)
		out[c] = sc
		if live[c] {
			in = append(in, c)
		} else {
			pruned = append(pruned, c)
		}
	}
	a.order(in, r.rank)
	a.order(pruned, r.rank)
	ranked := make([]Candidate, 0, len(out))
	for _, c := range append(in, pruned...) {
		ranked = append(ranked, out[c])
	}
	return ranked, iters
}
