package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"scrabble/internal/testlex"
)

// TestFlagNames walks every command: parallelism is --threads (-j) and
// nothing else, -n is --top alone, no visible --workers; --workers still
// works where it was a flag before.
func TestFlagNames(t *testing.T) {
	var walk func(c *cobra.Command)
	threads := map[string]bool{}
	walk = func(c *cobra.Command) {
		check := func(f *pflag.Flag) {
			where := c.CommandPath() + " --" + f.Name
			if f.Name == "workers" && !f.Hidden {
				t.Errorf("%s: a visible --workers (the name is --threads)", where)
			}
			if f.Shorthand == "n" && f.Name != "top" {
				t.Errorf("%s: -n is for --top only", where)
			}
			if f.Shorthand == "j" && f.Name != "threads" {
				t.Errorf("%s: -j is for --threads only", where)
			}
			if f.Name == "threads" {
				threads[c.CommandPath()] = true
				if f.Shorthand != "j" {
					t.Errorf("%s: no -j", where)
				}
			}
			if f.Name == "top" && f.Shorthand != "n" {
				t.Errorf("%s: --top without -n", where)
			}
		}
		c.LocalFlags().VisitAll(check)
		c.InheritedFlags().VisitAll(check)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRootCmd(&app{}))
	for _, c := range []string{"scrabble selfplay", "scrabble leaves train", "scrabble winpct train", "scrabble winpct check",
		"scrabble sim", "scrabble best", "scrabble bench movegen"} {
		if !threads[c] {
			t.Errorf("%s has no --threads", c)
		}
	}

	// --workers is --threads on the commands that had it, and nowhere else.
	e := newTestEnv(t)
	e.ok("lexicon", "add", "QQQQ", e.file("q.txt", "QQQQ\n"))
	for _, c := range []struct {
		args    []string
		threads int
	}{
		{[]string{"--workers", "3"}, 3},
		{[]string{"--threads", "2"}, 2},
		{[]string{"-j", "1"}, 1},
	} {
		s, _ := parseSelfplayJSON(t, e.ok(append([]string{"selfplay", "--games", "2", "--p1", "score", "--json"}, c.args...)...))
		if s.Threads != c.threads || s.Workers != c.threads {
			t.Errorf("selfplay %v: threads %d, workers %d; want %d", c.args, s.Threads, s.Workers, c.threads)
		}
	}
	out := e.file("out.csv", "")
	for _, args := range [][]string{{"leaves", "train", "--out", out}, {"winpct", "train", "--out", out}, {"winpct", "check"}} {
		// A bad value names --threads: the alias reached the flag.
		if r := e.run(append(args, "--workers", "0")...); r.code != 2 || !strings.Contains(r.stderr, "--threads must be at least 1, not 0") {
			t.Errorf("%v --workers 0: %+v", args, r)
		}
	}
	if r := e.run("sim", "--workers", "2"); r.code != 2 || !strings.Contains(r.stderr, "unknown flag: --workers") {
		t.Errorf("sim --workers: %+v", r)
	}
}

// TestThreadsSetting: --threads over SCRABBLE_THREADS over SCRABBLE_WORKERS
// over the config file's threads over its workers; a bad value names where
// it came from.
func TestThreadsSetting(t *testing.T) {
	e := newTestEnv(t)
	e.ok("lexicon", "add", "QQQQ", e.file("q.txt", "QQQQ\n"))
	config := e.file("config/scrabble/config.yaml", "")
	for _, c := range []struct {
		config, threadsEnv, workersEnv string
		flag                           []string
		want                           int
		code                           int // of a failure: 2 unless given
		msg                            string
	}{
		{config: "workers: 3\n", want: 3},
		{config: "threads: 2\nworkers: 3\n", want: 2},
		{config: "workers: 3\nthreads: 2\n", want: 2},
		{config: "threads: 2\n", workersEnv: "4", want: 4},
		{config: "threads: 2\n", threadsEnv: "5", workersEnv: "4", want: 5},
		{config: "threads: 2\n", threadsEnv: "5", flag: []string{"-j", "1"}, want: 1},
		{config: "threads: none\n", code: 1, msg: `config file ` + config + `:1: threads: value "none" is not a whole number, at least 1`},
		{threadsEnv: "0", msg: `SCRABBLE_THREADS must be at least 1, not 0`},
		{workersEnv: "many", msg: `SCRABBLE_WORKERS must be a whole number, at least 1, not "many"`},
	} {
		e.file("config/scrabble/config.yaml", c.config)
		t.Setenv("SCRABBLE_THREADS", c.threadsEnv)
		t.Setenv("SCRABBLE_WORKERS", c.workersEnv)
		args := append([]string{"selfplay", "--games", "2", "--p1", "score", "--json"}, c.flag...)
		if c.msg != "" {
			if c.code == 0 {
				c.code = 2
			}
			if r := e.run(args...); r.code != c.code || !strings.Contains(r.stderr, c.msg) {
				t.Errorf("%+v: %+v; want %q", c, r, c.msg)
			}
			continue
		}
		if s, _ := parseSelfplayJSON(t, e.ok(args...)); s.Threads != c.want {
			t.Errorf("%+v: threads %d, want %d", c, s.Threads, c.want)
		}
	}
}

// TestTopZeroIsAll: --top 0 lists every move in best (runners-up) and
// review (the engine's moves a turn), as it does in moves.
func TestTopZeroIsAll(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.Path(t, "NWL23")
	e := movesEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	grid := e.file("grid.txt", gridBoard)
	var all, best []jsonMove
	if err := json.Unmarshal([]byte(e.ok("moves", "-b", grid, "-r", "AEST", "--json", "--top", "0")), &all); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(e.ok("best", "-b", grid, "-r", "AEST", "--json", "--top", "0")), &best); err != nil {
		t.Fatal(err)
	}
	// best may weigh exchanges and the pass besides the plays moves lists.
	if len(all) < 10 || len(best) < len(all) {
		t.Errorf("best --top 0 listed %d moves, moves --top 0 %d: want every play", len(best), len(all))
	}
	if err := json.Unmarshal([]byte(e.ok("best", "-b", grid, "-r", "AEST", "--json", "--top", "3")), &best); err != nil || len(best) != 4 {
		t.Errorf("best --top 3 listed %d moves (%v), want the best and 3 runners-up", len(best), err)
	}

	game := testlex.Game(t, "doug_v_emely.gcg")
	var report any
	if err := json.Unmarshal([]byte(e.ok("--lexicon", "NWL23", "review", game, "--player", "emely", "--top", "0", "--json")), &report); err != nil {
		t.Fatal(err)
	}
	// Every reviewed turn lists all the moves it counted.
	turns := 0
	var visit func(v any)
	visit = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if moves, ok := v["moves"].(float64); ok && v["reviewed"] == true {
				turns++
				if best, _ := v["best"].([]any); len(best) != int(moves) || moves < 2 {
					t.Errorf("turn %v: %d moves listed of %v", v["turn"], len(best), moves)
				}
			}
			for _, x := range v {
				visit(x)
			}
		case []any:
			for _, x := range v {
				visit(x)
			}
		}
	}
	visit(report)
	if turns < 10 {
		t.Errorf("%d reviewed turns found in the review's JSON", turns)
	}
}
