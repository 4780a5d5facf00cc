package selfplay

import (
	"context"
	"fmt"
	"time"

	"scrabble/game"
	"scrabble/infer"
	"scrabble/move"
	"scrabble/peg"
	"scrabble/position"
	"scrabble/rules"
)

// pegPlayer is a player that solves its pre-endgame turns (1 to maxBag
// tiles in the bag) with the pre-endgame solver, within a time cap, and
// leaves the other turns, and any turn where no candidate was valued in
// time, to the player it wraps.
type pegPlayer struct {
	game.Player
	budget time.Duration
	maxBag int
	start  game.Start
	// With infer set, the solve's draws are weighted by what the
	// opponent's last move (last, when haveLast) says they kept.
	infer    *infer.Options
	inferer  *infer.Inferer
	last     move.Move
	haveLast bool
}

// withPEG wraps p to solve its pre-endgame turns, 1 to maxBag tiles in the
// bag (0: peg.MaxBag), within budget a move; with io set, each solve's
// draws are weighted by what the opponent's last move says they kept.
func withPEG(p game.Player, budget time.Duration, maxBag int, io *infer.Options) game.Player {
	if maxBag <= 0 || maxBag > peg.MaxBag {
		maxBag = peg.MaxBag
	}
	return &pegPlayer{Player: p, budget: budget, maxBag: maxBag, infer: io}
}

func (p *pegPlayer) Name() string { return p.Player.Name() + "+peg" }

func (p *pegPlayer) StartGame(s game.Start) {
	if p.infer != nil && (p.inferer == nil || p.start.Tables != s.Tables) {
		p.inferer = infer.New(s.Tables)
	}
	p.start = s
	p.haveLast = false
	p.Player.StartGame(s)
}

func (p *pegPlayer) Observe(seat int, m *move.Move) {
	p.Player.Observe(seat, m)
	p.haveLast = seat != p.start.Seat
	if p.haveLast {
		p.last = *m
		if m.Kind == move.Exchange {
			p.last.Len = 0 // the tiles were not seen
		}
	}
}

// oppRackProb is the chance of each rack the opponent may hold, inferred
// from their last move on the board before it (v's less its new tiles);
// nil without inference or a last move.
func (p *pegPlayer) oppRackProb(v *game.View) (func(rules.Rack) float64, error) {
	if p.infer == nil || !p.haveLast {
		return nil, nil
	}
	sit := infer.After(v.Board, v.Rack, p.last)
	res, err := p.inferer.Infer(&sit, *p.infer)
	if err != nil {
		return nil, fmt.Errorf("inferring the opponent's rack: %w", err)
	}
	return res.RackProb, nil
}

func (p *pegPlayer) Choose(ctx context.Context, v *game.View) (move.Move, error) {
	if v.Seats != 2 {
		return move.Move{}, fmt.Errorf("the pre-endgame solver plays two-player games, not %d", v.Seats)
	}
	if v.BagLen < 1 || v.BagLen > p.maxBag || v.Rack.Count() != 7 {
		return p.Player.Choose(ctx, v)
	}
	pos := &position.Position{Board: *v.Board, ZeroTurns: v.Scoreless}
	pos.Racks[0] = v.Rack
	pos.Scores[0], pos.Scores[1] = v.Scores[v.Seat], v.Scores[1-v.Seat]
	weights, err := p.oppRackProb(v)
	if err != nil {
		return move.Move{}, err
	}
	sctx, cancel := context.WithTimeout(ctx, p.budget)
	defer cancel()
	// One thread: games already run in parallel, one a worker.
	res, err := peg.Solve(sctx, p.start.Tables, pos, peg.Options{Threads: 1, Top: 1, TTMB: 64, OppRackProb: weights})
	if err != nil {
		return move.Move{}, fmt.Errorf("pre-endgame: %w", err)
	}
	if ctx.Err() != nil {
		return move.Move{}, ctx.Err()
	}
	if len(res.Candidates) == 0 {
		return p.Player.Choose(ctx, v)
	}
	return res.Candidates[0].Move, nil
}
