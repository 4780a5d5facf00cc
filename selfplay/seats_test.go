package selfplay

import (
	"context"
	"strings"
	"testing"
	"time"

	"scrabble/game"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
)

// TestTwoPlayerOnlyPlayers: the solvers' players say so when seated at a
// game of three, rather than playing it by two-player arithmetic. (The sim
// player plays games of 3 and 4: sim.TestSimPlayerField.)
func TestTwoPlayerOnlyPlayers(t *testing.T) {
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	for _, c := range []struct {
		name string
		opts PlayerOptions
		want string
	}{
		{"equity", PlayerOptions{Endgame: time.Second}, "the endgame solver plays two-player games, not 3"},
		{"equity", PlayerOptions{PEG: time.Second}, "the pre-endgame solver plays two-player games, not 3"},
	} {
		p, err := NewPlayer(c.name, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		others := []game.Player{game.NewScorePlayer(), game.NewScorePlayer()}
		_, err = game.NewTable(tables).PlaySeats(context.Background(), append([]game.Player{p}, others...), 3, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want %q", c.name, c.opts, err, c.want)
		}
	}
}
