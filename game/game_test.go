package game_test

import (
	"context"
	"reflect"
	"testing"

	"scrabble/eval"
	"scrabble/game"
	"scrabble/internal/gametest"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/rules"
)

// options are a test player's settings.
type options struct {
	Leaves movegen.LeaveValuer
	Terms  eval.Terms
}

// newPlayers makes the named players ("score" or "equity").
func newPlayers(t testing.TB, names [2]string, opts [2]options) [2]game.Player {
	t.Helper()
	var ps [2]game.Player
	for i := range ps {
		switch names[i] {
		case "score":
			ps[i] = game.NewScorePlayer()
		case "equity":
			ps[i] = game.NewEquityPlayer(opts[i].Leaves, opts[i].Terms)
		default:
			t.Fatalf("no player %q", names[i])
		}
	}
	return ps
}

func TestPlayGameLegal(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	r := gametest.NewReplayer(t, testgen.Tables(lex))
	ctx := context.Background()
	cases := []struct {
		names [2]string
		opts  [2]options
		games int
	}{
		{[2]string{"equity", "score"}, [2]options{}, 30},
		{[2]string{"score", "equity"}, [2]options{1: {Leaves: gametest.ToyLeaves{}}}, 20},
		{[2]string{"equity", "equity"}, [2]options{{Leaves: gametest.ToyLeaves{}}, {}}, 20},
		{[2]string{"equity", "equity"}, [2]options{{Leaves: gametest.ToyLeaves{}, Terms: eval.Terms{Balance: 3, Open: 2}}, {}}, 20},
	}
	var ends [3]int
	var exchanges, bingos, blanks, zeroPlays int
	for _, c := range cases {
		ps := newPlayers(t, c.names, c.opts)
		for i := range c.games {
			rec, err := game.Play(ctx, testgen.Tables(lex), ps, uint64(1000+i), i%2)
			if err != nil {
				t.Fatal(err)
			}
			r.Check(c.names[0]+"-"+c.names[1], rec)
			ends[rec.End]++
			exchanges += rec.Exchanges[0] + rec.Exchanges[1]
			bingos += rec.Bingos[0] + rec.Bingos[1]
			for _, tr := range rec.Turns {
				if tr.Move.Kind == move.Play {
					for _, l := range tr.Move.Tiles[:tr.Move.Len] {
						if l.IsBlanked() {
							blanks++
						}
					}
					if tr.Score == 0 {
						zeroPlays++
					}
				}
			}
		}
	}
	t.Logf("ends: out %d, scoreless %d; exchanges %d, bingos %d, blanks played %d, 0-point plays %d",
		ends[game.EndOut], ends[game.EndScoreless], exchanges, bingos, blanks, zeroPlays)
	if ends[game.EndOut] == 0 || exchanges == 0 || bingos == 0 || blanks == 0 {
		t.Error("the games did not cover going out, exchanges, bingos and blanks")
	}
}

func TestPlayGameDeterministic(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	ctx := context.Background()
	names := [2]string{"equity", "score"}
	opts := [2]options{{Leaves: gametest.ToyLeaves{}}, {}}
	fresh := newPlayers(t, names, opts)
	a, err := game.Play(ctx, testgen.Tables(lex), fresh, 42, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Players reused after another game must start afresh.
	used := newPlayers(t, names, opts)
	if _, err := game.Play(ctx, testgen.Tables(lex), used, 7, 0); err != nil {
		t.Fatal(err)
	}
	b, err := game.Play(ctx, testgen.Tables(lex), used, 42, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, same players: different games")
	}
	c, err := game.Play(ctx, testgen.Tables(lex), used, 43, 1)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.Racks, c.Racks) {
		t.Error("seeds 42 and 43 dealt the same racks")
	}
}

func TestPlayGameCancelled(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := game.Play(ctx, testgen.Tables(lex), newPlayers(t, [2]string{"score", "score"}, [2]options{}), 1, 0); err != context.Canceled {
		t.Errorf("cancelled game: %v", err)
	}
}

func TestSixScorelessTurns(t *testing.T) {
	lex := gametest.TinyLexicon(t)
	r := gametest.NewReplayer(t, testgen.Tables(lex))
	for _, names := range [][2]string{{"score", "score"}, {"equity", "score"}} {
		rec, err := game.Play(context.Background(), testgen.Tables(lex), newPlayers(t, names, [2]options{}), 5, 0)
		if err != nil {
			t.Fatal(err)
		}
		r.Check("tiny", rec)
		if rec.End != game.EndScoreless || len(rec.Turns) != rules.MaxScorelessTurns {
			t.Fatalf("%v: end %v after %d turns", names, rec.End, len(rec.Turns))
		}
		for s := range 2 {
			if rec.Exchanges[s] != 3 || rec.Scores[s] != -rec.EndRacks[s].Value() {
				t.Errorf("%v seat %d: %d exchanges, score %d, rack %s", names, s, rec.Exchanges[s], rec.Scores[s], rec.EndRacks[s])
			}
		}
	}
}

// TestPlayDistinctPlayers: one player value in both seats is refused.
func TestPlayDistinctPlayers(t *testing.T) {
	p := game.NewEquityPlayer(gametest.ToyLeaves{}, eval.Terms{})
	if _, err := game.Play(context.Background(), testgen.Tables(gametest.TinyLexicon(t)), [2]game.Player{p, p}, 1, 0); err == nil {
		t.Error("one player in both seats accepted")
	}
}

// TestTableReusesGenerator: a table's later games, on the generator the
// earlier ones left, are the games a fresh table plays.
func TestTableReusesGenerator(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	ctx := context.Background()
	names := [2]string{"equity", "score"}
	opts := [2]options{{Leaves: gametest.ToyLeaves{}}, {}}
	table := game.NewTable(testgen.Tables(lex))
	for seed := uint64(1); seed <= 3; seed++ {
		got, err := table.Play(ctx, newPlayers(t, names, opts), seed, int(seed%2))
		if err != nil {
			t.Fatal(err)
		}
		want, err := game.Play(ctx, testgen.Tables(lex), newPlayers(t, names, opts), seed, int(seed%2))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: the table's game differs from a fresh one", seed)
		}
	}
}

// TestTermsChangePlay: the equity terms reach the player's choices (some
// game goes otherwise with them), and the games stay the same for the same
// seed.
func TestTermsChangePlay(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	ctx := context.Background()
	names := [2]string{"equity", "equity"}
	play := func(terms eval.Terms, seed uint64) *game.Record {
		ps := newPlayers(t, names, [2]options{{Leaves: gametest.ToyLeaves{}, Terms: terms}, {Leaves: gametest.ToyLeaves{}}})
		rec, err := game.Play(ctx, testgen.Tables(lex), ps, seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	for _, terms := range []eval.Terms{{Balance: 5}, {Open: 5}} {
		differ := 0
		for seed := uint64(1); seed <= 10; seed++ {
			with := play(terms, seed)
			if again := play(terms, seed); !reflect.DeepEqual(with, again) {
				t.Fatalf("terms %v, seed %d: two games differ", terms, seed)
			}
			if !reflect.DeepEqual(with.Turns, play(eval.Terms{}, seed).Turns) {
				differ++
			}
		}
		if differ == 0 {
			t.Errorf("terms %v changed none of 10 games", terms)
		}
	}
}
