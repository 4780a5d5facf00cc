package peg

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"scrabble/internal/splitmix"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/rules"
)

// A brute force, written apart from the solver to check it: every first
// move, every bag tile, and a plain minimax (no pruning, no table, no
// ordering) to the end of the game, drawing from the known bag. It shares
// only the move generator's list of legal plays.

type brute struct {
	tables *movegen.Tables
	gens   []*movegen.Generator // by depth
	n      int                  // scoreless turns that end the game
	nodes  int
	limit  int
}

// value is the spread the side to move gains to the end of the game,
// racks[0] being the mover's, bag the tiles still to draw in order.
func (b *brute) value(depth int, board rules.Board, racks [2]rules.Rack, bag []rules.Letter, scoreless int) int {
	best := -1 << 30
	b.each(depth, board, racks[0], func(m *move.Move) {
		if v := b.after(depth, board, racks, bag, scoreless, m); v > best {
			best = v
		}
	})
	return best
}

// each calls f with every play of rack on board and the pass.
func (b *brute) each(depth int, board rules.Board, rack rules.Rack, f func(m *move.Move)) {
	for len(b.gens) <= depth {
		b.gens = append(b.gens, movegen.New(b.tables))
	}
	g := b.gens[depth]
	g.SetBoard(&board)
	var all movegen.AllMoves
	g.GeneratePlays(&rack, &all)
	all.Moves = append(all.Moves, move.Move{Kind: move.Pass})
	for i := range all.Moves {
		f(&all.Moves[i])
	}
}

// after is the value for the mover of making m.
func (b *brute) after(depth int, board rules.Board, racks [2]rules.Rack, bag []rules.Letter, scoreless int, m *move.Move) int {
	b.nodes++
	if b.nodes > b.limit {
		return 0
	}
	if m.Kind == move.Pass {
		if scoreless+1 >= b.n {
			return racks[1].Value() - racks[0].Value()
		}
		return -b.value(depth+1, board, [2]rules.Rack{racks[1], racks[0]}, bag, scoreless+1)
	}
	play := m.Placed()
	rack := racks[0]
	for _, t := range play.Tiles {
		if t != rules.PlayedThrough && !rack.Remove(t) {
			panic("brute: a play uses a tile not on the rack")
		}
	}
	score := board.ScorePlay(play)
	next := board
	next.Apply(play)
	k := min(int(m.NumTiles), len(bag))
	for _, t := range bag[:k] {
		rack.Add(t)
	}
	bag = bag[k:]
	if rack.Count() == 0 {
		return score + 2*racks[1].Value()
	}
	ns := scoreless + 1
	if score > 0 {
		ns = 0
	}
	if ns >= b.n {
		return score - rack.Value() + racks[1].Value()
	}
	return score - b.value(depth+1, next, [2]rules.Rack{racks[1], rack}, bag, ns)
}

// bruteRecord is a first move's record over the bag tiles.
type bruteRecord struct {
	notation         string
	wins, ties, loss int
	sum              int // weight x final spread
}

// bruteForce values every first move of the position over every bag tile.
// ok is false when the trees are too big.
func bruteForce(tables *movegen.Tables, p position.Position, unseen rules.Rack, bagLen, n int) (recs []bruteRecord, ok bool) {
	return bruteForceWeighted(tables, p, unseen, bagLen, n, nil)
}

