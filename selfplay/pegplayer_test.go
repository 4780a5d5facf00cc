package selfplay

import (
	"context"
	"strings"
	"testing"
	"time"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/infer"
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

// inferCounting counts the pre-endgame turns on which a pegPlayer with
// inference has the opponent's last move to weight its draws by.
type inferCounting struct {
	*pegPlayer
	weighted, turns *int
}

func (c inferCounting) Choose(ctx context.Context, v *game.View) (move.Move, error) {
	if v.BagLen >= 1 && v.BagLen <= c.maxBag && v.Rack.Count() == 7 {
		w, err := c.oppRackProb(v)
		if err != nil {
			return move.Move{}, err
		}
		*c.turns++
		if w != nil {
			*c.weighted++
		}
	}
	return c.pegPlayer.Choose(ctx, v)
}

// TestPEGInferPlayer: --pN-peg-infer needs the pre-endgame solver; with it
// the player weights its pre-endgame turns by the opponent's last move and
// plays legal games.
func TestPEGInferPlayer(t *testing.T) {
	if _, err := NewPlayer("equity", PlayerOptions{PEGInfer: true}); err == nil || !strings.Contains(err.Error(), "no PEG budget") {
		t.Errorf("equity player with PEGInfer and no PEG: %v", err)
	}
	if _, err := NewPlayer("full", PlayerOptions{PEGInfer: true, Leaves: gametest.ToyLeaves{}}); err != nil {
		t.Errorf("full player with PEGInfer: %v", err)
	}
	lex := testlex.GADDAG(t, testlex.Name())
	r := gametest.NewReplayer(t, testgen.Tables(lex))
	weighted, turns := 0, 0
	for seed := uint64(1); seed <= 8; seed++ {
		eq := game.NewEquityPlayer(gametest.ToyLeaves{}, eval.Terms{})
		pp := inferCounting{withPEG(eq, time.Second, 0, &infer.Options{Leaves: gametest.ToyLeaves{}}).(*pegPlayer), &weighted, &turns}
		rec, err := game.Play(context.Background(), testgen.Tables(lex), [2]game.Player{pp, game.NewEquityPlayer(gametest.ToyLeaves{}, eval.Terms{})}, seed, int(seed%2))
		if err != nil {
			t.Fatal(err)
		}
		r.Check("peg player with inference", rec)
	}
	if weighted == 0 || weighted != turns {
		t.Errorf("in 8 games %d of %d pre-endgame turns weighted by inference", weighted, turns)
	}
	t.Logf("%d pre-endgame turns weighted", weighted)
}
