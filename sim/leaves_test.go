package sim_test

import (
	"context"
	"testing"

	"scrabble/eval"
	"scrabble/internal/testlex"
	"scrabble/rules"
	"scrabble/sim"
)

// TestObserveLeaves plays real games and checks the observations against
// the records: one per turn that drew tiles and has a later turn by the
// same player, each keyed by the tiles kept.
func TestObserveLeaves(t *testing.T) {
	lex := testlex.GADDAG(t, "NWL23")
	var players [2]sim.Player
	for i := range players {
		p, err := sim.NewPlayer("equity", sim.PlayerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		players[i] = p
	}
	for seed := uint64(1); seed <= 5; seed++ {
		rec, err := sim.PlayGame(context.Background(), lex, players, seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		stats := eval.NewLeaveStats()
		sim.ObserveLeaves(stats, rec)
		want := int64(0)
		kept := map[rules.Rack]int64{}
		for i, turn := range rec.Turns {
			if turn.Drawn.Count() == 0 {
				continue
			}
			for _, later := range rec.Turns[i+1:] {
				if later.Player == turn.Player {
					want++
					leave := turn.Rack
					leave.Sub(turn.Move.Used())
					kept[leave]++
					break
				}
			}
		}
		if stats.Observations() != want || want < 10 {
			t.Fatalf("seed %d: %d observations, want %d (a real game has many)", seed, stats.Observations(), want)
		}
		for leave, n := range kept {
			if leave.Count() > 0 && stats.Count(&leave) != n {
				t.Errorf("seed %d: leave %s counted %d times, want %d", seed, leave.String(), stats.Count(&leave), n)
			}
		}
	}
}
