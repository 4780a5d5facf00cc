package selfplay

import (
	"context"
	"fmt"
	"time"

	"scrabble/endgame"
	"scrabble/game"
	"scrabble/move"
	"scrabble/position"
)

// endgamePlayer is a player that solves every bag-empty turn with the
// endgame solver, within a time cap, and leaves the other turns to the
// player it wraps.
type endgamePlayer struct {
	game.Player
	budget time.Duration
	opts   endgame.Options
	start  game.Start
}

// withEndgame wraps p to solve its bag-empty turns within budget a move.
func withEndgame(p game.Player, budget time.Duration) game.Player {
	// One thread: games already run in parallel, one a worker.
	return &endgamePlayer{Player: p, budget: budget, opts: endgame.Options{Threads: 1, TTMB: 64}}
}

func (p *endgamePlayer) Name() string { return p.Player.Name() + "+endgame" }

func (p *endgamePlayer) StartGame(s game.Start) {
	p.start = s
	p.Player.StartGame(s)
}

func (p *endgamePlayer) Choose(ctx context.Context, v *game.View) (move.Move, error) {
	if v.Seats != 2 {
		return move.Move{}, fmt.Errorf("the endgame solver plays two-player games, not %d", v.Seats)
	}
	if v.BagLen > 0 || v.Unseen.Count() == 0 || v.Rack.Count() == 0 {
		return p.Player.Choose(ctx, v)
	}
	pos := &position.Position{Board: *v.Board, ZeroTurns: v.Scoreless}
	pos.Racks[0], pos.Racks[1] = v.Rack, v.Unseen // with the bag empty the unseen tiles are the opponent's rack
	pos.Scores[0], pos.Scores[1] = v.Scores[v.Seat], v.Scores[1-v.Seat]
	sctx, cancel := context.WithTimeout(ctx, p.budget)
	defer cancel()
	res, err := endgame.Solve(sctx, p.start.Tables, pos, p.opts)
	if err != nil {
		return move.Move{}, fmt.Errorf("endgame: %w", err)
	}
	if ctx.Err() != nil {
		return move.Move{}, ctx.Err()
	}
	return res.Best, nil
}
