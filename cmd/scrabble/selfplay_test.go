package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"scrabble/internal/testlex"
)

// selfplaySummary holds the --json fields the tests look at.
type selfplaySummary struct {
	Games   int `json:"games"`
	Players []struct {
		Name       string  `json:"name"`
		Wins       int     `json:"wins"`
		Draws      int     `json:"draws"`
		Losses     int     `json:"losses"`
		MeanScore  float64 `json:"mean_score"`
		MeanSpread float64 `json:"mean_spread"`
	} `json:"players"`
	WinRate        float64    `json:"win_rate"`
	WinRateCI95    [2]float64 `json:"win_rate_ci95"`
	CIMethod       string     `json:"ci_method"`
	BingosPerGame  float64    `json:"bingos_per_game"`
	Planned        int        `json:"planned"`
	Played         int        `json:"played"`
	GamesPerSecond float64    `json:"games_per_second"`
	Lexicon        string     `json:"lexicon"`
	Seed           uint64     `json:"seed"`
	Threads        int        `json:"threads"`
	Workers        int        `json:"workers"`
	Interrupted    bool       `json:"interrupted"`
}

func parseSelfplayJSON(t *testing.T, out string) (selfplaySummary, map[string]any) {
	t.Helper()
	var s selfplaySummary
	var raw map[string]any
	if strings.Count(out, "\n") != 1 || json.Unmarshal([]byte(out), &s) != nil || json.Unmarshal([]byte(out), &raw) != nil {
		t.Fatalf("--json output is not one JSON object on a line:\n%s", out)
	}
	return s, raw
}

// comparable drops the fields that depend on the run (timing, workers).
func comparable(raw map[string]any) map[string]any {
	for _, k := range []string{"seconds", "games_per_second", "played", "threads", "workers"} {
		delete(raw, k)
	}
	return raw
}

