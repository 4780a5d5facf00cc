package selfplay

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"scrabble/eval"
	"scrabble/gaddag"
	"scrabble/game"
	"scrabble/internal/gametest"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/movegen"
	"scrabble/rules"
)

// untimed drops the run-dependent fields of a summary.
func untimed(s *Summary) Summary {
	c := *s
	c.Played, c.Seconds, c.GamesPerSecond = 0, 0, 0
	return c
}

// run plays a tournament and returns its summary and every record played.
func run(t *testing.T, ctx context.Context, cfg Config) (*Summary, map[int]*game.Record, error) {
	t.Helper()
	var mu sync.Mutex
	recs := map[int]*game.Record{}
	on := cfg.OnGame
	cfg.OnGame = func(i int, rec *game.Record) {
		mu.Lock()
		recs[i] = rec
		mu.Unlock()
		if on != nil {
			on(i, rec)
		}
	}
	s, err := Run(ctx, cfg)
	return s, recs, err
}

func baseConfig(lex *gaddag.GADDAG, games int) Config {
	return Config{
		Tables:  testgen.Tables(lex),
		Players: []string{"equity", "score"},
		Options: [rules.MaxPlayers]PlayerOptions{{Leaves: gametest.ToyLeaves{}}},
		Games:   games,
		Seed:    7,
	}
}

func TestSelfPlayWorkers(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	for _, pairs := range []bool{false, true} {
		cfg := baseConfig(lex, 40)
		cfg.Pairs = pairs
		cfg.Workers = 1
		s1, recs1, err := run(t, context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Workers = 4
		s4, recs4, err := run(t, context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs1) != 40 || !reflect.DeepEqual(recs1, recs4) {
			t.Errorf("pairs %v: 1 and 4 workers played different games", pairs)
		}
		if !reflect.DeepEqual(untimed(s1), untimed(s4)) {
			t.Errorf("pairs %v: summaries differ:\n%+v\n%+v", pairs, s1, s4)
		}
		if s1.Games != 40 || s1.Played != 40 || s1.Planned != 40 || s1.GamesPerSecond <= 0 {
			t.Errorf("summary %+v", s1)
		}
		r := gametest.NewReplayer(t, testgen.Tables(lex))
		for i, rec := range recs1 {
			if rec.First != i%2 || rec.Seed != GameSeed(cfg.Seed, i, 2, pairs) {
				t.Errorf("game %d: first %d, seed %d", i, rec.First, rec.Seed)
			}
			r.Check("selfplay", rec)
		}
		if !pairs {
			continue
		}
		// Pairs share the deal: game 2i+1's seats hold game 2i's opening
		// racks swapped, and the draws follow the same bag.
		for i := 0; i < 40; i += 2 {
			a, b := recs1[i], recs1[i+1]
			if a.Seed != b.Seed || a.First != 0 || b.First != 1 ||
				a.Racks[0] != b.Racks[1] || a.Racks[1] != b.Racks[0] {
				t.Errorf("pair %d/%d: seeds %d %d, racks %v %v", i, i+1, a.Seed, b.Seed, a.Racks, b.Racks)
			}
			if a.Turns[0].Drawn != b.Turns[0].Drawn && a.Turns[0].Move.Used() == b.Turns[0].Move.Used() {
				t.Errorf("pair %d/%d: the same opening move drew different tiles", i, i+1)
			}
		}
	}
}

func readResults(t *testing.T, dir string) []GameResult {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rs []GameResult
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r GameResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("results line %q: %v", sc.Text(), err)
		}
		rs = append(rs, r)
	}
	return rs
}

