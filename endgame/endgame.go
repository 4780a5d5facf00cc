package endgame

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"scrabble/internal/crash"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/rules"
)

// Defaults of Options.
const (
	DefaultTTMB = 256
)

// Options tune a solve. The zero value solves exactly on one thread under
// the NASPA rules with a 256 MB table.
type Options struct {
	// TTMB is the transposition table's size in megabytes (0: DefaultTTMB).
	TTMB int
	// Threads searching in parallel, sharing the table (0: 1).
	Threads int
	// ScorelessTurns is how many consecutive scoreless turns end the game
	// (0: rules.MaxScorelessTurns, 6, NASPA's rule). MAGPIE's endgame
	// solver uses 2; see doc.go for how the position's count is read then.
	ScorelessTurns int
	// Plies limits the search depth (0: none, search until the value is
	// proven). Leaves cut by the limit are valued by a greedy playout and
	// the result is not proven unless every line ended before the limit.
	Plies int
	// Restrict, if set, searches only these first moves: Result is the
	// best of them (so one move's exact value is a solve restricted to
	// it). A move that is not legal in the position is left out; none
	// legal is an error.
	Restrict []move.Move
	// First, if set, is the only first move searched, as Restrict with one
	// move, but trusted to be legal (one the caller's generator made on
	// this board and rack), so the root's moves are not listed: a caller
	// valuing many first moves one solve each saves that generation.
	First *move.Move
	// MaxNodes, if set, stops the search once a thread has searched about
	// this many nodes, as a deadline would: the answer is the deepest
	// iteration completed. Unlike a deadline it does not depend on the
	// machine's speed, so on one thread the answer is reproducible.
	MaxNodes uint64
	// Top ranks that many first moves by their exact (or depth-limited)
	// value in Result.Ranked (0: none).
	Top int
	// Progress, when set, is called after each unproven iteration of the
	// first thread, from the searching goroutine (a progress line on a
	// terminal), and once more with the answer when it is proven.
	Progress func(Progress)
	// Bag, if set, holds the tiles left in the bag in the order they will
	// be drawn (at most MaxBag): a known draw, as in a pre-endgame once a
	// draw order is fixed. A play draws as many tiles as it used, from the
	// front; no one can go out while tiles remain. Both sides know the
	// order, so this is the game with perfect information.
	Bag []rules.Letter
	// Window, when Lo < Hi, searches with that window instead of the full
	// one (fail soft): a Value strictly between Lo and Hi is exact, one at
	// or below Lo is an upper bound of the true value, one at or above Hi a
	// lower bound, and Proven says the value or bound holds at any depth.
	// Asking only on which side of a threshold the value lies is much
	// cheaper than the exact value. Options.Top is not allowed with it.
	Window Window
	// NoDeepening searches at once to the bound on the game's length (or
	// to Plies) instead of one ply deeper each iteration. The shallow
	// iterations order a lone full-window solve's moves and pay for
	// themselves many times (the shared set takes 4 times as long
	// without them); for the narrow windows of a pre-endgame's many
	// endgames sharing one table they are mostly waste (4 times the
	// nodes on the one-tile set). Without them a stop (the context,
	// MaxNodes) leaves no answer at all: Result.Proven is false; the
	// entries stored before it hold for a later exact search.
	NoDeepening bool
	// ValueOnly leaves out the principal variation (Result.PV), which
	// costs a little search of its own.
	ValueOnly bool
	// Table, if set, is the transposition table to search with instead of
	// one of TTMB megabytes for this solve alone: solves sharing a table
	// keep what the others learned (see Table).
	Table *Table
	// Pruned, if set, are tables pruned (movegen.Tables.Pruned) from the
	// board and a pool holding every tile of the position's racks and
	// bag, searched instead of pruning for this solve: a caller solving
	// many endgames of one pre-endgame prunes once for all of them.
	Pruned *movegen.Tables
	// NoPrune searches the whole lexicon. By default a solve first cuts
	// the lexicon down to the words its tiles can make on the board
	// (movegen.PrunedWords), in a few milliseconds, and generates its
	// moves on that much smaller graph: the same moves, found faster.
	NoPrune bool
}