// bruteForceWeighted is bruteForce with each way of drawing weighted by
// factor of the opponent's rack it leaves (nil: 1).
func bruteForceWeighted(tables *movegen.Tables, p position.Position, unseen rules.Rack, bagLen, n int, factor func(rules.Rack) int) (recs []bruteRecord, ok bool) {
	b := &brute{tables: tables, n: n, limit: 150_000}
	spread := p.Scores[0] - p.Scores[1]
	b.each(0, p.Board, p.Racks[0], func(m *move.Move) {
		r := bruteRecord{notation: m.NotationOn(&p.Board)}
		// Every way of drawing bagLen tiles in order from the unseen
		// ones, tile by tile (two E's are two ways).
		var tiles []rules.Letter
		for slot, c := range unseen {
			for range c {
				if slot == 0 {
					tiles = append(tiles, rules.Blank)
				} else {
					tiles = append(tiles, rules.Letter(slot))
				}
			}
		}
		var bag []rules.Letter
		used := make([]bool, len(tiles))
		var rec func()
		rec = func() {
			if len(bag) == bagLen {
				var opp rules.Rack
				for i, t := range tiles {
					if !used[i] {
						opp.Add(t)
					}
				}
				f := spread + b.after(1, p.Board, [2]rules.Rack{p.Racks[0], opp}, slices.Clone(bag), p.ZeroTurns, m)
				w := 1
				if factor != nil {
					w = factor(opp)
				}
				switch {
				case f > 0:
					r.wins += w
				case f < 0:
					r.loss += w
				default:
					r.ties += w
				}
				r.sum += w * f
				return
			}
			for i, t := range tiles {
				if !used[i] {
					used[i] = true
					bag = append(bag, t)
					rec()
					bag = bag[:len(bag)-1]
					used[i] = false
				}
			}
		}
		rec()
		recs = append(recs, r)
	})
	return recs, b.nodes <= b.limit
}

// smallPEG is a pre-endgame with short racks: the mover's tiles, and the
// unseen ones (the opponent's rack and the one bag tile).
type smallPEG struct {
	name   string
	pos    position.Position
	unseen rules.Rack
}

// smallPEGs plays greedy games until the bag is empty, shortens both racks
// by random plays, then puts one of the opponent's tiles back in the bag.
func smallPEGs(tables *movegen.Tables, count int, seed uint64) []smallPEG {
	return smallPEGsOf(tables, count, seed, 2, 2)
}

// smallPEGsOf is smallPEGs with the opponent's rack (the unseen tiles)
// shortened to oppMin to oppMin+oppSpan-1 tiles.
func smallPEGsOf(tables *movegen.Tables, count int, seed uint64, oppMin, oppSpan int) []smallPEG {
	rng := rand.New(rand.NewPCG(seed, 0x9e6))
	g := movegen.New(tables)
	var out []smallPEG
	for game := 0; len(out) < count && game < 20*count; game++ {
		bag := rules.NewBag(seed*7919 + uint64(game))
		var board rules.Board
		var racks [2]rules.Rack
		bag.DrawInto(&racks[0], rules.RackSize)
		bag.DrawInto(&racks[1], rules.RackSize)
		g.SetBoard(&board)
		side, passes := 0, 0
		scores := [2]int{}
		for bag.Len() > 0 && passes < 2 {
			m, ok := g.Best(&racks[side], bag.Len(), movegen.Options{})
			if !ok || m.Kind != move.Play {
				passes++
				side = 1 - side
				continue
			}
			passes = 0
			scores[side] += int(m.Score)
			racks[side].Sub(m.Used())
			board.Apply(m.PlacedView())
			g.Apply(&m)
			bag.DrawInto(&racks[side], rules.RackSize-racks[side].Count())
			side = 1 - side
		}
		if bag.Len() > 0 {
			continue
		}
		// Shorten the racks by random plays: the mover's to 1-3 tiles, the
		// opponent's to 2-3 (one goes back to the bag).
		want := [2]int{1 + rng.IntN(3), oppMin + rng.IntN(oppSpan)}
		if !shorten(g, &board, &racks, &side, want, rng) {
			continue
		}
		mover, opp := racks[side], racks[1-side]
		if mover.Count() == 0 || opp.Count() < oppMin {
			continue
		}
		unseen := opp
		p := position.Position{Board: board, Racks: [rules.MaxPlayers]rules.Rack{mover}, Scores: [rules.MaxPlayers]int{scores[side], scores[1-side]}, ZeroTurns: rng.IntN(4)}
		// Scores near level make wins, ties and losses all happen.
		p.Scores[0] = p.Scores[1] + rng.IntN(41) - 20
		out = append(out, smallPEG{name: fmt.Sprintf("%d %s/%s", len(out), mover, unseen), pos: p, unseen: unseen})
	}
	return out
}

