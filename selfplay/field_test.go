package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"scrabble/game"
	"scrabble/internal/gametest"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/rules"
)

// TestSeating: player k is the ((k+r) mod N)-th to move in rotation r =
// i mod N, so over every N games from a multiple of N each player moves
// first, second, ... once; with pairs those N games share a deal, without
// every game has its own; two players keep the old seating (player 1
// first in even games).
func TestSeating(t *testing.T) {
	for _, c := range []struct {
		players int
		pairs   bool
	}{{2, false}, {2, true}, {3, false}, {3, true}, {4, false}, {4, true}} {
		t.Run(fmt.Sprintf("%d players, pairs %v", c.players, c.pairs), func(t *testing.T) {
			n := c.players
			const rounds = 5
			count := map[[2]int]int{} // (player, position in the order of play)
			for i := range rounds * n {
				deal, first := Seating(i, n, c.pairs)
				r := i % n
				for k := range n {
					pos := (k - first + n) % n
					if pos != (k+r)%n {
						t.Fatalf("game %d: player %d moves %d-th, want %d-th", i, k+1, pos+1, (k+r)%n+1)
					}
					count[[2]int{k, pos}]++
				}
				wantDeal := i
				if c.pairs {
					wantDeal = i / n
				}
				if deal != wantDeal || GameSeed(9, i, n, c.pairs) != DealSeed(9, wantDeal) {
					t.Errorf("game %d: deal %d, want %d", i, deal, wantDeal)
				}
				if FirstPlayer(i, n) != first {
					t.Errorf("game %d: FirstPlayer %d, Seating %d", i, FirstPlayer(i, n), first)
				}
				if n == 2 && first != i%2 {
					t.Errorf("game %d of two players: seat %d first, want %d (the old seating)", i, first, i%2)
				}
			}
			if len(count) != n*n {
				t.Errorf("%d (player, place) pairs seen, want %d", len(count), n*n)
			}
			for k, v := range count {
				if v != rounds {
					t.Errorf("player %d moved %d-th %d times in %d games, want %d", k[0]+1, k[1]+1, v, rounds*n, rounds)
				}
			}
		})
	}
	// The seeds of a deal depend on the base seed and the deal alone.
	if DealSeed(1, 0) == DealSeed(1, 1) || DealSeed(1, 0) == DealSeed(2, 0) {
		t.Error("deal seeds collide")
	}
}

// TestSelfPlayField plays three- and four-player tournaments with paired
// deals: the same games on 1 and 2 workers, every record legal (the
// independent replayer), each deal's games dealing the same racks in the
// order of play, each player moving first, second, ... once a deal.
func TestSelfPlayField(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	tables := testgen.Tables(lex)
	for _, players := range [][]string{{"equity", "score", "equity"}, {"equity", "score", "score", "equity"}} {
		n := len(players)
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			cfg := Config{Tables: tables, Players: players, Games: 3 * n, Seed: 11, Pairs: true}
			for i, p := range players {
				if p == "equity" {
					cfg.Options[i].Leaves = gametest.ToyLeaves{}
				}
			}
			cfg.Workers = 1
			s1, recs1, err := run(t, context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Workers = 2
			s2, recs2, err := run(t, context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs1) != 3*n || !reflect.DeepEqual(recs1, recs2) {
				t.Errorf("1 and 2 workers played different games")
			}
			if !reflect.DeepEqual(untimed(s1), untimed(s2)) {
				t.Errorf("summaries differ:\n%+v\n%+v", s1, s2)
			}
			if len(s1.Players) != n || len(s1.Seats) != n || s1.Players[n-1].Name != players[n-1] {
				t.Errorf("summary of %d players: %+v", n, s1)
			}
			r := gametest.NewReplayer(t, tables)
			for deal := range 3 {
				moved := map[[2]int]bool{}
				var racks [rules.MaxPlayers]rules.Rack // by place in the order of play
				for rot := range n {
					i := deal*n + rot
					rec := recs1[i]
					r.Check("selfplay", rec)
					if rec.Seats != n || rec.Seed != DealSeed(cfg.Seed, deal) || !slices.Equal(rec.Players[:n], players) {
						t.Fatalf("game %d: %d seats, seed %d, players %v", i, rec.Seats, rec.Seed, rec.Players)
					}
					for pos := range n {
						seat := (rec.First + pos) % n
						moved[[2]int{seat, pos}] = true
						if rot == 0 {
							racks[pos] = rec.Racks[seat]
						} else if rec.Racks[seat] != racks[pos] {
							t.Errorf("game %d: the %d-th to move opened with %v, not the deal's %v", i, pos+1, rec.Racks[seat], racks[pos])
						}
					}
				}
				if len(moved) != n*n {
					t.Errorf("deal %d: %d (player, place) pairs, want each of %d", deal, len(moved), n*n)
				}
			}
		})
	}
}