// Table is a transposition table solves can share (Options.Table): a caller
// solving many related positions, such as the endgames of a pre-endgame,
// keeps for each what the others learned. Its entries are keyed by all a
// position holds (board, racks, known bag, scoreless turns, side, rules),
// so an entry holds in any solve that reaches its position. It is safe for
// concurrent solves. Release gives it back when done (or the garbage
// collector does, later).
//
// A Table of more than 16 MB begins with 16 MB and moves to its full size
// once its solves have searched four million nodes: solves begun after
// that use the big table, solves under way finish on the small one. A
// pre-endgame of a few million nodes never pays for the first touch of a
// big table's pages (half a second of zeroing for 512 MB).
type Table struct {
	cur     atomic.Pointer[table]
	owned   *ownedTables
	cleanup runtime.Cleanup
	// growMB is the full size while the table is small (0 after);
	// growAt the nodes after which it moves (math.MaxUint64 once moved,
	// or without a move to make); nodes what its solves searched.
	growMB int
	growAt atomic.Uint64
	nodes  atomic.Uint64
	// The searchers of finished solves, for the next solves on the same
	// tables (see searcher.reset).
	mu        sync.Mutex
	searchers []*searcher
	tables    *movegen.Tables
}

// ownedTables are the tables a Table made, given back together.
type ownedTables struct {
	mu  sync.Mutex
	all []*table
}

func (o *ownedTables) add(t *table) {
	o.mu.Lock()
	o.all = append(o.all, t)
	o.mu.Unlock()
}

// putAll gives every table back to the pool.
func (o *ownedTables) putAll() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, t := range o.all {
		putTable(t)
	}
	o.all = nil
}

// sharedGrowFactor: a shared Table moves to its full size after this many
// times the small table's slots in nodes. Its solves are many small
// endgames whose entries are mostly not needed again, so the small table
// fills more slowly than a single solve's.
const sharedGrowFactor = 4

// maxKeptSearchers bounds the searchers a Table keeps (each holds its
// generators and a move cache of a few megabytes).
const maxKeptSearchers = 8

// searcher returns a searcher for thread id of sh's solve: one a finished
// solve on the same tables left, or a new one.
func (t *Table) searcher(sh *shared, id int) *searcher {
	if t != nil {
		t.mu.Lock()
		var s *searcher
		if n := len(t.searchers); n > 0 && t.tables == sh.tables {
			s = t.searchers[n-1]
			t.searchers = t.searchers[:n-1]
		}
		t.mu.Unlock()
		if s != nil {
			s.reset(sh, id)
			return s
		}
	}
	return newSearcher(sh, id)
}

// keep takes back the searchers of a finished solve on tables.
func (t *Table) keep(tables *movegen.Tables, ss []*searcher) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tables != tables {
		t.tables, t.searchers = tables, t.searchers[:0]
	}
	for _, s := range ss {
		if len(t.searchers) < maxKeptSearchers {
			s.sh, s.tt = nil, nil // the solve's state, not kept alive
			t.searchers = append(t.searchers, s)
		}
	}
}

// NewTable returns a table of mb megabytes (0: DefaultTTMB), which begins
// with 16 MB if mb is more (see Table).
func NewTable(mb int) *Table {
	if mb <= 0 {
		mb = DefaultTTMB
	}
	t := &Table{owned: &ownedTables{}}
	first := mb
	t.growAt.Store(math.MaxUint64)
	if mb > firstTTMB {
		first, t.growMB = firstTTMB, mb
		at := sharedGrowFactor * tableSlots(firstTTMB)
		if testGrowAt > 0 {
			at = testGrowAt
		}
		t.growAt.Store(at)
	}
	tt := getTable(first)
	t.owned.add(tt)
	t.cur.Store(tt)
	// The tables' memory is outside the Go heap (huge pages): a Table
	// never released gives them back to the pool once unreachable.
	t.cleanup = runtime.AddCleanup(t, (*ownedTables).putAll, t.owned)
	return t
}

