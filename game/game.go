package game

import (
	"context"
	"errors"
	"fmt"

	"scrabble/gaddag"
	"scrabble/internal/splitmix"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/referee"
	"scrabble/rules"
)

// EndReason says how a game ended.
type EndReason uint8

const (
	// EndOut: a player emptied their rack with the bag empty.
	EndOut EndReason = iota + 1
	// EndScoreless: six consecutive scoreless turns (rules.MaxScorelessTurns).
	EndScoreless
	// EndTarget: a player reached the target score (Rules.TargetScore).
	EndTarget
)

func (e EndReason) String() string {
	switch e {
	case EndOut:
		return "out"
	case EndScoreless:
		return "scoreless"
	case EndTarget:
		return "target"
	}
	return "unfinished"
}

// View is what the player to move knows: the board, their own rack, how
// many tiles are in the bag and on the other racks, and the unseen tiles
// (bag plus the other racks; with the bag empty, exactly the other racks).
// It never shows the order of the bag. Board and Gen are only valid during
// the call. Per-seat arrays hold Seats entries.
type View struct {
	Seat      int // the player to move, 0 to Seats-1
	Seats     int // players in the game, 2 to rules.MaxPlayers
	Turn      int // 0-based number of the turn in the game
	Board     *rules.Board
	Rack      rules.Rack
	BagLen    int
	Unseen    rules.Rack
	OppTiles  int                   // tiles on the other players' racks, together
	Scores    [rules.MaxPlayers]int // by seat
	Scoreless int                   // consecutive scoreless turns so far, over all players
	// Gen is a move generator on the board, kept up to date by the game
	// and shared by every seat, so each move is placed on one generator,
	// not one per player. A player may search it (Best, Generate, which
	// change only its scratch state) but must not change its board.
	Gen *movegen.Generator
}

// Turn is one turn of a game.
type Turn struct {
	Player int                   // seat of the player who moved
	Rack   rules.Rack            // their rack before the move
	Move   move.Move             // the move (Move.Score is its score)
	Score  int                   // points scored (0 for an exchange or a pass)
	Totals [rules.MaxPlayers]int // cumulative scores by seat after the move
	Drawn  rules.Rack            // tiles drawn after the move
	// Withdrawn marks a phony challenged off (Rules.Challenge): the play
	// (Move, with the score it claimed) was taken back, scored 0 and drew
	// nothing, and the player lost the turn.
	Withdrawn bool
}

// Rules are the settings of a game the rule sheets leave open.
type Rules struct {
	// TargetScore, when above 0, ends the game at the end of the turn in
	// which a player reaches it (no end-of-game adjustments then).
	TargetScore int
	// Tiebreak decides equal final scores (Record.Places).
	Tiebreak rules.Tiebreak
	// Challenge is the challenge rule (the zero value is double, NASPA's).
	// The other players are perfect challengers: under every rule but
	// void a phony play is challenged off (taken back, the turn lost),
	// and no good play is ever challenged. Under void a phony is an
	// illegal move, an error of the player who made it.
	Challenge rules.ChallengeRule
}

// Record is a complete game. Every per-player array is indexed by seat and
// holds Seats entries.
type Record struct {
	Lexicon string
	Seats   int                      // players, 2 to rules.MaxPlayers
	Players [rules.MaxPlayers]string // player names
	Rules   Rules                    // the game's settings
	Seed    uint64
	First   int                          // seat that moved first
	Racks   [rules.MaxPlayers]rules.Rack // opening racks (drawn in turn order)
	Turns   []Turn
	End     EndReason
	// EndRacks are the racks when the game ended; Adjustments the end-of-game
	// changes (rules.EndAdjustments: with two players, a player going out
	// gains twice the opponent's tiles; with more, each loses their own and
	// the player who went out gains their sum; after six scoreless turns
	// each loses their own; none at a target score).
	EndRacks    [rules.MaxPlayers]rules.Rack
	Adjustments [rules.MaxPlayers]int
	Scores      [rules.MaxPlayers]int // final scores, adjustments included
	Bingos      [rules.MaxPlayers]int // plays of all 7 tiles
	Exchanges   [rules.MaxPlayers]int
	Passes      [rules.MaxPlayers]int
	Phonies     [rules.MaxPlayers]int // plays challenged off (Turn.Withdrawn)
}

// Places ranks the seats (1 the winner; seats the tiebreak cannot separate
// share a place).
func (g *Record) Places() []int {
	before := make([]int, g.Seats)
	for s := range before {
		before[s] = g.Scores[s] - g.Adjustments[s]
	}
	return rules.Places(g.Scores[:g.Seats], before, g.Rules.Tiebreak)
}

// Winner returns the seat placed first alone, or -1 for a draw (a shared
// first place).
func (g *Record) Winner() int {
	winner := -1
	for s, p := range g.Places() {
		if p == 1 {
			if winner >= 0 {
				return -1
			}
			winner = s
		}
	}
	return winner
}

// Spread is seat 0's final score minus seat 1's (the spread of a
// two-player game).
func (g *Record) Spread() int { return g.Scores[0] - g.Scores[1] }

