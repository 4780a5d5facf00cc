// Package review analyses a recorded game turn by turn: what the player
// held, what they played, what the engine would have played, the equity the
// play gave up, missed bingos and phonies. It writes the result as text,
// JSON or a self-contained HTML page.
package review

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"scrabble/eval"
	"scrabble/gaddag"
	"scrabble/gcg"
	"scrabble/infer"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// Options says what to review and how.
type Options struct {
	// Tables are the lexicon's, which decides phonies and the engine's
	// moves (required).
	Tables *movegen.Tables
	// Leaves values the tiles kept (nil: every leave is worth 0). With the
	// bag empty equity uses the end-of-game arithmetic instead (see
	// eval.Equity).
	Leaves movegen.LeaveValuer
	// Players picks whose turns to review, by player index (#player1 is
	// 0); all false means every player.
	Players [rules.MaxPlayers]bool
	// Tiebreak ranks players with equal final scores in the places of a
	// game of more than two players (Report.Places).
	Tiebreak rules.Tiebreak
	// Top is how many of the engine's moves to list a turn (default 5).
	Top int
	// Ranker, if set, ranks the engine's best moves and the move played
	// more deeply than static equity (e.g. by simulation); Candidates is
	// how many of the best by static equity it is given (default 10).
	Ranker     Ranker
	Candidates int
	// EndgameNodes, if set, has every turn of a two-player game played
	// with the bag empty valued by the endgame solver, each solve searching at most about
	// this many nodes on one thread (DefaultEndgameNodes is a good
	// budget): the equity lost is then the spread given up against
	// perfect play. 0 values those turns statically, as the others.
	EndgameNodes uint64
	// PEG, if set, has every turn of a two-player game played with 1 to
	// PEGMaxBag tiles in the bag and a full rack valued by the pre-endgame
	// solver, within this
	// long a solve (two a turn: the best, and the move made). Unlike the
	// node-bounded endgames, the result depends on the machine's speed.
	PEG time.Duration
	// PEGInfer, if set, weights those solves' draws by what the
	// opponent's move just before says they kept (package infer, with
	// these options; Leaves default to Options.Leaves).
	PEGInfer *infer.Options
}

// DefaultTop is how many engine moves a turn lists by default.
const DefaultTop = 5

// DefaultCandidates is how many moves a Ranker is given by default.
const DefaultCandidates = 10

// Position is a turn as a Ranker sees it.
type Position struct {
	Lexicon *gaddag.GADDAG
	Board   *rules.Board
	Rack    rules.Rack // the player to move's tiles
	// Unseen are the tiles the player cannot see: the bag and the other
	// players' racks.
	Unseen rules.Rack
	BagLen int
	// Players is the number of players, 2 to rules.MaxPlayers.
	Players int
	// Scores are the player to move's, then the other players' in their
	// order of turn after them, before the move (Players entries);
	// Scoreless is the number of consecutive scoreless turns.
	Scores    [rules.MaxPlayers]int
	Scoreless int
	// Last is the previous player's move just before, on LastBoard, the board
	// before it, for a ranker that infers their rack (an exchange's tiles
	// left out: the player did not see them); nil when there is none to
	// go by (the first turn, a play taken back or not read on the board).
	Last      *move.Move
	LastBoard *rules.Board
}

// Ranker values the moves of a turn more deeply than static equity, such as
// by Monte Carlo simulation. It returns one value per move, in points of
// equity (higher is better), or NaN for a move it could not value.
type Ranker interface {
	// Name describes the evaluation for reports, e.g. "sim, 500 iterations".
	Name() string
	Rank(ctx context.Context, pos *Position, moves []move.Move) ([]float64, error)
}

