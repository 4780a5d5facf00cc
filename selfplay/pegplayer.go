package selfplay

import (
	"context"
	"fmt"
	"time"

	"scrabble/game"
	"scrabble/move"
	"scrabble/peg"
	"scrabble/position"
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
}

// withPEG wraps p to solve its pre-endgame turns, 1 to maxBag tiles in the
// bag (0: peg.MaxBag), within budget a move.
func withPEG(p game.Player, budget time.Duration, maxBag int) game.Player {
	if maxBag <= 0 || maxBag > peg.MaxBag {
		maxBag = peg.MaxBag
	}
	return &pegPlayer{Player: p, budget: budget, maxBag: maxBag}
}

func (p *pegPlayer) Name() string { return p.Player.Name() + "+peg" }

func (p *pegPlayer) StartGame(s game.Start) {
	p.start = s
	p.Player.StartGame(s)
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
	sctx, cancel := context.WithTimeout(ctx, p.budget)
	defer cancel()
	// One thread: games already run in parallel, one a worker.
	res, err := peg.Solve(sctx, p.start.Tables, pos, peg.Options{Threads: 1, Top: 1, TTMB: 64})
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
