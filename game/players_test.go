package game_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/gametest"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/rules"
)

// seatPlayers makes a fresh player for each name ("score" or "equity").
func seatPlayers(names ...string) []game.Player {
	ps := make([]game.Player, len(names))
	for i, n := range names {
		if n == "score" {
			ps[i] = game.NewScorePlayer()
		} else {
			ps[i] = game.NewEquityPlayer(gametest.ToyLeaves{}, eval.Terms{})
		}
	}
	return ps
}

// TestMultiplayerGamesLegal plays games of three and four players and
// replays each against the rules (gametest.Replayer: turns in seat order
// from the first mover, every move legal and scored right, draws, the
// end by an empty rack or six scoreless turns over all players, and the
// rule sheet's end-of-game adjustments worked out independently).
func TestMultiplayerGamesLegal(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	tables := testgen.Tables(lex)
	r := gametest.NewReplayer(t, tables)
	for _, names := range [][]string{
		{"equity", "score", "equity"},
		{"score", "equity", "equity", "score"},
		{"equity", "equity", "equity", "equity"},
	} {
		n := len(names)
		table := game.NewTable(tables)
		ends := map[game.EndReason]int{}
		firsts := map[int]int{}
		for i := range 24 {
			rec, err := table.PlaySeats(context.Background(), seatPlayers(names...), uint64(500+i), i%n)
			if err != nil {
				t.Fatal(err)
			}
			r.Check(strings.Join(names, "-"), rec)
			ends[rec.End]++
			firsts[rec.First]++
			if rec.Seats != n || rec.Players[n-1] != names[n-1] || (n < rules.MaxPlayers && rec.Players[n] != "") {
				t.Fatalf("record of %d seats, players %q", rec.Seats, rec.Players)
			}
			sum := 0
			for s := range n {
				sum += rec.Adjustments[s]
			}
			if rec.End == game.EndOut && sum != 0 {
				t.Fatalf("%d players, out: adjustments %v do not sum to 0", n, rec.Adjustments)
			}
		}
		if ends[game.EndOut] == 0 || len(firsts) != n {
			t.Errorf("%d players: ends %v, first movers %v: want games ended by going out, every seat first", n, ends, firsts)
		}
		t.Logf("%s: ends %v", strings.Join(names, "-"), ends)
	}
}

// TestMultiplayerDeterministic: the same seed, players and first mover
// give the same game; another first mover another.
func TestMultiplayerDeterministic(t *testing.T) {
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	play := func(first int) *game.Record {
		rec, err := game.NewTable(tables).PlaySeats(context.Background(), seatPlayers("equity", "score", "equity"), 77, first)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	a, b, c := play(1), play(1), play(2)
	if !reflect.DeepEqual(a, b) {
		t.Error("two games with the same seed differ")
	}
	if reflect.DeepEqual(a.Turns, c.Turns) {
		t.Error("another first mover played the same game")
	}
}

// TestTargetScore: a game to a target ends at the end of the turn in which
// a player reaches it, with no end-of-game adjustments.
func TestTargetScore(t *testing.T) {
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	r := gametest.NewReplayer(t, tables)
	for _, n := range []int{2, 3, 4} {
		targets, err := rules.SuggestedTargets(n)
		if err != nil {
			t.Fatal(err)
		}
		table := game.NewTable(tables)
		table.Rules.TargetScore = targets[0]
		for i := range 8 {
			names := []string{"equity", "score", "equity", "score"}[:n]
			rec, err := table.PlaySeats(context.Background(), seatPlayers(names...), uint64(900+i), 0)
			if err != nil {
				t.Fatal(err)
			}
			r.Check("target", rec)
			last := rec.Turns[len(rec.Turns)-1]
			if rec.End != game.EndTarget || last.Totals[last.Player] < targets[0] {
				t.Fatalf("%d players, target %d: ended %v with %v", n, targets[0], rec.End, last.Totals)
			}
			if rec.Adjustments != [rules.MaxPlayers]int{} {
				t.Fatalf("adjustments %v at a target score", rec.Adjustments)
			}
		}
	}
}

func TestPlaySeatsErrors(t *testing.T) {
	table := game.NewTable(testgen.Tables(testlex.GADDAG(t, testlex.Name())))
	p := game.NewScorePlayer()
	for _, c := range []struct {
		name    string
		players []game.Player
		first   int
		want    string
	}{
		{"one player", seatPlayers("score"), 0, "1 players: a game has 2 to 4"},
		{"five players", seatPlayers("score", "score", "score", "score", "score"), 0, "5 players"},
		{"a player twice", []game.Player{p, game.NewScorePlayer(), p}, 0, "the same player in two seats"},
		{"an empty seat", []game.Player{p, nil, game.NewScorePlayer()}, 0, "no player in seat 1"},
		{"first out of range", seatPlayers("score", "score", "score"), 3, "want a seat from 0 to 2"},
	} {
		if _, err := table.PlaySeats(context.Background(), c.players, 1, c.first); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// TestRecordPlaces: the places and the winner follow the record's
// tiebreak, the Hasbro one reading the scores before the adjustments.
func TestRecordPlaces(t *testing.T) {
	rec := &game.Record{Seats: 3, Scores: [4]int{300, 300, 250}, Adjustments: [4]int{-10, 15, -5}}
	if got := rec.Places(); !slices.Equal(got, []int{1, 1, 3}) || rec.Winner() != -1 {
		t.Errorf("naspa: places %v, winner %d; want a shared first place, no winner", got, rec.Winner())
	}
	rec.Rules.Tiebreak = rules.TiebreakHasbro // before: 310, 285, 255
	if got := rec.Places(); !slices.Equal(got, []int{1, 2, 3}) || rec.Winner() != 0 {
		t.Errorf("hasbro: places %v, winner %d; want seat 0 first", got, rec.Winner())
	}
}

// TestMultiplayerSixScorelessTurns: with no word to play, a game of three
// or four players ends after six scoreless turns counted over all players
// (two turns each for three, one or two for four), each losing their own
// tiles' value.
func TestMultiplayerSixScorelessTurns(t *testing.T) {
	lex := gametest.TinyLexicon(t)
	r := gametest.NewReplayer(t, testgen.Tables(lex))
	for _, names := range [][]string{{"score", "equity", "score"}, {"equity", "score", "score", "equity"}} {
		rec, err := game.NewTable(testgen.Tables(lex)).PlaySeats(context.Background(), seatPlayers(names...), 5, 1)
		if err != nil {
			t.Fatal(err)
		}
		r.Check("tiny", rec)
		if rec.End != game.EndScoreless || len(rec.Turns) != rules.MaxScorelessTurns {
			t.Fatalf("%v: end %v after %d turns", names, rec.End, len(rec.Turns))
		}
		for s := range len(names) {
			if rec.Scores[s] != -rec.EndRacks[s].Value() {
				t.Errorf("%v seat %d: score %d, rack %s", names, s, rec.Scores[s], rec.EndRacks[s])
			}
		}
	}
}