// Review analyses the turns of a replayed game (see gcg.Game.Replay). A
// turn is reviewed when the rack it was played from is known in full and
// the move can be read on the board; the others are listed with the reason
// they were skipped. The replay's problems are carried into the report.
// When ctx is cancelled it returns the report of the turns done so far
// (Interrupted names the turn it stopped at) with ctx's error.
func Review(ctx context.Context, r *gcg.Replay, opts Options) (*Report, error) {
	if opts.Tables == nil {
		return nil, errors.New("review: no lexicon")
	}
	if opts.Top <= 0 {
		opts.Top = DefaultTop
	}
	if opts.Candidates <= 0 {
		opts.Candidates = DefaultCandidates
	}
	g := r.Game
	n := len(g.Players)
	if err := rules.CheckPlayers(n); err != nil {
		return nil, fmt.Errorf("review: %w", err)
	}
	if opts.Players == ([rules.MaxPlayers]bool{}) {
		for i := range n {
			opts.Players[i] = true
		}
	}
	rep := &Report{
		File:       g.File,
		Title:      g.Title,
		Lexicon:    opts.Tables.Lexicon().Header().Name,
		Evaluation: "static",
		Recorded:   append([]int(nil), r.Recorded[:n]...),
		Computed:   append([]int(nil), r.Totals[:n]...),
		Problems:   []Problem{},
		Turns:      []Turn{},
		Timeline:   []Point{},
	}
	if r.ChallengeFrom != gcg.ChallengeInferred {
		rep.ChallengeRule = r.Challenge.String()
	}
	if opts.Ranker != nil {
		rep.Evaluation = opts.Ranker.Name()
	}
	for _, p := range g.Players {
		rep.Players = append(rep.Players, Player{Nick: p.Nick, Name: p.DisplayName()})
	}
	if n > 2 {
		rep.Places, rep.Tiebreak = r.Places(opts.Tiebreak), opts.Tiebreak.String()
		if opts.EndgameNodes > 0 || opts.PEG > 0 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the endgame and pre-endgame solvers are for two players: in this %d-player game the turns near the end are valued statically", n))
		}
	}
	for _, p := range r.Problems {
		rep.Problems = append(rep.Problems, Problem{Line: p.Line, Message: p.Msg})
	}
	rv := &reviewer{opts: opts, gen: movegen.New(opts.Tables), replay: r}
	for i := range r.Turns {
		t := &r.Turns[i]
		after := rv.totalsAfter(t)
		rep.Timeline = append(rep.Timeline, Point{Turn: t.Number, Player: g.Players[t.Player].Nick,
			Recorded: append([]int(nil), after[0][:n]...), Computed: append([]int(nil), after[1][:n]...)})
		if !opts.Players[t.Player] {
			continue
		}
		err := ctx.Err()
		var turn Turn
		if err == nil {
			turn, err = rv.turn(ctx, t)
		}
		if err != nil {
			if ctx.Err() != nil {
				// Interrupted: the report of the turns done so far.
				rep.Interrupted = t.Number
				rep.Summary = summarize(rep, opts.Players)
				return rep, err
			}
			return nil, err
		}
		turn.RecordedTotal, turn.ComputedTotal = after[0][t.Player], after[1][t.Player]
		rep.Turns = append(rep.Turns, turn)
	}
	rep.Summary = summarize(rep, opts.Players)
	return rep, nil
}

type reviewer struct {
	opts    Options
	gen     *movegen.Generator
	replay  *gcg.Replay
	inferer *infer.Inferer // for PEGInfer
}

// lastMove is the previous player's move just before turn t, on the board
// before it (an exchange's tiles left out: the player did not see them);
// nil when there is none to go by (the first turn, a play taken back or
// not read on the board).
func (rv *reviewer) lastMove(t *gcg.Turn) (*move.Move, *rules.Board) {
	if t.Number < 2 {
		return nil, nil
	}
	prev := &rv.replay.Turns[t.Number-2]
	if prev.Player == t.Player || prev.Withdrawn || (prev.Move.Kind == move.Play && !prev.Placed) {
		return nil, nil
	}
	last := prev.Move
	if last.Kind == move.Exchange {
		last.Len = 0
	}
	return &last, &prev.Board
}

// totalsAfter returns the recorded and the computed totals after a turn:
// after its own line and the withdrawal or challenge bonus lines that
// belong to it, before any end-of-game line.
func (rv *reviewer) totalsAfter(t *gcg.Turn) [2][rules.MaxPlayers]int {
	ev, steps := rv.replay.Game.Events, rv.replay.Steps
	last := t.Event
	for i := t.Event + 1; i < len(ev) && steps[i].Turn == t.Number; i++ {
		if k := ev[i].Kind; k == gcg.Withdrawn || k == gcg.ChallengeBonus {
			last = i
		}
	}
	return [2][rules.MaxPlayers]int{steps[last].Recorded, steps[last].Totals}
}

// skip fills in a turn that cannot be reviewed.
func skip(tr *Turn, why string) (Turn, error) {
	tr.Skipped = why
	return *tr, nil
}