func TestSelfplayUsage(t *testing.T) {
	e := newTestEnv(t)
	leaves := e.file("leaves.csv", "leave,value\nS,8\n?,25.5\nQ,-7\n")
	for _, c := range []struct {
		args []string
		env  [2]string
		code int
		msg  string
	}{
		{[]string{"selfplay", "--games", "0"}, [2]string{}, 2, "--games must be at least 1"},
		{[]string{"selfplay", "--resume"}, [2]string{}, 2, "--resume needs --out"},
		{[]string{"selfplay", "--p1", "nobody"}, [2]string{}, 2, `unknown player "nobody"`},
		{[]string{"selfplay", "--p2", "score", "--p2-leaves", leaves, "--allow-partial-leaves"}, [2]string{}, 2, "no leave values"},
		{[]string{"selfplay", "--threads", "0"}, [2]string{}, 2, "--threads must be"},
		{[]string{"selfplay"}, [2]string{"SCRABBLE_WORKERS", "many"}, 2, `not "many"`},
		{[]string{"selfplay"}, [2]string{"SCRABBLE_SEED", "-3"}, 2, `seed "-3"`},
		{[]string{"selfplay", "extra"}, [2]string{}, 2, "unknown command"},
		{[]string{"selfplay", "--p1-leaves", filepath.Join(e.root, "missing.csv")}, [2]string{}, 1, "missing.csv"},
		{[]string{"selfplay", "--p1-terms", "balance"}, [2]string{}, 2, "--p1-terms: equity term \"balance\": want name=weight"},
		{[]string{"selfplay", "--p2-terms", "vowels=2"}, [2]string{}, 2, `--p2-terms: unknown equity term "vowels"`},
		{[]string{"selfplay", "--p1", "score", "--p1-terms", "open=2"}, [2]string{}, 2, "the score player uses no equity terms"},
		{[]string{"selfplay", "--p1", "sim", "--p1-terms", "open=2"}, [2]string{}, 2, "the sim player takes no equity terms"},
	} {
		if c.env[0] != "" {
			t.Setenv(c.env[0], c.env[1])
		}
		r := e.run(c.args...)
		if c.env[0] != "" {
			t.Setenv(c.env[0], "")
		}
		if r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%v %v: exit %d, stderr %q; want %d and %q", c.args, c.env, r.code, r.stderr, c.code, c.msg)
		}
	}
	help := e.ok("selfplay", "--help")
	for _, want := range []string{"Examples:", "--p1-leaves", "--p1-terms", "balance=W", "open=W", "Wilson", "equity", "score", "--resume"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

// TestSelfplayNoWords plays with a lexicon no rack can use: every game ends
// on six scoreless turns.
func TestSelfplayNoWords(t *testing.T) {
	e := newTestEnv(t)
	e.ok("lexicon", "add", "QQQQ", e.file("q.txt", "QQQQ\n"))
	s, _ := parseSelfplayJSON(t, e.ok("selfplay", "--games", "6", "--p1", "score", "--json"))
	if s.Games != 6 || s.Lexicon != "QQQQ" || s.Seed != 1 || s.Players[0].Name != "score" || s.Players[1].Name != "score" ||
		s.BingosPerGame != 0 || s.Players[0].MeanScore >= 0 || s.CIMethod != "wilson" || s.Interrupted {
		t.Errorf("summary %+v", s)
	}
}

func TestSelfplayNWL23(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.Path(t, "NWL23")
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	leaves := e.file("leaves.csv", "leave,value\nS,8\n?,25.5\nQ,-7\nEQ,-5\nV,-3\n")

	// A table, and the files of --out.
	dir := filepath.Join(e.root, "run")
	out := e.ok("--lexicon", "NWL23", "selfplay", "--games", "12", "--p1", "equity", "--p1-leaves", leaves, "--allow-partial-leaves",
		"--p2", "score", "--out", dir, "--pairs", "--threads", "2")
	for _, re := range []string{
		`^equity vs score: 12 games, lexicon NWL23, seed 1, pairs\n`,
		`Played 12 games in \S+ on 2 threads: [0-9.]+ games/s\n`,
		`(?m)^PLAYER\s+WINS\s+DRAWS\s+LOSSES\s+SCORE \(SD\)\s+SPREAD \(SD\)\s+BINGOS/GAME\s+EXCH/GAME$`,
		`(?m)^1 equity\s+\d+\s+\d+\s+\d+\s+\d+\.\d \(\d+\.\d\)\s+[-+]\d+\.\d \(\d+\.\d\)\s+\d\.\d\d\s+\d\.\d\d$`,
		`(?m)^2 score\s+\d+`,
		`Player 1 win rate: \d+\.\d% \(95% CI \d+\.\d% to \d+\.\d%, Wilson score interval`,
		`Per game: \d+\.\d\d bingos`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("table lacks %s:\n%s", re, out)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	if err != nil || strings.Count(string(data), "\n") != 12 {
		t.Fatalf("results.jsonl: %v\n%s", err, data)
	}
	gcg, err := os.ReadFile(filepath.Join(dir, "game-000011.gcg"))
	if err != nil || !strings.Contains(string(gcg), "#player1 score score\n#player2 equity equity\n#lexicon NWL23\n") {
		t.Errorf("game-000011.gcg: %v\n%s", err, gcg)
	}

	// Resuming for more games plays only the new ones; the summary is that
	// of one uninterrupted run, whatever the workers.
	args := []string{"--lexicon", "NWL23", "selfplay", "--games", "20", "--p1-leaves", leaves, "--allow-partial-leaves", "--pairs", "--json"}
	s, resumed := parseSelfplayJSON(t, e.ok(append(args, "--out", dir, "--resume")...))
	if s.Games != 20 || s.Played != 8 || s.Planned != 20 {
		t.Errorf("resumed: %+v", s)
	}
	t.Setenv("SCRABBLE_WORKERS", "1")
	s, whole := parseSelfplayJSON(t, e.ok(args...))
	if s.Threads != 1 || s.Played != 20 || s.GamesPerSecond <= 0 {
		t.Errorf("SCRABBLE_WORKERS=1: %+v", s)
	}
	if a, b := comparable(resumed), comparable(whole); !jsonEqual(a, b) {
		t.Errorf("resumed run %v\nwhole run %v", a, b)
	}

	// seed and workers from the config file; flags override it.
	t.Setenv("SCRABBLE_WORKERS", "")
	e.file("config/scrabble/config.yaml", "seed: 99\nworkers: 3\n")
	s, _ = parseSelfplayJSON(t, e.ok("--lexicon", "NWL23", "selfplay", "--games", "2", "--json"))
	if s.Seed != 99 || s.Threads != 3 {
		t.Errorf("config file: seed %d, threads %d", s.Seed, s.Threads)
	}
	s, _ = parseSelfplayJSON(t, e.ok("--lexicon", "NWL23", "selfplay", "--games", "2", "--json", "--seed", "5", "-j", "2"))
	if s.Seed != 5 || s.Threads != 2 {
		t.Errorf("flags over config: seed %d, threads %d", s.Seed, s.Threads)
	}

	// Equity terms, named in the summary's first line.
	out = e.ok("--lexicon", "NWL23", "selfplay", "--games", "4", "--p1", "equity", "--p2", "equity",
		"--p2-terms", "open=2,balance=3")
	if !regexp.MustCompile(`^equity vs equity: 4 games, lexicon NWL23, seed \d+; player 2 terms balance=3,open=2\n`).MatchString(out) {
		t.Errorf("terms in the summary:\n%s", out)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
