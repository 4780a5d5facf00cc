package sim

import (
	"context"
	"crypto/sha256"
	"reflect"
	"strings"
	"testing"

	"scrabble/eval"
	"scrabble/gaddag"
	"scrabble/internal/testlex"
	"scrabble/movegen"
	"scrabble/rules"
)

// toyLeaves is a crude leave valuer that makes exchanges worth considering:
// blanks and S are good, Q, V, W and duplicates bad.
type toyLeaves struct{}

func (toyLeaves) LeaveValue(r *rules.Rack) int32 {
	v := int32(0)
	for i, c := range r {
		n := int32(c)
		switch i {
		case 0:
			v += 25000 * n
		case 'S' - 'A' + 1:
			v += 8000 * n
		case 'Q' - 'A' + 1, 'V' - 'A' + 1, 'W' - 'A' + 1:
			v -= 9000 * n
		}
		if n > 1 {
			v -= 6000 * (n - 1)
		}
	}
	return v
}

func newPlayers(t testing.TB, names [2]string, opts [2]PlayerOptions) [2]Player {
	t.Helper()
	var ps [2]Player
	for i := range ps {
		p, err := NewPlayer(names[i], opts[i])
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
	return ps
}

// replayer checks game records move by move against the rules.
type replayer struct {
	t   *testing.T
	lex *gaddag.GADDAG
	gen *movegen.Generator // for the score player's check
}

func newReplayer(t *testing.T, lex *gaddag.GADDAG) *replayer {
	return &replayer{t: t, lex: lex, gen: movegen.New(lex)}
}

// check replays rec from its opening racks: the seats alternate, each rack
// is the previous one less the tiles used plus those drawn, every move is
// legal (ValidateMove on the board before it) and scores what the rules
// say, draws refill the rack as far as the bag allows, no tile is used
// twice, the game ends exactly when the rules say (a rack emptied with the
// bag empty, or six scoreless turns, 0-point plays included), and the final
// scores are the turn scores plus the end-of-game adjustments. The score
// player's plays are checked to be the highest-scoring ones.
func (r *replayer) check(name string, rec *GameRecord) {
	t := r.t
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s (seed %d): "+format, append([]any{name, rec.Seed}, args...)...)
	}
	var board rules.Board
	racks := rec.Racks
	for s := range 2 {
		if racks[s].Count() != rules.RackSize {
			fail("opening rack %d is %s", s, racks[s])
		}
	}
	bag := rules.TileCount() - 2*rules.RackSize
	var (
		scores, bingos, exch, passes [2]int
		scoreless                    int
		turnSum                      [2]int
	)
	seat := rec.First
	for i, tr := range rec.Turns {
		if tr.Player != seat {
			fail("turn %d is seat %d's, want %d", i+1, tr.Player, seat)
		}
		if tr.Rack != racks[seat] {
			fail("turn %d: rack %s, replay has %s", i+1, tr.Rack, racks[seat])
		}
		m := tr.Move
		if err := movegen.ValidateMove(&m, &board, racks[seat], bag, r.lex); err != nil {
			fail("turn %d: %s: %v", i+1, m.NotationOn(&board), err)
		}
		if rec.Players[seat] == "score" {
			r.checkTopScore(name, rec, i, &board, bag)
		}
		used := m.Used()
		switch m.Kind {
		case movegen.Play:
			if want := board.ScorePlay(m.Placed()); tr.Score != want || int(m.Score) != want {
				fail("turn %d: %s scored %d (move says %d), rules say %d", i+1, m.Notation(), tr.Score, m.Score, want)
			}
			board.Apply(m.Placed())
			if m.NumTiles == rules.RackSize {
				bingos[seat]++
			}
			if want := min(bag, used.Count()); tr.Drawn.Count() != want {
				fail("turn %d: drew %d tiles, want %d", i+1, tr.Drawn.Count(), want)
			}
			bag -= tr.Drawn.Count()
		case movegen.Exchange:
			exch[seat]++
			if tr.Score != 0 || tr.Drawn.Count() != used.Count() {
				fail("turn %d: exchange of %s scored %d and drew %s", i+1, used, tr.Score, tr.Drawn)
			}
		case movegen.Pass:
			passes[seat]++
			if tr.Score != 0 || tr.Drawn.Count() != 0 {
				fail("turn %d: pass scored %d and drew %s", i+1, tr.Score, tr.Drawn)
			}
		}
		racks[seat].Sub(used)
		racks[seat] = addRacks(racks[seat], tr.Drawn)
		// No tile twice: board and racks fit in the set.
		all := addRacks(addRacks(board.TileCounts(), racks[0]), racks[1])
		if !rules.Distribution.Contains(all) || all.Count()+bag != rules.TileCount() {
			fail("turn %d: board and racks hold %s with %d in the bag", i+1, all, bag)
		}
		scores[seat] += tr.Score
		turnSum[seat] += tr.Score
		if tr.Totals != scores {
			fail("turn %d: totals %v, want %v", i+1, tr.Totals, scores)
		}
		if tr.Score == 0 {
			scoreless++
		} else {
			scoreless = 0
		}
		out := bag == 0 && racks[seat].Count() == 0
		over := out || scoreless >= rules.MaxScorelessTurns
		if last := i == len(rec.Turns)-1; over != last {
			fail("turn %d: game over %v, but it is the last turn: %v", i+1, over, last)
		}
		if out && rec.End != EndOut || !out && over && rec.End != EndScoreless {
			fail("ended %v after turn %d (out %v, %d scoreless)", rec.End, i+1, out, scoreless)
		}
		seat = 1 - seat
	}
	if len(rec.Turns) == 0 {
		fail("no turns")
	}
	if rec.EndRacks != racks {
		fail("end racks %v, replay %v", rec.EndRacks, racks)
	}
	var adj [2]int
	switch rec.End {
	case EndOut:
		o := rec.Turns[len(rec.Turns)-1].Player
		adj[o] = 2 * racks[1-o].Value()
	case EndScoreless:
		adj = [2]int{-racks[0].Value(), -racks[1].Value()}
	default:
		fail("end %v", rec.End)
	}
	if rec.Adjustments != adj {
		fail("adjustments %v, want %v", rec.Adjustments, adj)
	}
	for s := range 2 {
		if rec.Scores[s] != turnSum[s]+adj[s] {
			fail("seat %d final %d, turns %d + adjustment %d", s, rec.Scores[s], turnSum[s], adj[s])
		}
	}
	if rec.Bingos != bingos || rec.Exchanges != exch || rec.Passes != passes {
		fail("counts: bingos %v exchanges %v passes %v, replay %v %v %v", rec.Bingos, rec.Exchanges, rec.Passes, bingos, exch, passes)
	}
}