func (rv *reviewer) turn(ctx context.Context, t *gcg.Turn) (Turn, error) {
	g := rv.replay.Game
	e := &g.Events[t.Event]
	tr := Turn{
		Turn:   t.Number,
		Line:   e.Line,
		Player: g.Players[t.Player].Nick,
		Rack:   t.Rack.String(),
		Note:   e.Note,
		Flags:  []string{},
		Best:   []Move{},
		board:  t.Board,
		seat:   t.Player,
	}
	tr.Score = t.Score
	if t.Withdrawn {
		tr.Score = 0
		tr.Flags = append(tr.Flags, FlagWithdrawn)
	}
	// The move as the file writes it; in full when it could be read.
	tr.Played = Move{Description: move.Description{Kind: t.Move.Kind.String(), Move: e.Move(), Score: t.Score}}
	if known := t.Move.Kind == move.Pass || t.Move.Kind == move.Exchange && t.Move.Len > 0 || t.Placed; known {
		tr.Played = describe(&t.Board, t.Rack, &t.Move)
		tr.Played.Move, tr.Played.Score = e.Move(), t.Score
	}
	tr.played = t.Move
	if why := rv.lostChallenge(t); why != "" || t.LostChallenge {
		if why == "" {
			why = "a lost challenge, not a decision: the turn the player lost by challenging a play that stood"
		}
		tr.Flags = append(tr.Flags, FlagLostChallenge)
		return skip(&tr, why)
	}
	n := t.Rack.Count()
	switch {
	case n == 0:
		return skip(&tr, "rack not recorded")
	case n < rules.RackSize && t.BagLen > 0:
		return skip(&tr, fmt.Sprintf("rack partly recorded (%d of %d tiles)", n, rules.RackSize))
	case t.Move.Kind == move.Play && !t.Placed:
		return skip(&tr, "the play could not be placed (see problems)")
	case t.Move.Kind == move.Play && !t.Scored:
		return skip(&tr, "the play breaks the placement rules (see problems)")
	case t.Move.Kind == move.Exchange && t.Move.Len == 0:
		return skip(&tr, "exchanged tiles not recorded")
	}
	if used := t.Move.Used(); t.Move.Kind != move.Pass && !t.Rack.Contains(used) {
		return skip(&tr, "tiles played are not on the recorded rack (see problems)")
	}
	unseen, err := rules.Unseen(&t.Board, t.Rack)
	if err != nil {
		return skip(&tr, "the rack does not fit the tiles left (see problems)")
	}
	tr.Played.Move = t.Move.NotationOn(&t.Board)

	players := len(g.Players)
	valuer := eval.EquityAmong(rv.opts.Leaves, t.BagLen, unseen, players)
	rv.gen.SetBoard(&t.Board)
	rv.gen.SetLeaves(valuer)

	// What the turn yielded: the play's score and leave, or for a withdrawn
	// play nothing scored and the whole rack kept.
	played := t.Move
	if t.Move.Kind == move.Play {
		played.Score = int32(t.Score)
		for _, w := range t.Board.WordsFormed(t.Move.Placed()) {
			if !rv.opts.Tables.Lexicon().ContainsLetters(w.Letters) {
				tr.Phonies = append(tr.Phonies, rules.WordString(w.Letters))
			}
		}
		if len(tr.Phonies) > 0 {
			tr.Flags = append(tr.Flags, FlagPhony)
		}
	}
	keep := t.Move.Leave(t.Rack)
	played.Equity = rules.FromPoints(played.Score) + valuer.LeaveValue(&keep)
	yielded := played.Equity
	if t.Withdrawn {
		whole := t.Rack
		yielded = valuer.LeaveValue(&whole)
	}
	tr.Played.Equity = played.Equity.Points()

	keepTop := rv.opts.Top
	if rv.opts.Ranker != nil {
		keepTop = max(keepTop, rv.opts.Candidates)
	}
	rec := &turnRecorder{top: movegen.TopN{N: keepTop, Better: move.ByEquity}, yielded: yielded}
	rv.gen.Generate(&t.Rack, t.BagLen, movegen.Options{Exchanges: true, Pass: true}, rec)
	tops := rec.top.Moves()
	tr.Moves = rec.n
	tr.Reviewed = true
	tr.Equity = yielded.Points()
	legal := len(tr.Phonies) == 0 && !t.Withdrawn
	if legal {
		tr.Rank = rec.better + 1
	}
	if len(tops) > 0 {
		tr.EquityLost = (tops[0].Equity - yielded).Points()
		tr.best = tops[0]
	}
	if rec.bingo.Found && !(legal && t.Move.NumTiles == rules.RackSize) {
		tr.Flags = append(tr.Flags, FlagMissedBingo)
		b := describe(&t.Board, t.Rack, &rec.bingo.Best)
		tr.BestBingo = &b
	}

	for i := range tops[:min(len(tops), rv.opts.Top)] {
		tr.Best = append(tr.Best, describe(&t.Board, t.Rack, &tops[i]))
	}
	switch {
	case t.BagLen == 0 && rv.opts.EndgameNodes > 0 && len(tops) > 0 && players == 2 &&
		!(rv.opts.Ranker != nil && len(tr.Phonies) > 0 && !t.Withdrawn): // the ranker values a phony, the solver cannot
		stand := played
		if t.Withdrawn {
			stand = move.Move{Kind: move.Pass}
		}
		if err := rv.solveEndgame(ctx, t, &tr, unseen, valuer, stand, len(tr.Phonies) > 0 && !t.Withdrawn); err != nil {
			return Turn{}, err
		}
	case t.BagLen >= 1 && t.BagLen <= PEGMaxBag && rv.opts.PEG > 0 && t.Rack.Count() == rules.RackSize && players == 2:
		stand := played
		if t.Withdrawn {
			stand = move.Move{Kind: move.Pass}
		}
		if err := rv.solvePEG(ctx, t, &tr, stand, len(tr.Phonies) > 0 && !t.Withdrawn); err != nil {
			return Turn{}, err
		}
	case rv.opts.Ranker != nil:
		if err := rv.rank(ctx, t, &tr, unseen, tops, played, yielded); err != nil {
			return Turn{}, err
		}
	}
	return tr, nil
}