// TestAgainstBruteForce compares one-tile solves with the brute force on
// small pre-endgames: the top candidates' records and the order of the
// records must be the brute force's, under both endgame rules and on one
// and two threads.
func TestAgainstBruteForce(t *testing.T) {
	count := 200
	if testing.Short() {
		count = 50
	}
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	compared, skipped := 0, 0
	defaultBudget := firstLeaderNodes
	defaultSpec := [3]int{specSlack, specAbove, int(specNodes)}
	defer func() {
		firstLeaderNodes = defaultBudget
		specSlack, specAbove, specNodes = defaultSpec[0], defaultSpec[1], uint64(defaultSpec[2])
		overrunForTest = nil
	}()
	var overruns atomic.Int64
	for i, c := range smallPEGs(tables, count, 26) {
		n := []int{2, 6}[i%2]
		pos0 := c.pos
		if n == 2 {
			pos0.ZeroTurns = 0
		}
		recs, ok := bruteForce(tables, pos0, c.unseen, 1, n)
		if !ok {
			skipped++
			continue
		}
		compared++
		pos := c.pos
		if n == 2 {
			pos.ZeroTurns = 0 // the two-turn rule reads the count its own way (see endgame)
		}
		threads := 1 + i%3%2
		// Every fourth with a first leader's node budget so small that
		// the first candidates are put off and settled later.
		firstLeaderNodes = defaultBudget
		if i%4 == 3 {
			firstLeaderNodes = 1
		}
		// Every third speculates before every probe above the playout
		// (see speculate), at thresholds around it, some with a budget
		// so small that it runs out and some with none.
		specSlack, specAbove, specNodes = defaultSpec[0], defaultSpec[1], uint64(defaultSpec[2])
		if i%3 == 1 {
			specSlack, specAbove, specNodes = 1<<20, i%5-2, []uint64{0, 300}[i/3%2]
		}
		// Every fifth has the tests that only prune (see pruneTest) run
		// out of nodes, every one or every other one, so that the draws
		// are valued from their playouts instead.
		overrunForTest = nil
		if i%5 == 2 {
			var calls atomic.Int64
			every := int64(1 + i/5%2)
			overrunForTest = func() bool {
				if calls.Add(1)%every != 0 {
					return false
				}
				overruns.Add(1)
				return true
			}
		}
		compareTops(context.Background(), t, tables, c, pos, 1, Options{ScorelessTurns: n, Threads: threads}, recs)
	}
	t.Logf("%d small pre-endgames compared with the brute force, %d skipped (trees too big); %d tests to prune taken as out of nodes", compared, skipped, overruns.Load())
	if overruns.Load() == 0 {
		t.Error("no test to prune was taken as out of nodes")
	}
	if compared < count*3/5 {
		t.Errorf("only %d of %d compared", compared, count)
	}
}

// TestPlantedBug shows the comparison catches a wrong ranking: with the
// spread left out of the pruning, some best moves come out wrong, with one
// tile in the bag and with two.
func TestPlantedBug(t *testing.T) {
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	plantedBug = true
	defer func() { plantedBug = false }()
	for _, bag := range []int{1, 2} {
		bad, compared := 0, 0
		cases := smallPEGs(tables, 60, 27)
		if bag == 2 {
			cases = smallPEGsOf(tables, 60, 27, 3, 1)
		}
		for _, c := range cases {
			recs, ok := bruteForce(tables, c.pos, c.unseen, bag, 6)
			if !ok {
				continue
			}
			compared++
			opts, _ := Options{Top: 1, TTMB: 8}.normalize()
			res, err := solveBag(context.Background(), tables, c.pos, c.unseen, bag, opts)
			if err != nil {
				t.Fatal(err)
			}
			if compareBrute(res, recs, 1) != "" {
				bad++
			}
		}
		t.Logf("%d in the bag, spread ignored in pruning: %d of %d disagree", bag, bad, compared)
		if bad == 0 {
			t.Errorf("%d in the bag: bug planted, but all %d agree with the brute force", bag, compared)
		}
	}
}