// Table plays games one after another on one lexicon, reusing its move
// generator from game to game: a new one is 68 KB to clear and bring into
// the cache. A Table plays one game at a time; a caller playing games in
// parallel keeps one a goroutine.
type Table struct {
	// Rules are the settings of the games played from now on.
	Rules  Rules
	tables *movegen.Tables
	gen    *movegen.Generator // nil before the first game, or after a panic
}

// NewTable returns a table for games on the tables' lexicon.
func NewTable(tables *movegen.Tables) *Table { return &Table{tables: tables} }

// Play plays one two-player game on a table of its own (see Table.Play).
func Play(ctx context.Context, tables *movegen.Tables, players [2]Player, seed uint64, firstPlayer int) (*Record, error) {
	return NewTable(tables).Play(ctx, players, seed, firstPlayer)
}

// Play plays one complete two-player game (see PlaySeats).
func (t *Table) Play(ctx context.Context, players [2]Player, seed uint64, firstPlayer int) (*Record, error) {
	return t.PlaySeats(ctx, players[:], seed, firstPlayer)
}

// PlaySeats plays one complete game of len(players) players, 2 to
// rules.MaxPlayers, seat by seat in order from firstPlayer (play passes to
// the left), under the NASPA rules (7-tile racks, exchanges only with at
// least 7 tiles in the bag, six consecutive scoreless turns, counted over
// all players, end the game) and the table's Rules, and returns its
// record. The tile draws come from a bag seeded with seed, the racks drawn
// in turn order from the first mover, so the same seed, players and first
// mover give the same game.
//
// The players must be distinct values (they keep per-game state). Each
// move is checked (rules.CheckPlacement, tiles on the rack, words in the lexicon,
// the score): a player making an illegal move is an error. A cancelled
// context abandons the game and returns the context's error.
func (t *Table) PlaySeats(ctx context.Context, players []Player, seed uint64, firstPlayer int) (*Record, error) {
	n := len(players)
	if err := rules.CheckPlayers(n); err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	for i, p := range players {
		if p == nil {
			return nil, fmt.Errorf("game: no player in seat %d", i)
		}
		for _, q := range players[:i] {
			if p == q {
				return nil, errors.New("game: the same player in two seats (each keeps its own game state)")
			}
		}
	}
	if firstPlayer < 0 || firstPlayer >= n {
		return nil, fmt.Errorf("game: first player %d: want a seat from 0 to %d", firstPlayer, n-1)
	}
	lex := t.tables.Lexicon()
	g := &game{
		lex:   lex,
		gen:   t.generator(),
		seats: n,
		bag:   rules.NewBag(seed),
		rules: t.Rules,
		rec: &Record{
			Lexicon: lex.Header().Name,
			Seats:   n,
			Rules:   t.Rules,
			Seed:    seed,
			First:   firstPlayer,
			Turns:   make([]Turn, 0, 16*n),
		},
	}
	copy(g.players[:], players)
	for i := range n {
		g.rec.Players[i] = players[i].Name()
	}
	for i := range n {
		seat := (firstPlayer + i) % n
		g.bag.DrawInto(&g.racks[seat], rules.RackSize)
		g.rec.Racks[seat] = g.racks[seat]
		players[seat].StartGame(Start{Tables: t.tables, Seat: seat, Seats: n, Seed: playerSeed(seed, seat), First: i == 0})
	}
	rec, err := g.play(ctx, firstPlayer)
	// Not deferred: a generator a panic left half way through a search
	// must not serve another game.
	t.gen = g.gen
	return rec, err
}

// generator takes the table's generator, on an empty board, for a game:
// until the game hands it back, the table has none.
func (t *Table) generator() *movegen.Generator {
	gen := t.gen
	t.gen = nil
	if gen == nil {
		return movegen.New(t.tables)
	}
	var empty rules.Board
	gen.SetBoard(&empty)
	return gen
}

// playerSeed gives each seat its own stream for any randomness of its own,
// fixed by the game seed.
func playerSeed(seed uint64, seat int) uint64 {
	return splitmix.Mix(seed ^ (0x9E37_79B9_7F4A_7C15 * uint64(seat+1)))
}

type game struct {
	lex       *gaddag.GADDAG
	gen       *movegen.Generator // on board (see View.Gen)
	seats     int
	players   [rules.MaxPlayers]Player
	rules     Rules
	bag       *rules.Bag
	board     rules.Board
	onBoard   rules.Rack
	racks     [rules.MaxPlayers]rules.Rack
	scores    [rules.MaxPlayers]int
	scoreless int
	rec       *Record
	v         View      // the turn's (see play)
	m         move.Move // the turn's move
}