func TestSelfPlayResume(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	const games = 30
	cfg := baseConfig(lex, games)
	cfg.Pairs = true
	cfg.Workers = 2
	whole, _, err := run(t, context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}

	// Interrupted after a few games.
	dir := t.TempDir()
	cfg.Dir = dir
	cfg.Workers = 3
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	n := 0
	cfg.OnGame = func(int, *game.Record) {
		mu.Lock()
		defer mu.Unlock()
		if n++; n == 5 {
			cancel()
		}
	}
	part, _, err := run(t, ctx, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	cfg.OnGame = nil
	first := readResults(t, dir)
	if part.Games != len(first) || part.Games < 5 || part.Games >= games {
		t.Fatalf("interrupted run: summary of %d games, %d results", part.Games, len(first))
	}
	for _, r := range first {
		if _, err := os.Stat(filepath.Join(dir, GCGName(r.Game))); err != nil {
			t.Errorf("game %d: %v", r.Game, err)
		}
	}

	// Without Resume the results are not overwritten.
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "already holds results") {
		t.Errorf("second run without resume: %v", err)
	}
	// Another seed's results are refused.
	other := cfg
	other.Resume, other.Seed = true, cfg.Seed+1
	if _, err := Run(context.Background(), other); err == nil || !strings.Contains(err.Error(), "another seed") {
		t.Errorf("resume with another seed: %v", err)
	}

	// A line cut short by the interruption is dropped and rewritten.
	path := filepath.Join(dir, ResultsFile)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"game":29,"seed":12`)
	f.Close()

	cfg.Resume = true
	var progress [][2]int
	cfg.Progress = func(done, total int) { progress = append(progress, [2]int{done, total}) }
	resumed, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(untimed(resumed), untimed(whole)) {
		t.Errorf("resumed summary differs from the uninterrupted one:\n%+v\n%+v", resumed, whole)
	}
	if resumed.Played != games-len(first) {
		t.Errorf("resumed run played %d games, want %d", resumed.Played, games-len(first))
	}
	if progress[0] != [2]int{len(first), games} || progress[len(progress)-1] != [2]int{games, games} {
		t.Errorf("progress %v", progress)
	}
	all := readResults(t, dir)
	seen := map[int]bool{}
	for _, r := range all {
		seen[r.Game] = true
	}
	if len(all) != games || len(seen) != games {
		t.Errorf("results file: %d lines, %d games", len(all), len(seen))
	}
	for i := range games {
		if _, err := os.Stat(filepath.Join(dir, GCGName(i))); err != nil {
			t.Error(err)
		}
	}
	// Nothing left to play.
	again, err := Run(context.Background(), cfg)
	if err != nil || !reflect.DeepEqual(untimed(again), untimed(whole)) || again.Played != 0 {
		t.Errorf("resuming a finished tournament: %v %+v", err, again)
	}
}

func benchmarkSelfPlay(b *testing.B, workers int, leaves movegen.LeaveValuer) {
	lex := testlex.GADDAG(b, "NWL23")
	cfg := Config{Tables: testgen.Tables(lex), Players: []string{"equity", "equity"}, Games: b.N, Seed: 1, Workers: workers}
	cfg.Options[0].Leaves, cfg.Options[1].Leaves = leaves, leaves
	// One game first builds the search's shared tables (the anagram index).
	warm := cfg
	warm.Games, warm.Workers = 1, 1
	if _, err := Run(context.Background(), warm); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	b.ResetTimer()
	s, err := Run(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(s.TurnsPerGame, "turns/game")
}

// BenchmarkSelfPlayGames plays equity against equity with zero leaves
// (NWL23) on one worker.
func BenchmarkSelfPlayGames(b *testing.B) { benchmarkSelfPlay(b, 1, nil) }

// BenchmarkSelfPlayGames2Workers is the same on two workers.
func BenchmarkSelfPlayGames2Workers(b *testing.B) { benchmarkSelfPlay(b, 2, nil) }

// BenchmarkSelfPlayGamesLeaves plays the equity player with the built-in
// NWL23 leaves against itself, the measure, on one worker.
func BenchmarkSelfPlayGamesLeaves(b *testing.B) {
	benchmarkSelfPlay(b, 1, builtinLeaves(b))
}

// BenchmarkSelfPlayGamesLeaves2Workers is the same on two workers.
func BenchmarkSelfPlayGamesLeaves2Workers(b *testing.B) {
	benchmarkSelfPlay(b, 2, builtinLeaves(b))
}

func builtinLeaves(b *testing.B) movegen.LeaveValuer {
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil || leaves == nil {
		b.Fatalf("no built-in NWL23 leaves: %v", err)
	}
	return leaves
}

// TestSelfPlayManyGamesLazily: asking for far more games than are played
// allocates nothing per game asked for (the pending games are not listed
// up front); here 100 million asked, 3 played before a cancel.
func TestSelfPlayManyGamesLazily(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	cfg := baseConfig(lex, 100_000_000)
	cfg.Workers = 1
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.OnGame = func(i int, _ *game.Record) {
		if i >= 2 {
			cancel()
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s, err := Run(ctx, cfg)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, context.Canceled) || s == nil || s.Played != 3 || s.Planned != 100_000_000 {
		t.Fatalf("summary %+v, error %v; want 3 of 100,000,000 games played, cancelled", s, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 100<<20 {
		t.Errorf("3 games of 100,000,000 asked for allocated %d MB, want under 100", got>>20)
	}
}
