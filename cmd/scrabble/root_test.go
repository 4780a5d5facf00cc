package main

import (
	"encoding/json"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionText(t *testing.T) {
	for _, c := range []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want []string
	}{
		{"a clean checkout", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261202051704-21519d3b7cd4"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "21519d3b7cd44b5c2a307b8a8be409d5dbfd2140"},
			{Key: "vcs.time", Value: "2026-12-02T05:17:04Z"},
			{Key: "vcs.modified", Value: "false"},
		}}, true, []string{
			"scrabble v0.0.0-20261202051704-21519d3b7cd4\n",
			"commit:  21519d3b7cd44b5c2a307b8a8be409d5dbfd2140\n",
			"date:    2026-12-02T05:17:04Z (commit time)\n",
			"go:      " + runtime.Version(),
		}},
		{"uncommitted changes", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc123"},
			{Key: "vcs.modified", Value: "true"},
		}}, true, []string{"scrabble (devel)\n", "commit:  abc123 (with uncommitted changes)\n", "date:    unknown"}},
		{"no vcs stamp", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true,
			[]string{"commit:  unknown (not built from a git checkout)\n"}},
		{"no build info", nil, false, []string{"scrabble unknown\n", "go:      " + runtime.Version()}},
	} {
		got := versionText(c.info, c.ok)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: lacks %q:\n%s", c.name, w, got)
			}
		}
	}
}

func TestVersionCommandAndFlag(t *testing.T) {
	e := newTestEnv(t)
	// Neither reads the config file: a broken one does not stop them.
	e.file("config/scrabble/config.yaml", "lexicon: [unclosed\n")
	cmd := e.run("version")
	flag := e.run("--version")
	if cmd.code != 0 || flag.code != 0 {
		t.Fatalf("version: %+v\n--version: %+v", cmd, flag)
	}
	for _, w := range []string{"scrabble ", "commit: ", "date: ", "go:      " + runtime.Version()} {
		if !strings.Contains(cmd.stdout, w) {
			t.Errorf("version lacks %q:\n%s", w, cmd.stdout)
		}
	}
	first, _, _ := strings.Cut(cmd.stdout, "\n")
	if strings.TrimSpace(flag.stdout) != strings.TrimPrefix(first, "scrabble ") {
		t.Errorf("--version printed %q, version's first line is %q", flag.stdout, first)
	}
	if r := e.run("version", "extra"); r.code != 2 {
		t.Errorf("version with an argument: %+v", r)
	}
}

func TestCompletionScripts(t *testing.T) {
	e := newTestEnv(t)
	e.file("config/scrabble/config.yaml", "lexicon: [unclosed\n")
	for shell, marker := range map[string]string{
		"bash":       "__start_scrabble",
		"zsh":        "#compdef scrabble",
		"fish":       "complete -c scrabble",
		"powershell": "Register-ArgumentCompleter",
	} {
		r := e.run("completion", shell)
		if r.code != 0 || !strings.Contains(r.stdout, marker) || r.stderr != "" {
			t.Errorf("completion %s: exit %d, stderr %q, script has %q: %v",
				shell, r.code, r.stderr, marker, strings.Contains(r.stdout, marker))
		}
	}
}

// Every command is described in the root help, under its group.
func TestRootHelpDescribesEveryCommand(t *testing.T) {
	root := newRootCmd(&app{})
	described := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+)  `).FindAllStringSubmatch(root.Long, -1) {
		described[m[1]] = true
	}
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		if !c.Hidden && !described[c.Name()] {
			t.Errorf("scrabble --help does not describe %q", c.Name())
		}
	}
	if len(root.Commands()) < 15 {
		t.Errorf("only %d commands: the completion or version command is missing", len(root.Commands()))
	}
	e := newTestEnv(t)
	out := e.runIn("", "--help").stdout
	for _, group := range []string{"Lexica", "Positions and plays", "Search", "Self-play and training", "Game review", "Benchmarks"} {
		if !strings.Contains(out, "\n"+group) {
			t.Errorf("scrabble --help lacks the group %q", group)
		}
	}
}

func TestConfigUnknownKeyWarns(t *testing.T) {
	e := newTestEnv(t)
	e.ok("lexicon", "add", "TINY", e.file("tiny.txt", tinyWords))
	path := e.file("config/scrabble/config.yaml", "lexicon: TINY\ncolour: never\nLexicon2: x\n")
	r := e.run("check", "QI")
	if r.code != 0 || r.stdout != "QI valid\n" {
		t.Fatalf("config with unknown keys: %+v", r)
	}
	for _, w := range []string{
		"scrabble: warning: config file " + path + `:2: unknown key "colour" ignored`,
		"config file " + path + `:3: unknown key "Lexicon2" ignored`,
	} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if strings.Count(r.stderr, "\n") != 2 {
		t.Errorf("want one warning a key:\n%s", r.stderr)
	}
}

func TestConfigBadValues(t *testing.T) {
	for _, c := range []struct {
		text string
		want string // after "config file PATH"
	}{
		{"seed: abc\n", `:1: seed: value "abc" is not a whole number`},
		{"lexicon: TINY\nseed: -1\n", `:2: seed: value "-1" is not a whole number`},
		{"threads: 0\n", `:1: threads: value "0" is not a whole number, at least 1`},
		{"workers: two\n", `:1: workers: value "two" is not a whole number, at least 1`},
		{"lexicon: [NWL23, CSW24]\n", `:1: lexicon: want a single value, not a list`},
		{"data-dir:\n  a: b\n", `:2: data-dir: want a single value, not a map`},
		{"- lexicon: NWL23\n", `:1: want lines of key: value (data-dir, lexicon, seed, threads), not a list`},
		{"seed: 1\nseed: 2\n", `:2: seed is set again (first on line 1)`},
		{"workers: 2\nworkers: 3\n", `:2: workers is set again (first on line 1)`},
	} {
		e := newTestEnv(t)
		path := e.file("config/scrabble/config.yaml", c.text)
		r := e.run("lexicon", "list")
		if r.code != 1 || !strings.Contains(r.stderr, "scrabble: config file "+path+c.want) {
			t.Errorf("config %q: exit %d, stderr %q, want %q", c.text, r.code, r.stderr, c.want)
		}
	}
}

// The keys the docs name for self-play (seed, threads and the old workers)
// reach the command from the config file.
func TestConfigSeedAndThreads(t *testing.T) {
	e := newTestEnv(t)
	e.ok("lexicon", "add", "TINY", e.file("tiny.txt", tinyWords))
	for _, key := range []string{"threads", "workers"} {
		e.file("config/scrabble/config.yaml", "seed: 7\n"+key+": 3\n")
		out := e.ok("selfplay", "--games", "2", "--json")
		var raw map[string]any
		if err := json.Unmarshal([]byte(out), &raw); err != nil {
			t.Fatalf("%s: %v\n%s", key, err, out)
		}
		threads, ok := raw["threads"]
		if !ok {
			threads = raw["workers"]
		}
		if raw["seed"] != 7.0 || threads != 3.0 {
			t.Errorf("config seed: 7, %s: 3: selfplay ran with seed %v on %v threads", key, raw["seed"], threads)
		}
	}
}