func (g *game) play(ctx context.Context, seat int) (*Record, error) {
	for turn := 0; ; turn++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The view and the move live in the game: handed to the players'
		// methods, locals would be allocated every turn.
		v, m := &g.v, &g.m
		*v = g.view(seat, turn)
		var err error
		*m, err = g.players[seat].Choose(ctx, v)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("game: turn %d, %s (seat %d): %w", turn+1, g.rec.Players[seat], seat, err)
		}
		over := false
		if err := g.check(m, seat); err != nil {
			var phony *referee.PhonyError
			if !errors.As(err, &phony) || !g.rules.Challenge.PhoniesPlayable() || int(m.Score) != phony.Score {
				if phony != nil && !g.rules.Challenge.PhoniesPlayable() {
					err = fmt.Errorf("%w (under the %s challenge rule a phony cannot be played)", err, g.rules.Challenge)
				}
				return nil, fmt.Errorf("game: turn %d, %s (seat %d), rack %s: illegal move %s: %w",
					turn+1, g.rec.Players[seat], seat, g.racks[seat], m.NotationOn(&g.board), err)
			}
			over = g.withdraw(m, seat)
		} else {
			over = g.apply(m, seat)
		}
		if over {
			return g.rec, nil
		}
		seat = (seat + 1) % g.seats
	}
}

func (g *game) view(seat, turn int) View {
	unseen := rules.Distribution()
	unseen.Sub(g.onBoard)
	unseen.Sub(g.racks[seat])
	return View{
		Seat:      seat,
		Seats:     g.seats,
		Turn:      turn,
		Board:     &g.board,
		Rack:      g.racks[seat],
		BagLen:    g.bag.Len(),
		Unseen:    unseen,
		OppTiles:  unseen.Count() - g.bag.Len(),
		Scores:    g.scores,
		Scoreless: g.scoreless,
		Gen:       g.gen,
	}
}

// check reports why m is not a legal move for seat, with the right score.
func (g *game) check(m *move.Move, seat int) error {
	want, err := referee.CheckMove(m, &g.board, g.racks[seat], g.bag.Len(), g.lex)
	if err != nil {
		return err
	}
	if int(m.Score) != want {
		return fmt.Errorf("it claims %d points but scores %d", m.Score, want)
	}
	return nil
}

// apply makes the move, draws, tells both players, and settles the end of
// the game; it reports whether the game is over.
func (g *game) apply(m *move.Move, seat int) (over bool) {
	rec := g.rec
	t := Turn{Player: seat, Rack: g.racks[seat], Move: *m, Score: int(m.Score)}
	switch m.Kind {
	case move.Play:
		used := m.Used()
		g.racks[seat].Sub(used)
		g.onBoard = addRacks(g.onBoard, used)
		g.board.Apply(m.PlacedView())
		g.gen.Apply(m)
		if m.NumTiles == rules.RackSize {
			rec.Bingos[seat]++
		}
		t.Drawn = g.draw(seat)
	case move.Exchange:
		// Draw the new tiles first, then return the old ones.
		used := m.Used()
		g.racks[seat].Sub(used)
		t.Drawn = g.draw(seat)
		g.bag.Return(used.Tiles()...)
		rec.Exchanges[seat]++
	case move.Pass:
		rec.Passes[seat]++
	}
	g.scores[seat] += int(m.Score)
	if m.Score > 0 {
		g.scoreless = 0
	} else {
		g.scoreless++
	}
	t.Totals = g.scores
	rec.Turns = append(rec.Turns, t)
	for _, p := range g.players[:g.seats] {
		p.Observe(seat, m)
	}
	return g.settle(seat)
}

// withdraw records phony play m of seat, challenged off: taken back, 0
// points, nothing drawn, a scoreless turn lost. The players observe a pass:
// the board and the racks are as they were.
func (g *game) withdraw(m *move.Move, seat int) (over bool) {
	rec := g.rec
	rec.Phonies[seat]++
	g.scoreless++
	rec.Turns = append(rec.Turns, Turn{Player: seat, Rack: g.racks[seat], Move: *m, Totals: g.scores, Withdrawn: true})
	pass := move.Move{Kind: move.Pass}
	for _, p := range g.players[:g.seats] {
		p.Observe(seat, &pass)
	}
	return g.settle(seat)
}

// settle ends the game if the turn of seat just made ended it, with the
// end-of-game adjustments, and reports whether it did.
func (g *game) settle(seat int) (over bool) {
	rec := g.rec
	out := -1
	switch {
	case g.bag.Len() == 0 && g.racks[seat].Count() == 0:
		rec.End, out = EndOut, seat
	case rules.GameOverByScoreless(g.scoreless):
		rec.End = EndScoreless
	case rules.TargetReached(g.scores[:g.seats], g.rules.TargetScore):
		rec.End = EndTarget
	default:
		return false
	}
	if rec.End != EndTarget {
		copy(rec.Adjustments[:], rules.EndAdjustments(g.racks[:g.seats], out))
	}
	rec.EndRacks = g.racks
	for s := range g.seats {
		g.scores[s] += rec.Adjustments[s]
	}
	rec.Scores = g.scores
	return true
}

// draw refills seat's rack and returns the tiles drawn.
func (g *game) draw(seat int) rules.Rack {
	var drawn rules.Rack
	g.bag.DrawInto(&drawn, rules.RackSize-g.racks[seat].Count())
	g.racks[seat] = addRacks(g.racks[seat], drawn)
	return drawn
}

func addRacks(a, b rules.Rack) rules.Rack {
	for i := range a {
		a[i] += b[i]
	}
	return a
}