// TestTwoTilesAgainstBruteForce compares exact two-tile solves (no time
// limit: every candidate raced over every draw order) with the brute force
// on small pre-endgames: the top candidates' records and their order must
// be the brute force's, under both endgame rules, on one and two threads,
// some with the first leaders' node budget so small that they are put off.
func TestTwoTilesAgainstBruteForce(t *testing.T) {
	count := 100
	if testing.Short() {
		count = 30
	}
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	defaultBudget := firstLeaderNodes
	defer func() { firstLeaderNodes = defaultBudget }()
	compared, skipped := 0, 0
	// Most small cases with three unseen tiles have a tree too big for the
	// brute force: look through five times as many.
	for i, c := range smallPEGsOf(tables, 5*count, 30, 3, 1) {
		if compared == count {
			break
		}
		n := []int{2, 6}[i%2]
		pos := c.pos
		if n == 2 {
			pos.ZeroTurns = 0 // the two-turn rule reads the count its own way (see endgame)
		}
		recs, ok := bruteForce(tables, pos, c.unseen, 2, n)
		if !ok {
			skipped++
			continue
		}
		compared++
		threads := 1 + i%3%2
		firstLeaderNodes = defaultBudget
		if i%4 == 3 {
			firstLeaderNodes = 1
		}
		// Two in five with a time limit too far off to be reached: one
		// with ExactOnly, which asks for the exact solve all the same,
		// one without, whose exact race after the stages
		// (solveStagedThenExact) completes.
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if i%5 >= 3 {
			ctx, cancel = context.WithTimeout(ctx, time.Hour)
		}
		compareTops(ctx, t, tables, c, pos, 2, Options{ScorelessTurns: n, Threads: threads, ExactOnly: i%5 == 4}, recs)
		cancel()
	}
	t.Logf("%d small two-tile pre-endgames compared with the brute force, %d skipped (trees too big)", compared, skipped)
	if compared < count {
		t.Errorf("only %d of %d compared", compared, count)
	}
}

