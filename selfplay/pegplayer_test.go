package selfplay

import (
	"context"
	"testing"
	"time"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/gametest"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
)

// countingPEG counts the turns a pre-endgame player solved itself.
type countingPEG struct {
	*pegPlayer
	solved *int
}

func (c countingPEG) Choose(ctx context.Context, v *game.View) (move.Move, error) {
	if v.BagLen >= 1 && v.BagLen <= c.maxBag && v.Rack.Count() == 7 {
		*c.solved++
	}
	return c.pegPlayer.Choose(ctx, v)
}

// TestFullPlayer plays the full player (with small budgets) against the
// equity player: the games are legal, the player's name says what it
// wraps, and its pre-endgame turns go to the solver.
func TestFullPlayer(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	p, err := NewPlayer("full", PlayerOptions{Leaves: gametest.ToyLeaves{}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "sim+peg+endgame" {
		t.Errorf("full player named %q", p.Name())
	}
	cfg := baseConfig(lex, 4)
	cfg.Players = []string{"full", "equity"}
	cfg.Options[0].PEG, cfg.Options[0].Endgame = 2*time.Second, time.Second
	cfg.Options[0].Sim.Iterations, cfg.Options[0].Sim.Candidates = 8, 4
	_, recs, err := run(t, context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := gametest.NewReplayer(t, testgen.Tables(lex))
	for _, rec := range recs {
		r.Check("full", rec)
	}
	// The wrapper solves the pre-endgame turns it is given.
	solved := 0
	for seed := uint64(1); seed <= 4; seed++ {
		sim, err := NewPlayer("sim", PlayerOptions{Leaves: gametest.ToyLeaves{}, Sim: cfg.Options[0].Sim})
		if err != nil {
			t.Fatal(err)
		}
		pp := countingPEG{withPEG(sim, 2*time.Second, 0, nil).(*pegPlayer), &solved}
		rec, err := game.Play(context.Background(), testgen.Tables(lex), [2]game.Player{pp, game.NewEquityPlayer(gametest.ToyLeaves{}, eval.Terms{})}, seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		r.Check("peg player", rec)
	}
	if solved == 0 {
		t.Error("in 4 games no pre-endgame turn reached the solver")
	}
	t.Logf("%d pre-endgame turns solved in 4 games", solved)
}
