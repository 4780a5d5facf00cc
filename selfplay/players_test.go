package selfplay

import (
	"strings"
	"testing"

	"scrabble/game"
	"scrabble/internal/gametest"
)

// newPlayers makes the named players from the registry.
func newPlayers(t testing.TB, names [2]string, opts [2]PlayerOptions) [2]game.Player {
	t.Helper()
	var ps [2]game.Player
	for i := range ps {
		p, err := NewPlayer(names[i], opts[i])
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
	return ps
}

func TestNewPlayer(t *testing.T) {
	if _, err := NewPlayer("nobody", PlayerOptions{}); err == nil || !strings.Contains(err.Error(), "equity, full, score, sim") {
		t.Errorf("unknown player: %v", err)
	}
	if _, err := NewPlayer("score", PlayerOptions{Leaves: gametest.ToyLeaves{}}); err == nil {
		t.Error("score player accepted leaves")
	}
	p, err := NewPlayer("equity", PlayerOptions{Leaves: gametest.ToyLeaves{}})
	if err != nil || p.Name() != "equity" {
		t.Errorf("equity: %v %v", p, err)
	}
}
