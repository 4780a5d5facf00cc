package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// testEnv is an isolated environment: its own data directory, config
// directory and no SCRABBLE_* variables from the caller.
type testEnv struct {
	t       *testing.T
	root    string // scratch directory
	dataDir string
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	root := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "xdg-data"))
	for _, k := range []string{"SCRABBLE_LEXICON", "SCRABBLE_DATA_DIR", "SCRABBLE_CONFIG", "SCRABBLE_LEXICA_DIR", "NO_COLOR"} {
		t.Setenv(k, "")
	}
	return &testEnv{t: t, root: root, dataDir: filepath.Join(root, "data")}
}

// file writes text to name under the scratch directory and returns its path.
func (e *testEnv) file(name, text string) string {
	e.t.Helper()
	p := filepath.Join(e.root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

type result struct {
	code           int
	stdout, stderr string
}

// run runs the command line with the test's data directory.
func (e *testEnv) run(args ...string) result {
	return e.runIn("", append([]string{"--data-dir", e.dataDir}, args...)...)
}

// runIn runs the command line as given, with stdin.
func (e *testEnv) runIn(stdin string, args ...string) result {
	e.t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return result{code, out.String(), errb.String()}
}

// ok runs the command line and fails the test unless it succeeds.
func (e *testEnv) ok(args ...string) string {
	e.t.Helper()
	r := e.run(args...)
	if r.code != 0 {
		e.t.Fatalf("scrabble %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

const tinyWords = "CAT\ndog\nQI\nZA\n# comment\nQUIXOTIC\n"

func TestLexiconCommands(t *testing.T) {
	e := newTestEnv(t)
	words := e.file("tiny.txt", tinyWords)
	other := e.file("other.txt", "COW\nPIG")

	if out := e.ok("lexicon", "list"); !strings.Contains(out, "No lexica installed") {
		t.Errorf("empty list: %q", out)
	}

	r := e.run("lexicon", "add", "Tiny", words)
	if r.code != 0 {
		t.Fatalf("add: %d %s", r.code, r.stderr)
	}
	if !regexp.MustCompile(`Installed Tiny: 5 words, [0-9.]+ [kM]?B, in \S+ \(default lexicon\)`).MatchString(r.stdout) {
		t.Errorf("add printed %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "Installing Tiny") {
		t.Errorf("add progress line missing: %q", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(e.dataDir, "lexica", "Tiny.gaddag")); err != nil {
		t.Error(err)
	}

	out := e.ok("lexicon", "add", "OTHER", other)
	if strings.Contains(out, "default") {
		t.Errorf("second lexicon became the default: %q", out)
	}
	list := e.ok("lexicon", "list")
	if !regexp.MustCompile(`(?m)^\*\s+Tiny\s+5\s`).MatchString(list) ||
		!regexp.MustCompile(`(?m)^\s+OTHER\s+2\s`).MatchString(list) ||
		!strings.Contains(list, "NAME") {
		t.Errorf("list:\n%s", list)
	}

	sum := sha256.Sum256([]byte(tinyWords))
	info := e.ok("lexicon", "info", "tiny")
	for _, want := range []string{"Tiny (default)", "Words:", "5", "Nodes:", "File size:",
		hex.EncodeToString(sum[:]), "Built:", filepath.Join(e.dataDir, "lexica", "Tiny.gaddag")} {
		if !strings.Contains(info, want) {
			t.Errorf("info lacks %q:\n%s", want, info)
		}
	}

	if out := e.ok("lexicon", "default", "other"); !strings.Contains(out, "OTHER") {
		t.Errorf("default printed %q", out)
	}
	if out := e.ok("lexicon", "default"); strings.TrimSpace(out) != "OTHER" {
		t.Errorf("default without NAME printed %q", out)
	}
	if !regexp.MustCompile(`(?m)^\*\s+OTHER`).MatchString(e.ok("lexicon", "list")) {
		t.Error("list does not mark OTHER as default")
	}
	e.ok("lexicon", "add", "Tiny", words, "--default")
	if out := e.ok("lexicon", "default"); strings.TrimSpace(out) != "Tiny" {
		t.Errorf("add --default left default %q", out)
	}

	if out := e.ok("lexicon", "remove", "other"); !strings.Contains(out, "Removed OTHER") {
		t.Errorf("remove printed %q", out)
	}
	r = e.run("lexicon", "info", "OTHER")
	if r.code != 1 || !strings.HasPrefix(r.stderr, "scrabble: ") || !strings.Contains(r.stderr, "not installed") {
		t.Errorf("info of removed lexicon: %+v", r)
	}
	r = e.run("lexicon", "add", "bad name", words)
	if r.code != 2 || !strings.Contains(r.stderr, "invalid lexicon name") {
		t.Errorf("add with a bad name: %+v", r)
	}
	r = e.run("lexicon", "add", "BAD", e.file("bad.txt", "CAT\nD0G\n"))
	if r.code != 1 || !strings.Contains(r.stderr, "bad.txt:2:") {
		t.Errorf("add of a bad word list: %+v", r)
	}
}

func TestCheck(t *testing.T) {
	e := newTestEnv(t)
	words := e.file("tiny.txt", tinyWords)

	r := e.run("check", "CAT")
	if r.code != 1 || !strings.Contains(r.stderr, "no default lexicon") || !strings.Contains(r.stderr, "make") {
		t.Errorf("check without a lexicon: %+v", r)
	}

	e.ok("lexicon", "add", "TINY", words)
	r = e.run("check", "cat", "Quixotic", "QI")
	if r.code != 0 || r.stdout != "CAT valid\nQUIXOTIC valid\nQI valid\n" || r.stderr != "" {
		t.Errorf("valid words: %+v", r)
	}
	r = e.run("check", "cat", "cats", "c4t", "")
	want := "CAT valid\nCATS invalid\nC4T invalid ('4' is not a letter A-Z)\n\"\" invalid (empty word)\n"
	if r.code != 1 || r.stdout != want || r.stderr != "" {
		t.Errorf("invalid words: code %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}

	// A word-list path is compiled on first use and cached.
	other := e.file("lists/other.txt", "COW\n")
	r = e.run("--lexicon", other, "check", "COW", "CAT")
	if r.code != 1 || r.stdout != "COW valid\nCAT invalid\n" {
		t.Errorf("check with a word-list path: %+v", r)
	}
	if c, _ := filepath.Glob(filepath.Join(e.dataDir, "cache", "*.gaddag")); len(c) != 1 {
		t.Errorf("cache holds %v", c)
	}
	r = e.run("--lexicon", "NOPE", "check", "CAT")
	if r.code != 1 || !strings.Contains(r.stderr, "TINY") || !strings.Contains(r.stderr, "scrabble lexicon add") {
		t.Errorf("unknown lexicon: %+v", r)
	}
	if r := e.run("check"); r.code != 2 {
		t.Errorf("check without words: %+v", r)
	}
}

// A board with CAT across the centre, as a grid and as CGP.
var (
	gridBoard = strings.Repeat("...............\n", 7) + "......CAT......\n" + strings.Repeat("...............\n", 7)
	cgpBoard  = "15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 AEINRST/ 10/0 0 lex TINY;\n"
)

func TestShow(t *testing.T) {
	e := newTestEnv(t)
	grid := e.file("grid.txt", gridBoard)
	cgp := e.file("pos.cgp", cgpBoard)

	out := e.ok("show", "--board", grid)
	if !regexp.MustCompile(`(?m)^\s*8\b.*C A T`).MatchString(out) {
		t.Errorf("grid shown as:\n%s", out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour written to a non-terminal with --color auto")
	}
	if strings.Contains(out, "To move") {
		t.Error("racks shown for a position without racks")
	}
	if out := e.ok("show", "--board", grid, "--color", "always"); !strings.Contains(out, "\x1b[") {
		t.Error("--color always wrote no colour")
	}

	out = e.ok("show", "--board", cgp, "--color", "never")
	for _, want := range []string{"AEINRST", "10", "TINY"} {
		if !strings.Contains(out, want) {
			t.Errorf("CGP position lacks %q:\n%s", want, out)
		}
	}
	if out := e.ok("show", "--board", grid, "--format", "cgp"); !strings.HasPrefix(out, "15/15/15/15/15/15/15/6CAT6/15/") {
		t.Errorf("grid as CGP: %q", out)
	}
	if out := e.ok("show", "-b", cgp, "-f", "cgp"); out != cgpBoard {
		t.Errorf("CGP round trip: %q", out)
	}
	r := e.runIn(cgpBoard, "--data-dir", e.dataDir, "show", "--board", "-", "--format", "cgp")
	if r.code != 0 || r.stdout != cgpBoard {
		t.Errorf("show from stdin: %+v", r)
	}

	bad := e.file("bad.txt", strings.Replace(gridBoard, "CAT", "C4T", 1))
	r = e.run("show", "--board", bad)
	if r.code != 1 || !strings.Contains(r.stderr, "scrabble: "+bad+":8:8") {
		t.Errorf("bad board: %+v", r)
	}
	r = e.run("show", "--board", filepath.Join(e.root, "missing.txt"))
	if r.code != 1 || !strings.Contains(r.stderr, "missing.txt") {
		t.Errorf("missing board: %+v", r)
	}
	for _, args := range [][]string{
		{"show"},
		{"show", "--board", grid, "--format", "xml"},
		{"show", "--board", grid, "--color", "sometimes"},
	} {
		if r := e.run(args...); r.code != 2 || !strings.HasPrefix(r.stderr, "scrabble: ") {
			t.Errorf("%v: %+v", args, r)
		}
	}
}

func TestConfigPrecedence(t *testing.T) {
	e := newTestEnv(t)
	e.ok("lexicon", "add", "FROMFILE", e.file("a.txt", "CAT\n"))
	e.ok("lexicon", "add", "FROMENV", e.file("b.txt", "DOG\n"))
	e.ok("lexicon", "add", "FROMFLAG", e.file("c.txt", "COW\n"))
	e.ok("lexicon", "default", "FROMFLAG")

	// which reports the lexicon in use by the one word it holds.
	which := func(args ...string) string {
		t.Helper()
		r := e.run(append(args, "check", "CAT", "DOG", "COW")...)
		for _, l := range strings.Split(r.stdout, "\n") {
			if w, ok := strings.CutSuffix(l, " valid"); ok {
				return w
			}
		}
		t.Fatalf("no valid word: %+v", r)
		return ""
	}
	if got := which(); got != "COW" {
		t.Errorf("no config: %s, want COW (the default)", got)
	}
	e.file("config/scrabble/config.yaml", "lexicon: FROMFILE\n")
	if got := which(); got != "CAT" {
		t.Errorf("config file: %s, want CAT", got)
	}
	t.Setenv("SCRABBLE_LEXICON", "fromenv")
	if got := which(); got != "DOG" {
		t.Errorf("env over config: %s, want DOG", got)
	}
	if got := which("--lexicon", "FROMFLAG"); got != "COW" {
		t.Errorf("flag over env: %s, want COW", got)
	}
	t.Setenv("SCRABBLE_LEXICON", "")

	// --config names another file.
	alt := e.file("alt.yaml", "lexicon: FROMENV\n")
	if got := which("--config", alt); got != "DOG" {
		t.Errorf("--config: %s, want DOG", got)
	}
	r := e.run("--config", filepath.Join(e.root, "nope.yaml"), "lexicon", "list")
	if r.code != 1 || !strings.Contains(r.stderr, "nope.yaml") {
		t.Errorf("missing --config file: %+v", r)
	}
	broken := e.file("config/scrabble/config.yaml", "lexicon: [unclosed\n")
	r = e.run("lexicon", "list")
	if r.code != 1 || !strings.Contains(r.stderr, "scrabble: config file "+broken) {
		t.Errorf("malformed config: %+v", r)
	}

	// data-dir: flag > SCRABBLE_DATA_DIR > config file > XDG_DATA_HOME.
	e.file("config/scrabble/config.yaml", "data-dir: "+e.dataDir+"\n")
	r = e.runIn("", "lexicon", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "FROMFILE") {
		t.Errorf("data-dir from config: %+v", r)
	}
	empty := filepath.Join(e.root, "empty")
	t.Setenv("SCRABBLE_DATA_DIR", empty)
	r = e.runIn("", "lexicon", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "No lexica installed in "+empty) {
		t.Errorf("data-dir from env: %+v", r)
	}
	r = e.runIn("", "--data-dir", e.dataDir, "lexicon", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "FROMFILE") {
		t.Errorf("data-dir from flag: %+v", r)
	}
	t.Setenv("SCRABBLE_DATA_DIR", "")
	os.Remove(filepath.Join(e.root, "config/scrabble/config.yaml"))
	r = e.runIn("", "lexicon", "list")
	if r.code != 0 || !strings.Contains(r.stdout, filepath.Join(e.root, "xdg-data", "scrabble")) {
		t.Errorf("data-dir from XDG_DATA_HOME: %+v", r)
	}
}

func TestHelpHasExamples(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Example == "" {
			t.Errorf("%q has no example", c.CommandPath())
		}
		for _, s := range c.Commands() {
			if s.Name() != "help" {
				walk(s)
			}
		}
	}
	root := newRootCmd(&app{})
	walk(root)

	e := newTestEnv(t)
	for _, args := range [][]string{{"--help"}, {"lexicon", "add", "--help"}, {"show", "--help"}, {"check", "-h"}} {
		r := e.runIn("", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Examples:") {
			t.Errorf("%v: %+v", args, r)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	e := newTestEnv(t)
	for _, args := range [][]string{
		{"frobnicate"},
		{"--no-such-flag"},
		{"lexicon", "add", "ONLY"},
		{"lexicon", "remove"},
	} {
		r := e.run(args...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, "scrabble: ") || strings.Contains(r.stderr, "panic") {
			t.Errorf("%v: %+v", args, r)
		}
	}
}