// lostChallenge says why a pass is the turn a player lost by challenging
// the opponent's play in vain, and so no decision of theirs; "" when it is
// not. A pass is a lost challenge when it comes right after the opponent's
// play, that play stood (it was not withdrawn), and either the file records
// a challenge bonus for that play or the play took the opponent's last tile
// (the game would have ended there but for a challenge: the pass is then
// followed by the opponent's points for going out, or the passer's rack
// holds every tile left).
func (rv *reviewer) lostChallenge(t *gcg.Turn) string {
	if t.Move.Kind != move.Pass || t.Number < 2 {
		return ""
	}
	prev := &rv.replay.Turns[t.Number-2]
	if prev.Player == t.Player || prev.Move.Kind != move.Play || prev.Withdrawn {
		return ""
	}
	g := rv.replay.Game
	opp, play := g.Players[prev.Player].Nick, g.Events[prev.Event].Move()
	for i := prev.Event + 1; i < t.Event; i++ {
		if e := &g.Events[i]; e.Kind == gcg.ChallengeBonus && e.Player == prev.Player {
			return fmt.Sprintf("a lost challenge, not a decision: %s's %s was challenged and stood (challenge bonus on line %d)", opp, play, e.Line)
		}
	}
	wentOut := false
	for i := t.Event + 1; i < len(g.Events) && !g.Events[i].Kind.IsMove(); i++ {
		if e := &g.Events[i]; e.Kind == gcg.EndPoints && e.Player == prev.Player {
			wentOut = true
		}
	}
	if n := t.Rack.Count(); n > 0 && rules.TileCount()-t.Board.TileCount() == n {
		wentOut = true
	}
	if wentOut {
		return fmt.Sprintf("a lost challenge, not a decision: %s went out with %s, which was challenged and stood", opp, play)
	}
	return ""
}

// rank asks the ranker to value the best moves and the one played, and
// reorders the turn's best moves by its values.
func (rv *reviewer) rank(ctx context.Context, t *gcg.Turn, tr *Turn, unseen rules.Rack, tops []move.Move, played move.Move, yielded rules.Equity) error {
	cands := append([]move.Move(nil), tops[:min(len(tops), rv.opts.Candidates)]...)
	// The move to value for the play made: the pass stands in for a play
	// taken back.
	stand := played
	if t.Withdrawn {
		stand = move.Move{Kind: move.Pass, Equity: yielded}
	}
	at := slices.IndexFunc(cands, func(m move.Move) bool { return move.Same(&m, &stand) })
	if at < 0 {
		cands = append(cands, stand)
		at = len(cands) - 1
	}
	n := len(rv.replay.Game.Players)
	pos := &Position{Lexicon: rv.opts.Tables.Lexicon(), Board: &t.Board, Rack: t.Rack, Unseen: unseen, BagLen: t.BagLen,
		Players: n, Scores: moverFirst(t.Totals, t.Player, n), Scoreless: t.Scoreless}
	pos.Last, pos.LastBoard = rv.lastMove(t)
	vals, err := rv.opts.Ranker.Rank(ctx, pos, cands)
	if err != nil {
		return fmt.Errorf("review: turn %d: %w", t.Number, err)
	}
	if len(vals) != len(cands) {
		return fmt.Errorf("review: turn %d: the ranker valued %d of %d moves", t.Number, len(vals), len(cands))
	}
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	// Valued moves first by value, then the others by static equity.
	slices.SortStableFunc(order, func(a, b int) int {
		va, vb := vals[a], vals[b]
		switch {
		case math.IsNaN(va) && math.IsNaN(vb):
			return cmp.Compare(cands[b].Equity, cands[a].Equity)
		case math.IsNaN(va):
			return 1
		case math.IsNaN(vb):
			return -1
		}
		return cmp.Compare(vb, va)
	})
	tr.Best = tr.Best[:0]
	for _, i := range order[:min(len(order), rv.opts.Top)] {
		m := describe(&t.Board, t.Rack, &cands[i])
		if v := vals[i]; !math.IsNaN(v) {
			m.Value = &v
		}
		tr.Best = append(tr.Best, m)
	}
	if v := vals[at]; !math.IsNaN(v) {
		tr.Played.Value = &v
	}
	best := vals[order[0]]
	if math.IsNaN(best) || math.IsNaN(vals[at]) {
		tr.Flags = append(tr.Flags, FlagNotRanked)
		return nil
	}
	tr.best = cands[order[0]]
	tr.EquityLost = best - vals[at]
	return nil
}

