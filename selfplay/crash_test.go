package selfplay

import (
	"context"
	"regexp"
	"testing"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
)

// panicky is a player with a bug: it panics once the game reaches its
// fifth turn.
type panicky struct{ game.Player }

func (p *panicky) Name() string { return "panicky" }

func (p *panicky) Choose(ctx context.Context, v *game.View) (move.Move, error) {
	if v.Turn >= 4 {
		var moves []move.Move
		return moves[v.Turn], nil // index out of range
	}
	return p.Player.Choose(ctx, v)
}

// A player's panic, in any worker, ends the tournament with an error naming
// the game and where the panic was raised; the games finished before it are
// kept.
func TestSelfPlayPanicIsAnError(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	saved := registry
	t.Cleanup(func() { registry = saved })
	registry = append(registry[:len(registry):len(registry)], playerEntry{PlayerInfo{"panicky", "a bug"},
		func(PlayerOptions) (game.Player, error) {
			return &panicky{game.NewEquityPlayer(nil, eval.Terms{})}, nil
		}})
	for _, workers := range []int{1, 2} {
		dir := t.TempDir()
		cfg := Config{Tables: testgen.Tables(lex), Players: []string{"equity", "panicky"}, Games: 6, Seed: 5, Workers: workers, Dir: dir}
		s, err := Run(context.Background(), cfg)
		want := regexp.MustCompile(`^game \d+: internal error: runtime error: index out of range \[\d+\] with length 0 \(at selfplay/crash_test.go:\d+\)$`)
		if err == nil || !want.MatchString(err.Error()) {
			t.Fatalf("%d workers: error %v, want one matching %s", workers, err, want)
		}
		if s == nil || s.Played != 0 || len(readResults(t, dir)) != 0 {
			t.Errorf("%d workers: summary %+v after a panic in every game's fourth turn", workers, s)
		}
	}
}
