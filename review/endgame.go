package review

import (
	"context"
	"fmt"

	"scrabble/endgame"
	"scrabble/gcg"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/rules"
)

// DefaultEndgameNodes is the search budget of a bag-empty turn's solve
// (Options.EndgameNodes): most endgames are proven well within it.
const DefaultEndgameNodes = 100_000

// Endgame is what the endgame solver says of a turn played with the bag
// empty: the value of perfect play and of the move made, and the perfect
// line.
type Endgame struct {
	// Value is the change in spread (mover minus opponent) to the end of
	// the game with perfect play from the turn's position; PlayedValue
	// that of the move made, both sides playing perfectly after it.
	// PlayedValue is nil when the move made could not be searched (a
	// phony that stood).
	Value       int  `json:"value"`
	PlayedValue *int `json:"played_value,omitempty"`
	Proven      bool `json:"proven"` // the values given are exact
	Depth       int  `json:"depth"`
	// Line is the perfect line from the turn's position, move by move in
	// notation, the player to move first.
	Line []string `json:"line"`
}

// solveEndgame values a bag-empty turn by the endgame solver: the best
// move and the perfect line, and the move made (stand, the pass for a play
// taken back) with perfect play after it. equity_lost is the spread the
// move gave up. A phony that stood cannot be searched (the solver plays
// words of the lexicon): only the best line is given, flagged not_ranked.
func (rv *reviewer) solveEndgame(ctx context.Context, t *gcg.Turn, tr *Turn, unseen rules.Rack, valuer movegen.LeaveValuer, stand move.Move, phony bool) error {
	// Two players only: Review values the turns of a larger game statically.
	pos := &position.Position{Board: t.Board, ZeroTurns: t.Scoreless,
		Scores: [rules.MaxPlayers]int{t.Totals[t.Player], t.Totals[1-t.Player]}}
	pos.Racks[0], pos.Racks[1] = t.Rack, unseen // the bag is empty: the unseen tiles are the opponent's
	// One thread and a node budget: the same review on any machine.
	opts := endgame.Options{Threads: 1, TTMB: 64, MaxNodes: rv.opts.EndgameNodes}
	res, err := endgame.Solve(ctx, rv.opts.Tables, pos, opts)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("review: turn %d: %w", t.Number, err)
	}
	eg := &Endgame{Value: res.Value, Proven: res.Proven, Depth: res.Depth, Line: []string{}}
	for _, st := range res.PV {
		eg.Line = append(eg.Line, st.Notation)
	}
	// The static equity, by the turn's valuer, as its other moves show it.
	leave := res.Best.Leave(t.Rack)
	res.Best.Equity = rules.FromPoints(res.Best.Score) + valuer.LeaveValue(&leave)
	best := describe(&t.Board, t.Rack, &res.Best)
	v := float64(res.Value)
	best.Value = &v
	// The solver's move first, then the static ranking's others (valued
	// by static equity only).
	rest := tr.Best
	tr.Best = []Move{best}
	for _, m := range rest {
		if !move.Same(&m.m, &res.Best) && (rv.opts.Top == 0 || len(tr.Best) < rv.opts.Top) {
			tr.Best = append(tr.Best, m)
		}
	}
	tr.best = res.Best
	tr.Endgame = eg
	if phony {
		tr.Flags = append(tr.Flags, FlagNotRanked)
		return nil
	}
	opts.Restrict = []move.Move{stand}
	one, err := endgame.Solve(ctx, rv.opts.Tables, pos, opts)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		tr.Flags = append(tr.Flags, FlagNotRanked)
		return nil
	}
	eg.PlayedValue, eg.Proven = &one.Value, eg.Proven && one.Proven
	pv := float64(one.Value)
	tr.Played.Value = &pv
	for i := range tr.Best[1:] { // the move made among the static runners-up
		if m := &tr.Best[1+i]; move.Same(&m.m, &stand) {
			m.Value = &pv
		}
	}
	tr.EquityLost = float64(res.Value - one.Value)
	return nil
}