// searched counts the nodes of a finished solve with t; once its solves
// have searched growAt, the solves after use a table of the full size.
func (t *Table) searched(n uint64) {
	if t == nil || t.nodes.Add(n) < t.growAt.Load() {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.growMB == 0 {
		return
	}
	tt := getTable(t.growMB)
	t.owned.add(tt)
	t.cur.Store(tt)
	t.growMB = 0
	t.growAt.Store(math.MaxUint64)
}

// grown says whether t moved to its full size.
func (t *Table) grown() bool { return len(t.owned.all) > 1 }

// Release gives the table's memory back, for later solves to reuse; the
// table must not be used after.
func (t *Table) Release() {
	if t == nil || t.cur.Load() == nil {
		return
	}
	t.cleanup.Stop()
	t.owned.putAll()
	t.cur.Store(nil)
	t.mu.Lock()
	t.searchers, t.tables = nil, nil
	t.mu.Unlock()
}

// firstTTMB is the size of the table a solve of its own table begins with
// (see solve).
const firstTTMB = 16

// Window is a search window (see Options.Window).
type Window struct{ Lo, Hi int }

func (w Window) set() bool { return w.Lo < w.Hi }

// MaxBag is the most tiles Options.Bag may hold.
const MaxBag = 16

// Progress is what an iteration found: its depth, the root's value and best
// move, whether the value is proven, and the first thread's nodes so far.
type Progress struct {
	Depth  int
	Value  int
	Best   string
	Proven bool
	Nodes  uint64
}

// Step is one move of a principal variation.
type Step struct {
	// Player is 0 for the player to move at the root, 1 for the opponent.
	Player int
	// Rack is the mover's rack before the move.
	Rack rules.Rack
	// Move is the move; Notation is how players write it on the board it
	// was played on.
	Move     move.Move
	Notation string
	Score    int
	// End is set on the move that ends the game: "out" (the mover went out)
	// or "scoreless" (the scoreless-turn limit was reached), with
	// Adjustment the end-of-game change to the root mover's spread (the
	// out bonus, or both racks' values).
	End        string
	Adjustment int
	// Drew holds the tiles the move drew from a known bag (Options.Bag).
	Drew rules.Rack
}

// Ranked is a first move and its value.
type Ranked struct {
	Move     move.Move
	Notation string
	Value    int
}

// Result is the answer of a solve.
type Result struct {
	// Best is the best first move and Notation its notation. The moves of
	// a Result carry no equity (Equity is 0).
	Best     move.Move
	Notation string
	// Value is the change in spread (mover minus opponent) from the
	// position to the end of the game with best play on both sides,
	// end-of-game adjustments included.
	Value int
	// Proven says Value is exact: every line was searched to the game's
	// end. It is false for an answer cut by Options.Plies or the context.
	Proven bool
	// PV is a principal variation from the position; for a proven result
	// it reaches the end of the game and its scores add up to Value.
	PV []Step
	// Depth is the depth of the last iteration completed, in plies.
	Depth int
	// Nodes counts the positions searched by every thread.
	Nodes   uint64
	Elapsed time.Duration
	// Ranked holds the best Options.Top first moves, best first.
	Ranked []Ranked
	// grown: the solve moved to its full-size table (see shared.grow).
	grown bool
}

// Solve solves the endgame of pos for the player to move: the bag must be
// empty and both racks known (an empty opponent's rack is taken to be the
// unseen tiles, when they fit on a rack). The context's deadline or
// cancellation stops the search: the answer is then the deepest iteration
// completed, with Proven false.
func Solve(ctx context.Context, tables *movegen.Tables, pos *position.Position, opts Options) (*Result, error) {
	if tables == nil {
		return nil, errors.New("endgame: no move-generator tables")
	}
	if pos == nil {
		return nil, errors.New("endgame: no position")
	}
	if err := pos.Validate(); err != nil {
		return nil, fmt.Errorf("endgame: %w", err)
	}
	if n := pos.Players(); n != 2 {
		return nil, fmt.Errorf("endgame: a %d-player position: the solver handles two players", n)
	}
	racks := [2]rules.Rack{pos.Racks[0], pos.Racks[1]}
	if racks[0].Count() == 0 {
		return nil, errors.New("endgame: the player to move has no tiles: the game is over")
	}
	if len(opts.Bag) > MaxBag {
		return nil, fmt.Errorf("endgame: a known bag of %d tiles: at most %d", len(opts.Bag), MaxBag)
	}
	var bag rules.Rack
	for i, t := range opts.Bag {
		if t != rules.Blank && (t.IsBlanked() || !t.IsLetter()) {
			return nil, fmt.Errorf("endgame: the bag's tile %d (%#x) is not a tile", i+1, uint8(t))
		}
		bag.Add(t)
	}
	if racks[1].Count() == 0 {
		unseen, err := rules.Unseen(&pos.Board, racks[0])
		if err != nil {
			return nil, fmt.Errorf("endgame: %w", err)
		}
		if !unseen.Contains(bag) {
			return nil, fmt.Errorf("endgame: the bag's tiles %v are not all unseen", bag)
		}
		unseen.Sub(bag)
		if unseen.Count() == 0 {
			return nil, errors.New("endgame: no tiles are unseen: the opponent went out and the game is over")
		}
		if unseen.Count() > rules.RackSize {
			return nil, fmt.Errorf("endgame: the opponent's rack is unknown and %d tiles are unseen: the bag is not empty", unseen.Count())
		}
		racks[1] = unseen
	}
	inPlay := pos.Board.TileCount() + racks[0].Count() + racks[1].Count()
	if left := rules.TileCount() - inPlay; left != len(opts.Bag) {
		if len(opts.Bag) == 0 {
			return nil, fmt.Errorf("endgame: the board and racks hold %d tiles, so %d are in the bag: an endgame needs an empty bag", inPlay, left)
		}
		return nil, fmt.Errorf("endgame: the board and racks hold %d tiles, so %d are in the bag, not the %d given", inPlay, left, len(opts.Bag))
	}
	if len(opts.Bag) > 0 {
		unseen, err := rules.Unseen(&pos.Board, racks[0])
		if err != nil {
			return nil, fmt.Errorf("endgame: %w", err)
		}
		if !unseen.Contains(racks[1]) {
			return nil, fmt.Errorf("endgame: the opponent's rack %v is not among the unseen tiles", racks[1])
		}
		unseen.Sub(racks[1])
		if !unseen.Contains(bag) {
			return nil, fmt.Errorf("endgame: the bag's tiles %v are not the unseen ones (%v)", bag, unseen)
		}
	}
	opts, err := opts.normalize()
	if err != nil {
		return nil, err
	}
	if pos.ZeroTurns >= rules.MaxScorelessTurns || pos.ZeroTurns < 0 {
		return nil, fmt.Errorf("endgame: %d consecutive scoreless turns: the game is over", pos.ZeroTurns)
	}
	st := state{board: pos.Board, racks: racks, scoreless: startScoreless(pos.ZeroTurns, opts.ScorelessTurns), bag: opts.Bag}
	return solve(ctx, tables, st, opts)
}

// normalize fills in the defaults and checks the ranges.
func (o Options) normalize() (Options, error) {
	if o.TTMB == 0 {
		o.TTMB = DefaultTTMB
	}
	if o.Threads == 0 {
		o.Threads = 1
	}
	if o.ScorelessTurns == 0 {
		o.ScorelessTurns = rules.MaxScorelessTurns
	}
	switch {
	case o.TTMB < 0:
		return o, fmt.Errorf("endgame: table size %d MB: want a positive size", o.TTMB)
	case o.Threads < 0 || o.Threads > 256:
		return o, fmt.Errorf("endgame: %d threads: want 1 to 256", o.Threads)
	case o.ScorelessTurns < 1 || o.ScorelessTurns > maxScoreless:
		return o, fmt.Errorf("endgame: %d scoreless turns to end the game: want 1 to %d", o.ScorelessTurns, maxScoreless)
	case o.Plies < 0:
		return o, fmt.Errorf("endgame: depth %d plies: want 0 (exact) or more", o.Plies)
	case o.Top < 0:
		return o, fmt.Errorf("endgame: top %d: want 0 or more", o.Top)
	case o.First != nil && (o.First.Kind == move.Exchange || len(o.Restrict) > 0):
		return o, errors.New("endgame: First must be a play or a pass, without Restrict")
	case o.Top > 0 && o.Window.set():
		return o, errors.New("endgame: ranking the first moves (Top) needs the full window")
	}
	return o, nil
}

// startScoreless turns the position's count of scoreless turns (made under
// the six-turn rule) into the count the search starts from under a rule of
// n turns. Under six it is the count itself. Under a shorter rule, as
// MAGPIE does, it keeps the turns left before the game ends when those are
// fewer than n (one more scoreless turn ends a game at five, so it counts as
// n-1), and starts from 0 otherwise.
func startScoreless(zeroTurns, n int) int {
	if n >= rules.MaxScorelessTurns {
		return zeroTurns
	}
	left := rules.MaxScorelessTurns - zeroTurns
	if left < n {
		return n - left
	}
	return 0
}

// state is a position of the search: the board, both racks (the player to
// move first) and the scoreless turns so far.
type state struct {
	board     rules.Board
	racks     [2]rules.Rack
	scoreless int
	bag       []rules.Letter // a known bag, in drawing order (Options.Bag)
}

// solve runs the search over st with normalized options.
func solve(ctx context.Context, tables *movegen.Tables, st state, opts Options) (*Result, error) {
	start := time.Now()
	search := opts.Pruned
	if search == nil && !opts.NoPrune {
		pool := st.racks[0]
		for l, c := range st.racks[1] {
			pool[l] += c
		}
		for _, l := range st.bag {
			pool.Add(l)
		}
		var err error
		if search, err = tables.Pruned(&st.board, pool); err != nil {
			return nil, fmt.Errorf("endgame: %w", err)
		}
	}
	if search == nil {
		search = tables
	}
	sh := &shared{
		tables: search,
		opts:   opts,
		root:   st,
		maxPl:  maxPlies(st.racks[0].Count()+st.racks[1].Count()+len(st.bag), opts.ScorelessTurns),
	}
	// A solve of its own table begins with a small one: most endgames
	// take a few thousand nodes, and the first touch of each huge page
	// of a big table (zeroing 2 MB) cost a whole `endgame` command half
	// again its time. It moves to the full size once it has searched as
	// many nodes as the small table has slots (see grow).
	mb := opts.TTMB
	if opts.Table == nil && !opts.NoDeepening && mb > firstTTMB {
		sh.growMB, sh.growAt, mb = mb, tableSlots(firstTTMB), firstTTMB
		if testGrowAt > 0 {
			sh.growAt = testGrowAt
		}
	}
	sh.tt.Store(opts.Table.get(mb))
	defer func() {
		for _, t := range sh.spent {
			putTable(t)
		}
		opts.Table.put(sh.tt.Load())
	}()
	if opts.Threads > 1 {
		sh.busy = newBusyTable()
	}
	_, deadline := ctx.Deadline()
	// A stop (deadline, MaxNodes) makes the deepening's last iteration
	// the answer, its leaves valued by playouts. Without deepening or
	// Plies every line ends before the depth runs out: no leaf is valued
	// and a stop leaves no answer, so the entries hold for exact
	// searches and are keyed as theirs (a pre-endgame's node budget).
	sh.playouts = opts.Plies > 0 || (!opts.NoDeepening && (deadline || opts.MaxNodes > 0))
	sh.rootKey = boardKey(&st.board) ^ rackKey(0, &st.racks[0]) ^ rackKey(1, &st.racks[1]) ^
		zScoreless[st.scoreless] ^ zRule[opts.ScorelessTurns] ^ bagKey(st.bag)
	if sh.playouts {
		sh.rootKey ^= zPlayouts
	}
	stopWatch := context.AfterFunc(ctx, func() { sh.stop.Store(true) })
	defer stopWatch()

	searchers := make([]*searcher, opts.Threads)
	for i := range searchers {
		searchers[i] = opts.Table.searcher(sh, i)
	}
	// A helper's panic stops the search and is this solve's error; one
	// of this thread's goes to the caller, the helpers told to stop.
	helpers := crash.Group{OnPanic: func() { sh.stop.Store(true) }}
	defer sh.stop.Store(true)
	for _, s := range searchers[1:] {
		helpers.Go(func() {
			if testHelperStart != nil {
				testHelperStart()
			}
			s.iterate()
		})
	}
	searchers[0].iterate()
	sh.stop.Store(true)
	if err := helpers.Wait(); err != nil {
		return nil, fmt.Errorf("endgame: %w", err)
	}
	// Ranking obeys the caller's context only.
	sh.stop.Store(ctx.Err() != nil)

	if len(searchers[0].rootMoves) == 0 {
		return nil, errors.New("endgame: none of the moves to search is legal here")
	}
	s := searchers[0]
	if sh.prover != nil {
		s = sh.prover
	}
	res := s.result()
	if opts.Top > 0 {
		res.Ranked = s.rank(opts.Top, res.Proven, res.Depth)
	}
	for _, s := range searchers {
		res.Nodes += s.nodes
	}
	opts.Table.searched(res.Nodes)
	if f := opts.Progress; f != nil && res.Proven {
		f(Progress{Depth: res.Depth, Value: res.Value, Best: res.Notation, Proven: true, Nodes: res.Nodes})
	}
	opts.Table.keep(search, searchers)
	res.Elapsed = time.Since(start)
	res.grown = len(sh.spent) > 0
	return res, nil
}

// testGrowAt, set only by tests, replaces the number of nodes after which
// a solve moves to its full-size table (shared.growAt).
var testGrowAt uint64

// testHelperStart, set only by a test (TestHelperPanicIsAnError), is
// called by each helper thread as it starts.
var testHelperStart func()

// maxPlies bounds the length of the rest of a game with tiles on both
// racks: every play takes at least one tile, and between two plays (and
// after the last) at most n-1 scoreless turns follow one another.
func maxPlies(tiles, n int) int {
	return tiles + (n-1)*(tiles+1) + 1
}

// shared is what the threads of one solve share.
type shared struct {
	tables *movegen.Tables // pruned for the position, unless NoPrune
	opts   Options
	// tt is the transposition table. A solve without Options.Table
	// begins with a table of firstTTMB and moves to one of TTMB (growMB,
	// then 0) once thread 0 has searched growAt nodes; spent holds the
	// tables left, given back at the end.
	tt      atomic.Pointer[table]
	growMB  int
	growAt  uint64
	spent   []*table
	root    state
	rootKey uint64
	maxPl   int
	// playouts: leaves are valued by greedy playouts (a depth-limited
	// answer; see searcher.leaf).
	playouts bool
	// busy: the positions being searched, with several threads.
	busy busyTable
	stop atomic.Bool
	// done is set by the first thread to prove the root's value, prover;
	// the others stop.
	done   atomic.Bool
	mu     sync.Mutex
	prover *searcher
}
