package review

import (
	"context"
	"fmt"

	"scrabble/gcg"
	"scrabble/infer"
	"scrabble/move"
	"scrabble/peg"
	"scrabble/position"
	"scrabble/rules"
)

// PEGMaxBag is the most tiles in the bag for which Options.PEG solves a
// turn's pre-endgame: with more than one the solve is staged, and its
// records are estimates unless the budget lets it finish.
const PEGMaxBag = peg.MaxBag

// PEG is what the pre-endgame solver says of a turn played with 1 to
// PEGMaxBag tiles in the bag: the best move by win percentage over the
// draws, then mean final spread, and the move made by the same measure.
type PEG struct {
	Best           string   `json:"best"`
	BestWinPct     float64  `json:"best_win_pct"`
	BestMeanSpread *float64 `json:"best_mean_spread"`
	// The move made; nil when it could not be valued (a phony that stood).
	PlayedWinPct     *float64 `json:"played_win_pct,omitempty"`
	PlayedMeanSpread *float64 `json:"played_mean_spread,omitempty"`
	// WinPctLost is the best's win percentage less the move made's.
	WinPctLost float64 `json:"win_pct_lost"`
	// Proven says both records are exact and the best is the best.
	Proven bool `json:"proven"`
}

// solvePEG values a pre-endgame turn by the pre-endgame solver within
// rv.opts.PEG (machine-dependent, unlike the node-bounded endgames): the
// best move and the move made (stand). Nothing is added when the solver
// settled no candidate in time.
func (rv *reviewer) solvePEG(ctx context.Context, t *gcg.Turn, tr *Turn, stand move.Move, phony bool) error {
	// Two players only: Review values the turns of a larger game statically.
	pos := &position.Position{Board: t.Board, ZeroTurns: t.Scoreless,
		Scores: [rules.MaxPlayers]int{t.Totals[t.Player], t.Totals[1-t.Player]}}
	pos.Racks[0] = t.Rack
	opts := peg.Options{Threads: 1, TTMB: 64, Top: 1}
	if rv.opts.PEGInfer != nil {
		if last, board := rv.lastMove(t); last != nil {
			io := *rv.opts.PEGInfer
			if io.Leaves == nil {
				io.Leaves = rv.opts.Leaves
			}
			if rv.inferer == nil {
				rv.inferer = infer.New(rv.opts.Tables)
			}
			res, err := rv.inferer.Infer(&infer.Situation{Board: *board, Rack: t.Rack, Last: *last}, io)
			if err != nil {
				return fmt.Errorf("review: turn %d: inferring the opponent's rack: %w", t.Number, err)
			}
			opts.OppRackProb = res.RackProb
		}
	}
	solve := func(o peg.Options) (*peg.Result, error) {
		sctx, cancel := context.WithTimeout(ctx, rv.opts.PEG)
		defer cancel()
		res, err := peg.Solve(sctx, rv.opts.Tables, pos, o)
		if err != nil && ctx.Err() == nil {
			err = fmt.Errorf("review: turn %d: %w", t.Number, err)
		}
		return res, err
	}
	res, err := solve(opts)
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if len(res.Candidates) == 0 {
		return nil
	}
	b := res.Candidates[0]
	p := &PEG{Best: b.Notation, BestWinPct: b.WinPct, Proven: res.Proven}
	if b.Spread != "" {
		ms := b.MeanSpread
		p.BestMeanSpread = &ms
	}
	tr.PEG = p
	if phony {
		p.Proven = false
		return nil
	}
	opts.Only = []move.Move{stand}
	staged := (res.BagTiles > 1 || !res.Proven) && !move.Same(&stand, &b.Move)
	if staged {
		// Estimates (a staged solve's, or a one-tile solve's stopped by
		// the clock) are comparable only at the same stage: the best and
		// the move made valued together, alone.
		opts.Only = []move.Move{b.Move, stand}
		opts.Top = 2
	}
	one, err := solve(opts)
	if err != nil || len(one.Candidates) == 0 {
		p.Proven = false
		return ctx.Err()
	}
	c := one.Candidates[0]
	if staged {
		if len(one.Candidates) < 2 {
			p.Proven = false
			return ctx.Err()
		}
		nb, nc := one.Candidates[0], one.Candidates[1]
		if move.Same(&nb.Move, &stand) {
			nb, nc = nc, nb
		}
		p.BestWinPct, p.BestMeanSpread = nb.WinPct, nil
		if nb.Spread != "" {
			ms := nb.MeanSpread
			p.BestMeanSpread = &ms
		}
		c = nc
	}
	wp := c.WinPct
	p.PlayedWinPct = &wp
	if c.Spread != "" {
		ms := c.MeanSpread
		p.PlayedMeanSpread = &ms
	}
	p.WinPctLost = p.BestWinPct - c.WinPct
	p.Proven = p.Proven && one.Proven
	return nil
}