// compareTops solves pos (c's position, perhaps with another scoreless
// count) with bag tiles in the bag, ranking the top 1 and then the top 3
// under opts, and compares each answer with the brute force's records.
func compareTops(ctx context.Context, t *testing.T, tables *movegen.Tables, c smallPEG, pos position.Position, bag int, opts Options, recs []bruteRecord) {
	t.Helper()
	opts.TTMB = 8
	for _, top := range []int{1, 3} {
		opts.Top = top
		o, err := opts.normalize()
		if err != nil {
			t.Fatal(err)
		}
		res, err := solveBag(ctx, tables, pos, c.unseen, bag, o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if msg := compareBrute(res, recs, top); msg != "" {
			t.Errorf("%s (rule %d, top %d, %d threads): %s", c.name, o.ScorelessTurns, top, o.Threads, msg)
		}
	}
}

// compareBrute checks the solver's ranked candidates against the brute
// force's records: each candidate's record is the brute force's for that
// move, and they are the best top records in order.
func compareBrute(res *Result, recs []bruteRecord, top int) string {
	if !res.Proven {
		return "not proven"
	}
	byMove := map[string]bruteRecord{}
	for _, r := range recs {
		byMove[r.notation] = r
	}
	better := func(a, b bruteRecord) int { // >0: a ranks above b
		if k := (2*a.wins + a.ties) - (2*b.wins + b.ties); k != 0 {
			return k
		}
		return a.sum - b.sum
	}
	sorted := slices.Clone(recs)
	slices.SortFunc(sorted, func(a, b bruteRecord) int { return better(b, a) })
	want := min(top, len(recs))
	if len(res.Candidates) != want {
		return fmt.Sprintf("%d candidates ranked, want %d", len(res.Candidates), want)
	}
	for i, c := range res.Candidates {
		r, ok := byMove[c.Notation]
		if !ok {
			return fmt.Sprintf("candidate %s is not a move of the brute force", c.Notation)
		}
		if c.Wins != r.wins || c.Ties != r.ties || c.Losses != r.loss || math.Round(c.MeanSpread*float64(c.Draws)) != float64(r.sum) {
			return fmt.Sprintf("%s: %d-%d-%d sum %.0f, brute force %d-%d-%d sum %d", c.Notation, c.Wins, c.Ties, c.Losses, c.MeanSpread*float64(c.Draws), r.wins, r.ties, r.loss, r.sum)
		}
		if better(r, sorted[i]) != 0 {
			return fmt.Sprintf("rank %d: %s (%d-%d-%d sum %d), the brute force's rank %d is %s (%d-%d-%d sum %d)", i+1, c.Notation, r.wins, r.ties, r.loss, r.sum, i+1, sorted[i].notation, sorted[i].wins, sorted[i].ties, sorted[i].loss, sorted[i].sum)
		}
	}
	return ""
}

// shorten plays random plays (side to move first, taking turns) until
// each rack holds at most want tiles, the player to move's want[0]; false
// if a play would empty a rack first.
func shorten(g *movegen.Generator, board *rules.Board, racks *[2]rules.Rack, side *int, want [2]int, rng *rand.Rand) bool {
	g.SetBoard(board)
	limit := map[int]int{*side: want[0], 1 - *side: want[1]}
	for turns := 0; racks[0].Count() > limit[0] || racks[1].Count() > limit[1]; turns++ {
		if turns > 40 {
			return false
		}
		var all movegen.AllMoves
		g.GeneratePlays(&racks[*side], &all)
		if len(all.Moves) == 0 {
			*side = 1 - *side
			continue
		}
		m := all.Moves[rng.IntN(len(all.Moves))]
		if int(m.NumTiles) >= racks[*side].Count() {
			return false
		}
		racks[*side].Sub(m.Used())
		board.Apply(m.PlacedView())
		g.Apply(&m)
		*side = 1 - *side
	}
	return true
}

// TestStagedAgainstBruteForce checks a staged solve (two tiles in the bag
// and a time limit, too far off to be reached; no exact race after the
// stages) on small cases: every candidate it solved exactly has the brute
// force's record. Then the same solve with the race after the stages,
// stopped after it has settled a few candidates, as the end of the time
// would: the answer must be the staged solve's, record for record.
func TestStagedAgainstBruteForce(t *testing.T) {
	count := 16
	if testing.Short() {
		count = 8
	}
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	defer func() { raceAfterStages, raceStopForTest = true, nil }()
	compared, raced := 0, 0
	// Few small cases have three unseen tiles and a tree the brute force
	// can search: look through 240.
	for _, c := range smallPEGs(tables, 240, 28) {
		if c.unseen.Count() < 3 || compared == count {
			continue
		}
		recs, ok := bruteForce(tables, c.pos, c.unseen, 2, 6)
		if !ok {
			continue
		}
		byMove := map[string]bruteRecord{}
		for _, r := range recs {
			byMove[r.notation] = r
		}
		opts, _ := Options{Top: 2, TTMB: 8}.normalize()
		solve := func() *Result {
			ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
			defer cancel()
			res, err := solveBag(ctx, tables, c.pos, c.unseen, 2, opts)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		raceAfterStages, raceStopForTest = false, nil
		res := solve()
		if res.Proven || res.Stopped != "complete" || res.Pruned != 0 {
			t.Errorf("%s: a staged solve says its ranking is proven (%v), stopped %q, %d pruned", c.name, res.Proven, res.Stopped, res.Pruned)
		}
		exact := 0
		for _, cand := range res.Candidates {
			if !cand.Proven {
				if cand.Spread != "estimate" {
					t.Errorf("%s: %s is an estimate, its spread %q", c.name, cand.Notation, cand.Spread)
				}
				continue
			}
			exact++
			r := byMove[cand.Notation]
			if cand.Wins != r.wins || cand.Ties != r.ties || cand.Losses != r.loss || math.Round(cand.MeanSpread*float64(cand.Draws)) != float64(r.sum) {
				t.Errorf("%s: %s %d-%d-%d sum %.0f, brute force %d-%d-%d sum %d", c.name, cand.Notation, cand.Wins, cand.Ties, cand.Losses, cand.MeanSpread*float64(cand.Draws), r.wins, r.ties, r.loss, r.sum)
			}
		}
		if exact == 0 {
			t.Errorf("%s: no candidate solved exactly", c.name)
		}
		compared++
		// A race that settles every candidate would prove the answer.
		if stop := min(1+compared%4, len(recs)-1); stop > 0 {
			raced++
			raceAfterStages = true
			raceStopForTest = func(settled int) bool { return settled == stop }
			// The race's progress is the proof's, counting every candidate
			// (the stages' exact stage counts the best few).
			var proofs []Progress
			opts.Progress = func(p Progress) {
				if p.Stage == proofStage {
					proofs = append(proofs, p)
				}
			}
			got := solve()
			opts.Progress = nil
			if got.Proven || got.Endgames <= res.Endgames || !reflect.DeepEqual(got.Candidates, res.Candidates) {
				t.Errorf("%s: the race stopped after %d: proven %v, %d endgames (the stages %d), candidates\n%+v\nthe stages'\n%+v", c.name, stop, got.Proven, got.Endgames, res.Endgames, got.Candidates, res.Candidates)
			}
			// (A candidate or two may settle while the stop reaches the
			// endgames' context, which a goroutine cancels.)
			if len(proofs) == 0 || proofs[0].Of != got.Moves || proofs[0].Done != 1 || proofs[len(proofs)-1].Done < stop {
				t.Errorf("%s: the race stopped after %d candidates of %d: its progress %+v", c.name, stop, got.Moves, proofs)
			}
		}
	}
	t.Logf("%d two-tile pre-endgames compared, %d raced after the stages", compared, raced)
	if compared < count/2 || raced < compared/2 {
		t.Errorf("only %d of %d compared, %d raced", compared, count, raced)
	}
}

// TestWeightedAgainstBruteForce: with the draws weighted by a chance of
// the opponent's rack (Options.OppRackProb; here made up, some racks ruled
// out), the one-tile solve's ranked records are the brute force's with
// every way of drawing weighted by its rack's factor, and so are the
// two-tile solve's; weights left out make the comparison fail.
func TestWeightedAgainstBruteForce(t *testing.T) {
	count := 60
	if testing.Short() {
		count = 20
	}
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	// A made-up model: racks get chances by a hash of their tiles, a
	// fifth of them none.
	prob := func(r rules.Rack) float64 {
		return float64(splitmix.Mix(hashRack(r))%5) / 4
	}
	compared, weighted := 0, 0
	for i, c := range smallPEGs(tables, count*3, 29) {
		if compared == count {
			break
		}
		bag := 1 + i%2
		if bag == 2 && c.unseen.Count() < 3 {
			bag = 1
		}
		f, err := rackFactors(drawsOf(c.unseen, bag), prob)
		if err != nil {
			continue // every rack ruled out
		}
		recs, ok := bruteForceWeighted(tables, c.pos, c.unseen, bag, 6, func(r rules.Rack) int { return f[r] })
		if !ok {
			continue
		}
		distinct := map[int]bool{}
		for _, x := range f {
			distinct[x] = true
		}
		if len(distinct) > 1 {
			weighted++
		}
		compared++
		opts, _ := Options{Top: 2, TTMB: 8, Threads: 1 + i%3%2, OppRackProb: prob}.normalize()
		res, err := solveBag(context.Background(), tables, c.pos, c.unseen, bag, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.DrawUnit != InferredUnit {
			t.Errorf("%s: draw unit %d", c.name, res.DrawUnit)
		}
		if msg := compareBrute(res, recs, 2); msg != "" {
			t.Errorf("%s (%d in the bag): %s", c.name, bag, msg)
		}
	}
	t.Logf("%d weighted pre-endgames compared with the brute force, %d with unequal weights", compared, weighted)
	if compared < count/2 || weighted < compared/2 {
		t.Errorf("only %d compared, %d weighted unequally", compared, weighted)
	}
}

func hashRack(r rules.Rack) uint64 {
	var h uint64 = 14695981039346656037
	for _, n := range r {
		h = (h ^ uint64(n)) * 1099511628211
	}
	return h
}
