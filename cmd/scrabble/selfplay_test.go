package main

import (
	"bytes"
	"encoding/json"
	"fmt"
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
		// Players by --players.
		{[]string{"selfplay", "--players", "equity"}, [2]string{}, 2, `--players "equity": 1 players: a game has 2 to 4`},
		{[]string{"selfplay", "--players", "equity,score,score,score,equity"}, [2]string{}, 2, `--players "equity,score,score,score,equity": 5 players: a game has 2 to 4`},
		{[]string{"selfplay", "--players", ""}, [2]string{}, 2, "--players: no names"},
		{[]string{"selfplay", "--players", "equity,,score"}, [2]string{}, 2, `--players "equity,,score": player 2 has no name`},
		{[]string{"selfplay", "--players", "equity,nobody,score"}, [2]string{}, 2, `--players: player 2: unknown player "nobody"`},
		{[]string{"selfplay", "--players", "equity,score", "--p1", "score"}, [2]string{}, 2, "give it or --p1 and --p2, not both"},
		{[]string{"selfplay", "--players", "full,score,score,score"}, [2]string{}, 2, "--players: player 1 (full): the full player (sim and the solvers) plays two-player games, not 4"},
		{[]string{"selfplay", "--players", "equity,score,sim", "--p3-infer"}, [2]string{}, 2, "--players: player 3 (sim): inference (of the one opponent's rack, from their last move) plays two-player games, not 3"},
		{[]string{"selfplay", "--players", "equity,score,score", "--p3-iterations", "5"}, [2]string{}, 2, "--p3-iterations is for the sim player, and --p3 is score"},
		{[]string{"selfplay", "--p4-iterations", "5"}, [2]string{}, 2, "--p4-iterations: there is no player 4: the run has 2 players"},
		{[]string{"selfplay", "--players", "equity,score,score", "--p4-go", "static"}, [2]string{}, 2, "--p4-go: there is no player 4: the run has 3 players"},
		{[]string{"selfplay", "--players", "equity,full,score"}, [2]string{}, 2, "--players: player 2 (full): the full player (sim and the solvers) plays two-player games, not 3"},
		{[]string{"selfplay", "--players", "equity,score,score", "--p1-endgame", "1s"}, [2]string{}, 2, "--players: player 1 (equity): the endgame solver plays two-player games, not 3"},
		{[]string{"selfplay", "--players", "score,equity,score", "--p2-peg", "1s"}, [2]string{}, 2, "--players: player 2 (equity): the pre-endgame solver plays two-player games, not 3"},
		{[]string{"selfplay", "--players", "equity,score,score", "--p3-leaves", leaves, "--allow-partial-leaves"}, [2]string{}, 2, "--players: player 3: player score: the score player uses no leave values"},
		{[]string{"selfplay", "--p3-leaves", leaves}, [2]string{}, 2, "--p3-leaves: there is no player 3: the run has 2 players"},
		{[]string{"selfplay", "--players", "equity,score,score", "--p4-terms", "open=1"}, [2]string{}, 2, "--p4-terms: there is no player 4: the run has 3 players"},
		{[]string{"selfplay", "--players", "equity,score,equity", "--p3-terms", "vowels=2"}, [2]string{}, 2, `--p3-terms: unknown equity term "vowels"`},
		{[]string{"selfplay", "--tiebreak", "coin"}, [2]string{}, 2, `--tiebreak: unknown tiebreak "coin"`},
		{[]string{"selfplay", "--target-score", "-5"}, [2]string{}, 2, "--target-score must be 0 (none) or more, not -5"},
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
	for _, want := range []string{"Examples:", "--p1-leaves", "--p1-terms", "balance=W", "open=W", "Wilson", "equity", "score", "--resume",
		"--players", "--p4-leaves", "--p3-terms", "--target-score", "--tiebreak", "spread against the field"} {
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

// TestSelfplayField plays three- and four-player runs through the command:
// the table and the JSON, the same on 1 and 2 threads; a two-player run
// resumed with other players or rules is refused, naming the setting; a
// field run with --out resumes to the summary of an uninterrupted one.
func TestSelfplayField(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.Path(t, "NWL23")
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)

	for _, c := range []struct {
		players string
		extra   []string
		head    string
	}{
		{"equity,score,equity", nil, `^equity vs score vs equity: 9 games, lexicon NWL23, seed 1, pairs\n`},
		{"equity,equity,score,score", []string{"--target-score", "150", "--tiebreak", "hasbro"},
			`^equity vs equity vs score vs score: 8 games, lexicon NWL23, seed 1, pairs, target score 150, tiebreak hasbro\n`},
	} {
		names := strings.Split(c.players, ",")
		n, last := len(names), names[len(names)-1]
		games := fmt.Sprint(2 * n)
		if n == 3 {
			games = "9"
		}
		args := append([]string{"--lexicon", "NWL23", "selfplay", "--players", c.players, "--games", games, "--pairs"}, c.extra...)
		out := e.ok(append(args, "-j", "2")...)
		for _, re := range []string{
			c.head,
			`(?m)^PLAYER\s+WINS\s+DRAWS\s+LOSSES\s+WIN SHARE \(95% CI\)\s+SCORE \(95% CI\)\s+SPREAD VS FIELD \(95% CI\)\s+PLACE \(95% CI\)\s+BINGOS/GAME\s+EXCH/GAME$`,
			fmt.Sprintf(`(?m)^%d %s\s+\d+\s+\d+\s+\d+\s+\d+\.\d%% \(\d+\.\d to \d+\.\d\)\s+\d+\.\d \(\d+\.\d to \d+\.\d\)\s+[-+]\d+\.\d \([-+]\d+\.\d to [-+]\d+\.\d\)\s+\d\.\d{3} \(-?\d\.\d{3} to \d\.\d{3}\)\s+\d\.\d\d\s+\d\.\d\d$`, n, last),
			`(?m)^TO MOVE\s+WIN SHARE \(95% CI\)\s+SCORE \(95% CI\)\s+PLACE$`,
			fmt.Sprintf(`(?m)^%s\s+\d+\.\d%% \(`, map[int]string{3: "3rd", 4: "4th"}[n]),
			`Per game: \d+\.\d\d bingos`,
		} {
			if !regexp.MustCompile(re).MatchString(out) {
				t.Errorf("%s: table lacks %s:\n%s", c.players, re, out)
			}
		}
		s1, raw1 := parseSelfplayJSON(t, e.ok(append(args, "-j", "1", "--json")...))
		_, raw2 := parseSelfplayJSON(t, e.ok(append(args, "-j", "2", "--json")...))
		if a, b := comparable(raw1), comparable(raw2); !jsonEqual(a, b) {
			t.Errorf("%s: -j 1 and -j 2 differ:\n%v\n%v", c.players, a, b)
		}
		if len(s1.Players) != n || s1.Players[n-1].Name != last || fmt.Sprint(s1.Games) != games {
			t.Errorf("%s: %+v", c.players, s1)
		}
		if seats, _ := raw1["seats"].([]any); len(seats) != n {
			t.Errorf("%s: seats %v", c.players, raw1["seats"])
		}
		if len(c.extra) > 0 && (raw1["tiebreak"] != "hasbro" || raw1["target_score"] != 150.0) {
			t.Errorf("%s: rules in the JSON: %v %v", c.players, raw1["tiebreak"], raw1["target_score"])
		}
	}

	// The sim player seats at three, with its options as player 3's; its
	// games are the same on 1 and 2 threads.
	simArgs := []string{"--lexicon", "NWL23", "selfplay", "--players", "equity,score,sim", "--p3-iterations", "8", "--p3-candidates", "4",
		"--games", "3", "--pairs", "--json"}
	s1, raw1 := parseSelfplayJSON(t, e.ok(append(simArgs, "-j", "1")...))
	_, raw2 := parseSelfplayJSON(t, e.ok(append(simArgs, "-j", "2")...))
	if a, b := comparable(raw1), comparable(raw2); !jsonEqual(a, b) || s1.Games != 3 || s1.Players[2].Name != "sim" {
		t.Errorf("the sim player at three: -j 1 %v\n-j 2 %v", a, b)
	}

	// A two-player run resumed with other players or rules.
	dir := filepath.Join(e.root, "two")
	two := []string{"--lexicon", "NWL23", "selfplay", "--games", "4", "--out", dir}
	e.ok(two...)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--players", "equity,score,score"}, "cannot resume: players was 2 (the default: " + dir + "/settings.json does not record it), now 3"},
		{[]string{"--players", "score,score"}, "cannot resume: p1 was equity (recorded in " + dir + "/settings.json), now score"},
		{[]string{"--tiebreak", "hasbro"}, "cannot resume: tiebreak was naspa (the default: " + dir + "/settings.json does not record it), now hasbro"},
		{[]string{"--target-score", "200"}, "cannot resume: target-score was 0 (the default"},
	} {
		r := e.run(append(append(append([]string{}, two...), "--resume", "--games", "6"), c.args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("resume with %v: exit %d, %s\nwant %q", c.args, r.code, r.stderr, c.msg)
		}
	}
	// The same settings, given by --players: resumed.
	s, _ := parseSelfplayJSON(t, e.ok(append(two, "--resume", "--games", "6", "--players", "equity,score", "--json")...))
	if s.Games != 6 || s.Played != 2 {
		t.Errorf("resumed with --players: %+v", s)
	}

	dir = filepath.Join(e.root, "four")
	four := []string{"--lexicon", "NWL23", "selfplay", "--players", "equity,score,equity,score", "--pairs", "--tiebreak", "hasbro", "--json", "--out", dir}
	e.ok(append(four, "--games", "8")...)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--players", "equity,score,equity"}, "cannot resume: players was 4 (recorded in " + dir + "/settings.json), now 3"},
		{[]string{"--players", "equity,score,equity,equity"}, "cannot resume: p4 was score (recorded in " + dir + "/settings.json), now equity"},
		{[]string{"--tiebreak", "naspa"}, "cannot resume: tiebreak was hasbro (recorded in " + dir + "/settings.json), now naspa"},
	} {
		args := append(append([]string{}, four...), "--resume", "--games", "12")
		r := e.run(append(args, c.args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("resume with %v: exit %d, %s\nwant %q", c.args, r.code, r.stderr, c.msg)
		}
	}
	_, resumed := parseSelfplayJSON(t, e.ok(append(four, "--games", "12", "--resume", "-j", "2")...))
	_, whole := parseSelfplayJSON(t, e.ok(append(four[:len(four)-2], "--games", "12")...))
	if a, b := comparable(resumed), comparable(whole); !jsonEqual(a, b) {
		t.Errorf("resumed four-player run %v\nwhole run %v", a, b)
	}
	if gcg, err := os.ReadFile(filepath.Join(dir, "game-000011.gcg")); err != nil || !strings.Contains(string(gcg), "#player4") {
		t.Errorf("game-000011.gcg: %v\n%s", err, gcg)
	}
}

// TestSelfplayChallengeRule: --challenge is the games' rule, written as
// #challenge-rule in their GCG files and kept in the run's settings, so a
// resume under another rule is refused; an unknown rule is a usage error.
func TestSelfplayChallengeRule(t *testing.T) {
	e := nwlEnv(t)
	dir := filepath.Join(e.root, "run")
	e.ok("--lexicon", "NWL23", "selfplay", "--games", "2", "--challenge", "10pt", "--out", dir)
	gcgText, err := os.ReadFile(filepath.Join(dir, "game-000000.gcg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gcgText), "#challenge-rule 10pt\n") {
		t.Errorf("game file lacks #challenge-rule 10pt:\n%s", gcgText)
	}
	r := e.run("--lexicon", "NWL23", "selfplay", "--games", "2", "--out", dir, "--resume")
	if r.code == 0 || !strings.Contains(r.stderr, "challenge was 10pt") {
		t.Errorf("resume under another rule: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := e.run("selfplay", "--challenge", "triple"); r.code != 2 || !strings.Contains(r.stderr, `--challenge: unknown challenge rule "triple"`) {
		t.Errorf("--challenge triple: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestSelfplayShardsMerge: a run cut into shards, played with any thread
// count and merged, is the run one machine plays: the same results, game
// for game, the same GCG files and settings, and the same summary, byte for
// byte. Shards of other settings, a shard missing, doubled or unfinished,
// and a game outside its shard are refused.
func TestSelfplayShardsMerge(t *testing.T) {
	e := nwlEnv(t)
	dir := func(name string) string { return filepath.Join(e.root, name) }
	run := []string{"--lexicon", "NWL23", "selfplay", "--games", "14", "--pairs", "--seed", "5"}
	for k, threads := range []string{"1", "2", "1"} {
		shard := []string{"--shard", fmt.Sprintf("%d/3", k+1)}
		if k == 1 { // as a batch system's task index gives it
			shard = []string{"--shard-index", "1", "--shards", "3"}
		}
		e.ok(append(append(run, shard...), "--out", dir(fmt.Sprintf("s%d", k+1)), "--threads", threads)...)
	}
	e.ok(append(run, "--out", dir("single"), "--threads", "2")...)
	merged := e.ok("selfplay", "merge", "--json", "--out", dir("m"), dir("s2"), dir("s3"), dir("s1"))
	whole := e.ok("selfplay", "merge", "--json", "--out", dir("w"), dir("single"))
	if merged != whole {
		t.Errorf("merged summary:\n%s\nthe single run's:\n%s", merged, whole)
	}
	files, err := os.ReadDir(dir("w"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 14+2 {
		t.Errorf("the merged run holds %d files, want 14 games, results.jsonl and settings.json", len(files))
	}
	for _, f := range files {
		a, err1 := os.ReadFile(filepath.Join(dir("m"), f.Name()))
		b, err2 := os.ReadFile(filepath.Join(dir("w"), f.Name()))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the merged shards and the single run (%v, %v)", f.Name(), err1, err2)
		}
	}
	// The merged run is a whole run: resuming it plays nothing.
	if out := e.ok(append(run, "--out", dir("m"), "--resume")...); !strings.Contains(out, "Played 0 games") {
		t.Errorf("resuming the merged run:\n%s", out)
	}
	text := e.ok("selfplay", "merge", "--out", dir("m2"), dir("s1"), dir("s2"), dir("s3"))
	if !strings.Contains(text, "equity vs score: 14 games, lexicon NWL23, seed 5, pairs\nMerged from 3 shards") {
		t.Errorf("merge's text:\n%s", text)
	}

	e.ok("--lexicon", "NWL23", "selfplay", "--games", "14", "--pairs", "--seed", "6", "--shard", "3/3", "--out", dir("other"))
	cut := dir("cut")
	e.ok(append(run, "--shard", "3/3", "--out", cut)...)
	results := filepath.Join(cut, "results.jsonl")
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(results, data[:len(data)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dirs []string
		msg  string
	}{
		{[]string{"s1", "s2"}, "shard 3/3 missing"},
		{[]string{"s1", "s2", "s2", "s3"}, "are both shard 2/3"},
		{[]string{"s1", "s2", "other"}, "is a shard of another run"},
		{[]string{"s1", "s2", "cut"}, "cut short (the run was interrupted): resume shard 3/3 first"},
		{[]string{"s1", "s2", "nosuch"}, "has no settings.json"},
	} {
		args := []string{"selfplay", "merge", "--out", dir("bad")}
		for _, d := range c.dirs {
			args = append(args, dir(d))
		}
		if r := e.run(args...); r.code != 1 || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("merge %v: exit %d, stderr %q; want %q", c.dirs, r.code, r.stderr, c.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir("bad"), "results.jsonl")); err == nil {
		t.Error("a refused merge wrote results")
	}
	// A shard resumed with other games would be cut elsewhere: refused.
	if r := e.run(append(run[:4], "20", "--pairs", "--seed", "5", "--shard", "1/3", "--out", dir("s1"), "--resume")...); r.code == 0 || !strings.Contains(r.stderr, "games was 14") {
		t.Errorf("a shard resumed with more games: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--shard", "4/3", "--out", dir("x")}, "--shard: shard 4/3"},
		{[]string{"--shard", "1/3"}, "--shard needs --out DIR"},
		{[]string{"--shard-index", "3", "--shards", "3", "--out", dir("x")}, "--shard-index must be from 0 to --shards - 1 (2), not 3"},
		{[]string{"--shard-index", "1", "--out", dir("x")}, "--shard-index and --shards go together"},
	} {
		if r := e.run(append([]string{"selfplay"}, c.args...)...); r.code != 2 || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("selfplay %v: exit %d, stderr %q; want %q", c.args, r.code, r.stderr, c.msg)
		}
	}
}