// turnRecorder keeps the best moves, the best bingo, the number of moves and
// how many beat what the turn yielded.
type turnRecorder struct {
	top     movegen.TopN
	bingo   movegen.BestScore
	n       int
	yielded rules.Equity
	better  int
}

func (r *turnRecorder) Record(m *move.Move) {
	r.n++
	if m.Equity > r.yielded {
		r.better++
	}
	r.top.Record(m)
	if m.Kind == move.Play && m.NumTiles == rules.RackSize {
		if !r.bingo.Found || move.ByEquity(m, &r.bingo.Best) < 0 {
			r.bingo.Best, r.bingo.Found = *m, true
		}
	}
}

// isPlayed reports whether m, one of the turn's best moves, is the move
// made (a legal one: a phony or a withdrawn play is never among them).
func (t *Turn) isPlayed(m *Move) bool {
	return t.Rank > 0 && move.Same(&m.m, &t.played)
}

// describe turns a move into its report form.
func describe(b *rules.Board, rack rules.Rack, m *move.Move) Move {
	return Move{
		Description: move.Describe(b, rack, m),
		Bingo:       m.Kind == move.Play && m.NumTiles == rules.RackSize,
		m:           *m,
	}
}

// moverFirst orders the scores of a game of n players from the player to
// move's on, in turn order.
func moverFirst(totals [rules.MaxPlayers]int, mover, n int) [rules.MaxPlayers]int {
	var s [rules.MaxPlayers]int
	for i := range n {
		s[i] = totals[(mover+i)%n]
	}
	return s
}

// summarize totals the reviewed turns by player and picks the costliest.
func summarize(rep *Report, players [rules.MaxPlayers]bool) Summary {
	s := Summary{Players: []PlayerSummary{}, Costliest: []Costly{}}
	for i, p := range rep.Players {
		if !players[i] {
			continue
		}
		ps := PlayerSummary{Player: p.Nick}
		for _, t := range rep.Turns {
			if t.Player != p.Nick {
				continue
			}
			if !t.Reviewed {
				ps.Skipped++
				continue
			}
			ps.Turns++
			ps.EquityLost += t.EquityLost
			if t.EquityLost <= 0 {
				ps.BestMoves++
			}
			for _, f := range t.Flags {
				switch f {
				case FlagMissedBingo:
					ps.MissedBingos++
				case FlagPhony:
					ps.Phonies++
				}
			}
		}
		if ps.Turns > 0 {
			ps.MeanEquityLost = ps.EquityLost / float64(ps.Turns)
		}
		ps.EquityLost = rules.RoundMilli(ps.EquityLost)
		ps.MeanEquityLost = rules.RoundMilli(ps.MeanEquityLost)
		s.Players = append(s.Players, ps)
	}
	var costly []Costly
	for _, t := range rep.Turns {
		if t.Reviewed && t.EquityLost > 0 {
			c := Costly{Turn: t.Turn, Player: t.Player, Played: t.Played.Move, EquityLost: t.EquityLost}
			if len(t.Best) > 0 {
				c.Best = t.Best[0].Move
			}
			costly = append(costly, c)
		}
	}
	slices.SortStableFunc(costly, func(a, b Costly) int { return cmp.Compare(b.EquityLost, a.EquityLost) })
	s.Costliest = append(s.Costliest, costly[:min(len(costly), MaxCostliest)]...)
	return s
}

// MaxCostliest is how many of the costliest turns the summary lists.
const MaxCostliest = 5
