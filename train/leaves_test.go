package train_test

import (
	"context"
	"testing"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/rules"
	"scrabble/train"
)

// TestObserveLeaves plays real games and checks the observations against
// the records: one per turn that drew tiles and has a later turn by the
// same player, each keyed by the tiles kept.
func TestObserveLeaves(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	var players [2]game.Player
	for i := range players {
		players[i] = game.NewEquityPlayer(nil, eval.Terms{})
	}
	for seed := uint64(1); seed <= 5; seed++ {
		rec, err := game.Play(context.Background(), testgen.Tables(lex), players, seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		stats := eval.NewLeaveStats()
		train.ObserveLeaves(stats, rec, nil)
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

type fiveEach struct{}

func (fiveEach) LeaveValue(*rules.Rack) rules.Equity { return 5000 }

// TestObserveLeavesBootstraps: with leave values, a turn's worth gains the
// value of the leave the next turn kept, when that turn drew tiles.
func TestObserveLeavesBootstraps(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	var players [2]game.Player
	for i := range players {
		players[i] = game.NewEquityPlayer(nil, eval.Terms{})
	}
	rec, err := game.Play(context.Background(), testgen.Tables(lex), players, 11, 0)
	if err != nil {
		t.Fatal(err)
	}
	plain, boot := eval.NewLeaveStats(), eval.NewLeaveStats()
	train.ObserveLeaves(plain, rec, nil)
	train.ObserveLeaves(boot, rec, fiveEach{})
	// Turns whose next turn (same player) drew: each adds 5 points.
	bonus := 0
	for i, turn := range rec.Turns {
		if turn.Drawn.Count() == 0 {
			continue
		}
		for _, later := range rec.Turns[i+1:] {
			if later.Player == turn.Player {
				if later.Drawn.Count() > 0 {
					bonus++
				}
				break
			}
		}
	}
	if bonus == 0 {
		t.Fatal("no turn to bootstrap from: the test is too weak")
	}
	// The mean worth of a turn rises by 5 points times the share of
	// turns whose next turn drew.
	if plain.Observations() != boot.Observations() {
		t.Fatalf("observations %d vs %d", plain.Observations(), boot.Observations())
	}
	plainMean, bootMean := plain.MeanWorth(), boot.MeanWorth()
	want := 5.0 * float64(bonus) / float64(plain.Observations())
	if d := bootMean - plainMean; d < want-1e-9 || d > want+1e-9 {
		t.Errorf("bootstrapping moved the mean by %.6f points, want %.6f", d, want)
	}
}

// TestObserveRackLeaves plays real games and checks the observations
// against the records: every turn played from a full rack that drew tiles
// credits each leave its rack holds with the move's score plus, with leave
// values, the value of the tiles kept.
func TestObserveRackLeaves(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	var players [2]game.Player
	for i := range players {
		players[i] = game.NewEquityPlayer(nil, eval.Terms{})
	}
	for seed := uint64(1); seed <= 3; seed++ {
		rec, err := game.Play(context.Background(), testgen.Tables(lex), players, seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		plain, boot := eval.NewLeaveStats(), eval.NewLeaveStats()
		train.ObserveRackLeaves(plain, rec, nil)
		train.ObserveRackLeaves(boot, rec, fiveEach{})
		turns, sum := int64(0), 0.0
		held := map[rules.Rack]int64{}
		for _, turn := range rec.Turns {
			if turn.Drawn.Count() == 0 || turn.Rack.Count() != rules.RackSize {
				continue
			}
			turns++
			sum += float64(turn.Score)
			tiles := turn.Rack.Tiles()
			leaves := map[rules.Rack]bool{}
			for mask := 1; mask < 1<<len(tiles)-1; mask++ {
				var sub rules.Rack
				for i, l := range tiles {
					if mask>>i&1 == 1 {
						sub.Add(l)
					}
				}
				leaves[sub] = true
			}
			for sub := range leaves {
				held[sub]++
			}
		}
		if turns < 10 || plain.Observations() != turns || boot.Observations() != turns {
			t.Fatalf("seed %d: %d and %d observations, want %d (a real game has many)", seed, plain.Observations(), boot.Observations(), turns)
		}
		for sub, n := range held {
			if got := plain.Count(&sub); got != n {
				t.Errorf("seed %d: leave %s counted %d times, want %d", seed, sub.String(), got, n)
			}
		}
		// Every observed move kept tiles worth 5 points by fiveEach (a
		// play of all seven keeps none, and fiveEach values even the empty
		// leave at 5).
		if d := plain.MeanWorth() - sum/float64(turns); d > 1e-9 || d < -1e-9 {
			t.Errorf("seed %d: mean worth %.6f, want the mean score %.6f", seed, plain.MeanWorth(), sum/float64(turns))
		}
		if d := boot.MeanWorth() - plain.MeanWorth(); d < 5-1e-9 || d > 5+1e-9 {
			t.Errorf("seed %d: bootstrapping moved the mean by %.6f points, want 5", seed, d)
		}
	}
}