// checkTopScore checks that turn i of the score player is the
// highest-scoring play, or with no play the exchange of the whole rack (the
// pass when the bag is too low).
func (r *replayer) checkTopScore(name string, rec *GameRecord, i int, board *rules.Board, bag int) {
	r.t.Helper()
	tr := &rec.Turns[i]
	r.gen.SetBoard(board)
	var best movegen.BestScore
	r.gen.GeneratePlays(&tr.Rack, &best)
	m := &tr.Move
	switch {
	case best.Found:
		if m.Kind != movegen.Play || m.Score != best.Best.Score {
			r.t.Fatalf("%s (seed %d) turn %d: score player made %s (%d), best play %s scores %d",
				name, rec.Seed, i+1, m.NotationOn(board), m.Score, best.Best.NotationOn(board), best.Best.Score)
		}
	case rules.CanExchange(bag):
		if m.Kind != movegen.Exchange || m.Used() != tr.Rack {
			r.t.Fatalf("%s turn %d: no play; score player made %s, not the exchange of %s", name, i+1, m.Notation(), tr.Rack)
		}
	default:
		if m.Kind != movegen.Pass {
			r.t.Fatalf("%s turn %d: no play, no exchange; score player made %s", name, i+1, m.Notation())
		}
	}
}

func TestPlayGameLegal(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	r := newReplayer(t, lex)
	ctx := context.Background()
	cases := []struct {
		names [2]string
		opts  [2]PlayerOptions
		games int
	}{
		{[2]string{"equity", "score"}, [2]PlayerOptions{}, 30},
		{[2]string{"score", "equity"}, [2]PlayerOptions{1: {Leaves: toyLeaves{}}}, 20},
		{[2]string{"equity", "equity"}, [2]PlayerOptions{{Leaves: toyLeaves{}}, {}}, 20},
		{[2]string{"equity", "equity"}, [2]PlayerOptions{{Leaves: toyLeaves{}, Terms: eval.Terms{Balance: 3, Open: 2}}, {}}, 20},
	}
	var ends [3]int
	var exchanges, bingos, blanks, zeroPlays int
	for _, c := range cases {
		ps := newPlayers(t, c.names, c.opts)
		for i := range c.games {
			rec, err := PlayGame(ctx, lex, ps, uint64(1000+i), i%2)
			if err != nil {
				t.Fatal(err)
			}
			r.check(c.names[0]+"-"+c.names[1], rec)
			ends[rec.End]++
			exchanges += rec.Exchanges[0] + rec.Exchanges[1]
			bingos += rec.Bingos[0] + rec.Bingos[1]
			for _, tr := range rec.Turns {
				if tr.Move.Kind == movegen.Play {
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
		ends[EndOut], ends[EndScoreless], exchanges, bingos, blanks, zeroPlays)
	if ends[EndOut] == 0 || exchanges == 0 || bingos == 0 || blanks == 0 {
		t.Error("the games did not cover going out, exchanges, bingos and blanks")
	}
}

func TestPlayGameDeterministic(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	ctx := context.Background()
	names := [2]string{"equity", "score"}
	opts := [2]PlayerOptions{{Leaves: toyLeaves{}}, {}}
	fresh := newPlayers(t, names, opts)
	a, err := PlayGame(ctx, lex, fresh, 42, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Players reused after another game must start afresh.
	used := newPlayers(t, names, opts)
	if _, err := PlayGame(ctx, lex, used, 7, 0); err != nil {
		t.Fatal(err)
	}
	b, err := PlayGame(ctx, lex, used, 42, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, same players: different games")
	}
	c, err := PlayGame(ctx, lex, used, 43, 1)
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
	if _, err := PlayGame(ctx, lex, newPlayers(t, [2]string{"score", "score"}, [2]PlayerOptions{}), 1, 0); err != context.Canceled {
		t.Errorf("cancelled game: %v", err)
	}
}

// tinyLexicon has no word a rack can make: every turn is scoreless.
func tinyLexicon(t *testing.T) *gaddag.GADDAG {
	t.Helper()
	g, err := gaddag.Build("TINY", []string{"QQQQ"}, sha256.Sum256([]byte("QQQQ\n")))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestSixScorelessTurns(t *testing.T) {
	lex := tinyLexicon(t)
	r := newReplayer(t, lex)
	for _, names := range [][2]string{{"score", "score"}, {"equity", "score"}} {
		rec, err := PlayGame(context.Background(), lex, newPlayers(t, names, [2]PlayerOptions{}), 5, 0)
		if err != nil {
			t.Fatal(err)
		}
		r.check("tiny", rec)
		if rec.End != EndScoreless || len(rec.Turns) != rules.MaxScorelessTurns {
			t.Fatalf("%v: end %v after %d turns", names, rec.End, len(rec.Turns))
		}
		for s := range 2 {
			if rec.Exchanges[s] != 3 || rec.Scores[s] != -rec.EndRacks[s].Value() {
				t.Errorf("%v seat %d: %d exchanges, score %d, rack %s", names, s, rec.Exchanges[s], rec.Scores[s], rec.EndRacks[s])
			}
		}
	}
}

func TestNewPlayer(t *testing.T) {
	if _, err := NewPlayer("nobody", PlayerOptions{}); err == nil || !strings.Contains(err.Error(), "equity, score") {
		t.Errorf("unknown player: %v", err)
	}
	if _, err := NewPlayer("score", PlayerOptions{Leaves: toyLeaves{}}); err == nil {
		t.Error("score player accepted leaves")
	}
	p, err := NewPlayer("equity", PlayerOptions{Leaves: toyLeaves{}})
	if err != nil || p.Name() != "equity" {
		t.Errorf("equity: %v %v", p, err)
	}
	if _, err := PlayGame(context.Background(), tinyLexicon(t), [2]Player{p, p}, 1, 0); err == nil {
		t.Error("one player in both seats accepted")
	}
}

// TestTermsChangePlay: the equity terms reach the player's choices (some
// game goes otherwise with them), and the games stay the same for the same
// seed.
func TestTermsChangePlay(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	ctx := context.Background()
	names := [2]string{"equity", "equity"}
	play := func(terms eval.Terms, seed uint64) *GameRecord {
		ps := newPlayers(t, names, [2]PlayerOptions{{Leaves: toyLeaves{}, Terms: terms}, {Leaves: toyLeaves{}}})
		rec, err := PlayGame(ctx, lex, ps, seed, 0)
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