// TestFieldStatsFromRecords checks the summary of three- and four-player
// tournaments against a plain recomputation from the game records (each
// record's own Places, its seats, its scores), under both tiebreaks and a
// target score, which ends games early and so gives more ties.
func TestFieldStatsFromRecords(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	tables := testgen.Tables(lex)
	for _, c := range []struct {
		players []string
		rules   game.Rules
	}{
		{[]string{"equity", "score", "score"}, game.Rules{}},
		{[]string{"score", "equity", "score", "equity"}, game.Rules{Tiebreak: rules.TiebreakHasbro}},
		{[]string{"score", "score", "score"}, game.Rules{TargetScore: 60}},
		{[]string{"equity", "score"}, game.Rules{TargetScore: 70, Tiebreak: rules.TiebreakHasbro}},
	} {
		n := len(c.players)
		t.Run(fmt.Sprint(c.players, c.rules), func(t *testing.T) {
			cfg := Config{Tables: tables, Players: c.players, Games: 10 * n, Seed: 3, Pairs: true, Rules: c.rules, Workers: 2}
			for i, p := range c.players {
				if p == "equity" {
					cfg.Options[i].Leaves = gametest.ToyLeaves{}
				}
			}
			s, recs, err := run(t, context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			g := float64(len(recs))
			var (
				share, score, spread, place = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
				seatShare, seatScore        = make([]float64, n), make([]float64, n)
				wins, draws, losses         = make([]int, n), make([]int, n), make([]int, n)
			)
			ties := 0
			for i := range len(recs) {
				rec := recs[i]
				places := rec.Places()
				firsts := 0
				for _, p := range places {
					if p == 1 {
						firsts++
					}
				}
				if u := slices.Compact(slices.Sorted(slices.Values(places))); len(u) < n {
					ties++
				}
				for k := range n {
					sh := 0.0
					if places[k] == 1 {
						sh = 1 / float64(firsts)
					}
					switch {
					case places[k] > 1:
						losses[k]++
					case firsts > 1:
						draws[k]++
					default:
						wins[k]++
					}
					others := 0.0
					for j := range n {
						if j != k {
							others += float64(rec.Scores[j])
						}
					}
					share[k] += sh / g
					score[k] += float64(rec.Scores[k]) / g
					spread[k] += (float64(rec.Scores[k]) - others/float64(n-1)) / g
					place[k] += float64(places[k]) / g
					pos := (k - rec.First + n) % n
					seatShare[pos] += sh / g
					seatScore[pos] += float64(rec.Scores[k]) / g
				}
			}
			t.Logf("%d games, %d with a shared place", len(recs), ties)
			for k, p := range s.Players {
				if p.Wins != wins[k] || p.Draws != draws[k] || p.Losses != losses[k] {
					t.Errorf("player %d: %d-%d-%d, want %d-%d-%d", k+1, p.Wins, p.Draws, p.Losses, wins[k], draws[k], losses[k])
				}
				for _, f := range []struct {
					name      string
					got, want float64
					ci        [2]float64
				}{
					{"win share", p.WinShare, share[k], p.WinShareCI95},
					{"score", p.MeanScore, score[k], p.ScoreCI95},
					{"spread", p.MeanSpread, spread[k], p.SpreadCI95},
					{"place", p.MeanPlace, place[k], p.PlaceCI95},
				} {
					if !near(f.got, f.want) || !(f.ci[0] <= f.got && f.got <= f.ci[1]) || f.ci[0] == f.ci[1] {
						t.Errorf("player %d %s: %v (95%% CI %v), want %v", k+1, f.name, f.got, f.ci, f.want)
					}
				}
			}
			for pos, st := range s.Seats {
				if !near(st.WinShare, seatShare[pos]) || !near(st.MeanScore, seatScore[pos]) {
					t.Errorf("seat %d: share %v score %v, want %v %v", pos+1, st.WinShare, st.MeanScore, seatShare[pos], seatScore[pos])
				}
			}
			// Shares add up to one game a game; spreads against the field
			// to nothing.
			var shares, spreads float64
			for _, p := range s.Players {
				shares += p.WinShare
				spreads += p.MeanSpread
			}
			if !near(shares, 1) || !near(spreads, 0) || !near(s.FirstWinRate, s.Seats[0].WinShare) || s.WinRate != s.Players[0].WinShare {
				t.Errorf("shares add up to %v, spreads to %v; first mover %v", shares, spreads, s.FirstWinRate)
			}
		})
	}
}

// TestSummarizeField checks the summary of three-player results by hand:
// a first place shared by three counts a third of a win, and the Hasbro
// tiebreak splits equal final scores by the scores before the adjustments.
func TestSummarizeField(t *testing.T) {
	res := func(game, first int, scores []int, winner int, adj []int) GameResult {
		return GameResult{Game: game, First: first, Players: []string{"a", "b", "c"}, Scores: scores, Winner: winner,
			Bingos: []int{1, 0, 0}, Exchanges: []int{0, 0, 1}, Passes: []int{0, 0, 0}, Turns: 30, End: "out", Adjustments: adj}
	}
	rs := []GameResult{
		res(0, 1, []int{400, 300, 200}, 1, []int{20, -5, -15}),  // places 1 2 3
		res(1, 3, []int{300, 300, 300}, 0, []int{-1, -1, 2}),    // naspa: all first; hasbro: c (298) 3rd, a and b 1st
		res(2, 2, []int{250, 350, 350}, 0, []int{-10, 20, -10}), // naspa: b, c first; hasbro: c (360) first, b second
	}
	naspa := Summarize(rs, rules.TiebreakNASPA)
	// Shares: a 1 + 1/3 + 0; b 0 + 1/3 + 1/2; c 0 + 1/3 + 1/2.
	// Places: a 1, 1, 3; b 2, 1, 1; c 3, 1, 1.
	// Spreads: a 400-250, 300-300, 250-350 = 150, 0, -100.
	want := []struct {
		w, d, l       int
		share, place  float64
		score, spread float64
	}{
		{1, 1, 1, 4.0 / 9, 5.0 / 3, 950.0 / 3, 50.0 / 3},
		{0, 2, 1, 5.0 / 18, 4.0 / 3, 950.0 / 3, (0 + 0 + 50) / 3.0},
		{0, 2, 1, 5.0 / 18, 5.0 / 3, 850.0 / 3, (-150 + 0 + 50) / 3.0},
	}
	for k, p := range naspa.Players {
		w := want[k]
		if p.Wins != w.w || p.Draws != w.d || p.Losses != w.l || !near(p.WinShare, w.share) || !near(p.MeanPlace, w.place) ||
			!near(p.MeanScore, w.score) || !near(p.MeanSpread, w.spread) {
			t.Errorf("naspa, player %d: %+v\nwant %+v", k+1, p, w)
		}
	}
	// By seat: game 0 a, b, c move in that order; game 1 c, a, b; game 2
	// b, c, a. The first movers' shares: 1, 1/3, 1/2.
	if !near(naspa.Seats[0].WinShare, (1+1.0/3+0.5)/3) || !near(naspa.Seats[0].MeanScore, 350) || !near(naspa.Seats[2].MeanScore, (200+300+250)/3.0) {
		t.Errorf("seats: %+v", naspa.Seats)
	}
	hasbro := Summarize(rs, rules.TiebreakHasbro)
	// Hasbro: game 1 a and b share first (301 each before), c third;
	// game 2 c first (360 before), b second, a third.
	// Shares: a 1 + 1/2 + 0; b 0 + 1/2 + 0; c 0 + 0 + 1.
	for k, w := range []struct {
		w, d, l      int
		share, place float64
	}{{1, 1, 1, 0.5, 5.0 / 3}, {0, 1, 2, 1.0 / 6, 5.0 / 3}, {1, 0, 2, 1.0 / 3, 7.0 / 3}} {
		p := hasbro.Players[k]
		if p.Wins != w.w || p.Draws != w.d || p.Losses != w.l || !near(p.WinShare, w.share) || !near(p.MeanPlace, w.place) {
			t.Errorf("hasbro, player %d: %+v\nwant %+v", k+1, p, w)
		}
	}
}

// oldGameResult is GameResult as versions before issue 28 wrote it: two
// players, fixed arrays.
type oldGameResult struct {
	Game      int       `json:"game"`
	Seed      uint64    `json:"seed"`
	First     int       `json:"first"`
	Players   [2]string `json:"players"`
	Scores    [2]int    `json:"scores"`
	Winner    int       `json:"winner"`
	Bingos    [2]int    `json:"bingos"`
	Exchanges [2]int    `json:"exchanges"`
	Passes    [2]int    `json:"passes"`
	Turns     int       `json:"turns"`
	End       string    `json:"end"`
}

// TestTwoPlayerResultsFormat: a two-player run writes the results lines
// earlier versions wrote, byte for byte (the old struct marshals them the
// same), and resumes from a file written by the old struct.
func TestTwoPlayerResultsFormat(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	cfg := baseConfig(lex, 12)
	cfg.Pairs, cfg.Workers = true, 2
	whole, _, err := run(t, context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Dir = t.TempDir()
	cfg.Games = 7
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cfg.Dir, ResultsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var old bytes.Buffer
	for _, line := range strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n") {
		var o oldGameResult
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			t.Fatalf("a line the old version cannot read: %v\n%s", err, line)
		}
		b, _ := json.Marshal(&o)
		old.Write(append(b, '\n'))
	}
	if old.String() != string(data) {
		t.Fatalf("two-player results differ from the old format:\n%s\nold:\n%s", data, old.String())
	}
	// Resumed from the old struct's file (the same bytes, written anew).
	if err := os.WriteFile(path, old.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Games, cfg.Resume = 12, true
	s, err := Run(context.Background(), cfg)
	if err != nil || s.Played != 5 || !reflect.DeepEqual(untimed(s), untimed(whole)) {
		t.Errorf("resumed from an old file: %v, %+v\nwant %+v", err, s, whole)
	}
}

// TestSelfPlayFieldResume: a four-player run interrupted and resumed gives
// the summary of one uninterrupted run; a resume with other players or
// another tiebreak is refused.
func TestSelfPlayFieldResume(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	players := []string{"equity", "score", "equity", "score"}
	const games = 16
	cfg := Config{Tables: testgen.Tables(lex), Players: players, Games: games, Seed: 5, Pairs: true, Workers: 2}
	cfg.Options[0].Leaves, cfg.Options[2].Leaves = gametest.ToyLeaves{}, gametest.ToyLeaves{}
	whole, _, err := run(t, context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	cfg.Dir = dir
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	n := 0
	cfg.OnGame = func(int, *game.Record) {
		mu.Lock()
		defer mu.Unlock()
		if n++; n == 6 {
			cancel()
		}
	}
	if _, _, err := run(t, ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	cfg.OnGame = nil
	cfg.Resume = true
	for _, c := range []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"fewer players", func(c *Config) { c.Players = players[:3] }, "was played by equity, score, equity and score, not equity, score and equity"},
		{"other players", func(c *Config) { c.Players = []string{"equity", "score", "equity", "equity"} }, "not equity, score, equity and equity"},
		{"hasbro", func(c *Config) { c.Rules.Tiebreak = rules.TiebreakHasbro }, "another tiebreak"},
		{"no pairs", func(c *Config) { c.Pairs = false }, "another seed or seating"},
	} {
		other := cfg
		c.change(&other)
		if _, err := Run(context.Background(), other); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	resumed, err := Run(context.Background(), cfg)
	if err != nil || !reflect.DeepEqual(untimed(resumed), untimed(whole)) || resumed.Played == 0 || resumed.Played == games {
		t.Errorf("resumed: %v\n%+v\nwant %+v", err, resumed, whole)
	}
	if rs := readResults(t, dir); len(rs) != games {
		t.Errorf("%d results", len(rs))
	}
	for i := range games {
		if data, err := os.ReadFile(filepath.Join(dir, GCGName(i))); err != nil || !bytes.Contains(data, []byte("#player4 ")) {
			t.Errorf("game %d: %v\n%s", i, err, data)
		}
	}
}

// TestRunBadPlayers: Run refuses a table it cannot seat, with a clear
// error, before playing.
func TestRunBadPlayers(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	for _, c := range []struct {
		players []string
		opts    PlayerOptions // the first player's
		rules   game.Rules
		want    string
	}{
		{[]string{"equity"}, PlayerOptions{}, game.Rules{}, "selfplay: 1 players: a game has 2 to 4"},
		{[]string{"equity", "score", "score", "score", "score"}, PlayerOptions{}, game.Rules{}, "selfplay: 5 players: a game has 2 to 4"},
		{nil, PlayerOptions{}, game.Rules{}, "selfplay: 0 players"},
		{[]string{"equity", "nobody", "score"}, PlayerOptions{}, game.Rules{}, `unknown player "nobody"`},
		{[]string{"full", "score", "score", "score"}, PlayerOptions{}, game.Rules{}, "selfplay: player 1: the full player (sim and the solvers) plays two-player games, not 4"},
		{[]string{"equity", "score", "score"}, PlayerOptions{Endgame: 1e9}, game.Rules{}, "player 1: the endgame solver plays two-player games, not 3"},
		{[]string{"equity", "score", "score"}, PlayerOptions{PEG: 1e9}, game.Rules{}, "player 1: the pre-endgame solver plays two-player games, not 3"},
		{[]string{"equity", "score"}, PlayerOptions{}, game.Rules{TargetScore: -1}, "target score -1"},
		{[]string{"equity", "score"}, PlayerOptions{}, game.Rules{Tiebreak: 7}, "unknown tiebreak(7)"},
	} {
		cfg := Config{Tables: testgen.Tables(lex), Players: c.players, Games: 2, Rules: c.rules}
		cfg.Options[0] = c.opts
		if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %+v: %v, want %q", c.players, c.rules, err, c.want)
		}
	}
	// The two-player-only players still play two; the others any number.
	for _, c := range []struct {
		name    string
		opts    PlayerOptions
		players int
	}{{"full", PlayerOptions{}, 2}, {"equity", PlayerOptions{Endgame: 1e9}, 2}, {"sim", PlayerOptions{}, 4}, {"external:scrabble engine", PlayerOptions{}, 3}, {"equity", PlayerOptions{}, 4}} {
		if err := CheckSeats(c.name, c.opts, c.players); err != nil {
			t.Errorf("%s %+v at %d: %v", c.name, c.opts, c.players, err)
		}
	}
}

// TestResumeRules: the results of runs to a target score or under the
// Hasbro tiebreak (their lines holding the adjustments) resume, checked
// line by line, to the summary of one uninterrupted run. Two players: their
// GCG files are written today.
func TestResumeRules(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	for _, rs := range []game.Rules{
		{Tiebreak: rules.TiebreakHasbro},
		{TargetScore: 150, Tiebreak: rules.TiebreakHasbro},
		{TargetScore: 150},
	} {
		cfg := baseConfig(lex, 16)
		cfg.Rules, cfg.Workers = rs, 2
		whole, recs, err := run(t, context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		ends := map[game.EndReason]int{}
		for _, rec := range recs {
			ends[rec.End]++
		}
		if rs.TargetScore > 0 && ends[game.EndTarget] == 0 {
			t.Errorf("%+v: no game reached the target: %v", rs, ends)
		}
		cfg.Dir, cfg.Games = t.TempDir(), 10
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		rsLines := readResults(t, cfg.Dir)
		if hasbro := rs.Tiebreak == rules.TiebreakHasbro; hasbro != (rsLines[0].Adjustments != nil) {
			t.Errorf("%+v: adjustments %v", rs, rsLines[0].Adjustments)
		}
		cfg.Games, cfg.Resume = 16, true
		s, err := Run(context.Background(), cfg)
		if err != nil || s.Played != 6 || !reflect.DeepEqual(untimed(s), untimed(whole)) {
			t.Errorf("%+v: resumed: %v, %+v\nwant %+v", rs, err, s, whole)
		}
	}
}

func TestCheckAdjustments(t *testing.T) {
	for _, c := range []struct {
		adj  []int
		end  string
		good bool
	}{
		{nil, "out", true},
		{[]int{0, 14}, "out", true},
		{[]int{14, 0}, "out", true},
		{[]int{-7, 14}, "out", false}, // two players: the other loses nothing
		{[]int{7, 7}, "out", false},
		{[]int{-3, 8, -5}, "out", true},
		{[]int{-3, 7, -5}, "out", false}, // the gain is the others' sum
		{[]int{3, 2, -5}, "out", false},
		{[]int{-3, -4, 0, 7}, "out", true},
		{[]int{-3, -4}, "scoreless", true},
		{[]int{-3, 0, 2}, "scoreless", false},
		{[]int{0, 0, 0}, "target", true},
		{[]int{0, -1, 0}, "target", false},
	} {
		if err := checkAdjustments(c.adj, c.end); (err == nil) != c.good {
			t.Errorf("%v %s: %v, want good %v", c.adj, c.end, err, c.good)
		}
	}
}
