package game_test

import (
	"context"
	"strings"
	"testing"

	"scrabble/game"
	"scrabble/internal/gametest"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/rules"
)

// TestChallengeRules plays a phony player (gametest.PhonyPlayer) against
// the equity player under each challenge rule, in games of two and three
// players: under every rule but void each phony is challenged off (taken
// back, 0 points, no draw, a scoreless turn lost), which the replayer checks
// independently, and the game goes on; under void a phony is an error.
func TestChallengeRules(t *testing.T) {
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	r := gametest.NewReplayer(t, tables)
	table := game.NewTable(tables)
	for _, rule := range []rules.ChallengeRule{rules.ChallengeDouble, rules.ChallengeSingle, rules.ChallengeFivePoint, rules.ChallengeTenPoint} {
		table.Rules = game.Rules{Challenge: rule}
		withdrawn := 0
		for seats := 2; seats <= 3; seats++ {
			for g := range 6 {
				players := seatPlayers(make([]string, seats)...)
				players[g%seats] = &gametest.PhonyPlayer{Every: 2}
				rec, err := table.PlaySeats(context.Background(), players, uint64(100*seats+g), 0)
				if err != nil {
					t.Fatalf("%s, %d seats, game %d: %v", rule, seats, g, err)
				}
				r.Check(rule.String(), rec)
				for _, tr := range rec.Turns {
					if tr.Withdrawn {
						withdrawn++
					}
				}
				if rec.Rules.Challenge != rule {
					t.Fatalf("record's rule %v, want %v", rec.Rules.Challenge, rule)
				}
			}
		}
		if withdrawn < 10 {
			t.Errorf("%s: only %d phonies withdrawn in 12 games", rule, withdrawn)
		}
	}
	// Phonies against passes: six scoreless turns, the phonies among them,
	// end the game.
	table.Rules = game.Rules{}
	rec, err := table.Play(context.Background(), [2]game.Player{&gametest.PhonyPlayer{Every: 1}, passer{}}, 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	r.Check("phonies and passes", rec)
	if rec.End != game.EndScoreless || len(rec.Turns) != rules.MaxScorelessTurns || rec.Phonies[0] != 3 {
		t.Fatalf("phonies against passes: end %v after %d turns, %d phonies", rec.End, len(rec.Turns), rec.Phonies[0])
	}
	table.Rules = game.Rules{Challenge: rules.ChallengeVoid}
	_, err = table.Play(context.Background(), [2]game.Player{&gametest.PhonyPlayer{Every: 1}, seatPlayers("equity")[0]}, 1, 0)
	if err == nil || !strings.Contains(err.Error(), "under the void challenge rule a phony cannot be played") {
		t.Fatalf("a phony under void: %v", err)
	}
}

// passer always passes.
type passer struct{}

func (passer) Name() string            { return "passer" }
func (passer) StartGame(game.Start)    {}
func (passer) Observe(int, *move.Move) {}
func (passer) Choose(context.Context, *game.View) (move.Move, error) {
	return move.Move{Kind: move.Pass}, nil
}
