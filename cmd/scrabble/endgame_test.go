package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"scrabble/internal/testlex"
)

// sharedEndgame is a line of the shared positions.jsonl: a position and
// the value MAGPIE proved under its two-scoreless-turn rule.
type sharedEndgame struct {
	ID      string  `json:"id"`
	CGP     string  `json:"cgp"`
	Value   int     `json:"value"`
	Seconds float64 `json:"magpie_seconds_1t"`
}

// fastSharedEndgames returns the n shared endgames MAGPIE solved fastest
// (skipping the test without the shared data).
func fastSharedEndgames(t *testing.T, n int) []sharedEndgame {
	t.Helper()
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.Path(t, "NWL23") // skips without the shared lists
	path := filepath.Join(lexDir, "..", "endgame", "positions.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the shared endgames: %v", err)
	}
	defer f.Close()
	var all []sharedEndgame
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var p sharedEndgame
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		all = append(all, p)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Seconds < all[j].Seconds })
	return all[:min(n, len(all))]
}

// TestEndgameCommand: scrabble endgame --json agrees with MAGPIE's proven
// values (under its rule), and its principal variation, replayed with the
// scores the command prints, adds up to the value.
func TestEndgameCommand(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	ps := fastSharedEndgames(t, 8)
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	for _, p := range ps {
		file := e.file(p.ID+".cgp", p.CGP+"\n")
		var got endgameJSON
		out := e.ok("--lexicon", "NWL23", "endgame", "--board", file, "--json", "--scoreless-turns", "2", "--threads", "2")
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v\n%s", p.ID, err, out)
		}
		if !got.Proven || got.Value != p.Value || got.ScorelessRule != 2 {
			t.Errorf("%s: value %d proven %v (rule %d), MAGPIE %d", p.ID, got.Value, got.Proven, got.ScorelessRule, p.Value)
		}
		if len(got.PV) == 0 || got.PV[len(got.PV)-1].End == "" {
			t.Errorf("%s: the line does not reach the end: %+v", p.ID, got.PV)
			continue
		}
		last := got.PV[len(got.PV)-1].Scores
		if spread := last[0] - last[1]; spread != got.FinalSpread || spread-(got.Scores[0]-got.Scores[1]) != got.Value {
			t.Errorf("%s: the line ends at %v (spread %d), the value says %d, final spread %d", p.ID, last, spread, got.Value, got.FinalSpread)
		}
		if got.PV[0].Move.Move != got.Best.Move {
			t.Errorf("%s: the line starts with %s, the best move is %s", p.ID, got.PV[0].Move.Move, got.Best.Move)
		}
	}
}

// TestBestSolvesEndgames: best on a bag-empty position solves it (and says
// so), --static keeps the static ranking, and endgame refuses a position
// with tiles in the bag.
func TestBestSolvesEndgames(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	ps := fastSharedEndgames(t, 1)
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	file := e.file("end.cgp", ps[0].CGP+"\n")
	out := e.ok("--lexicon", "NWL23", "best", "--board", file)
	if !strings.Contains(out, "Solved exactly: ") || !strings.Contains(out, "Principal variation:") {
		t.Errorf("best on an endgame:\n%s", out)
	}
	out = e.ok("--lexicon", "NWL23", "best", "--board", file, "--static")
	if strings.Contains(out, "Solved exactly") || !strings.Contains(out, "Best ") {
		t.Errorf("best --static on an endgame:\n%s", out)
	}
	out = e.ok("--lexicon", "NWL23", "sim", "--board", file)
	if !strings.Contains(out, "Solved exactly: ") {
		t.Errorf("sim on an endgame:\n%s", out)
	}
	mid := filepath.Join("..", "..", "examples", "pos.cgp")
	r := e.run("--lexicon", "NWL23", "endgame", "--board", mid)
	if r.code != 1 || !strings.Contains(r.stderr, "the bag is not empty") {
		t.Errorf("endgame on a mid-game position: exit %d, %s", r.code, r.stderr)
	}
	r = e.run("--lexicon", "NWL23", "endgame", "--board", file, "--scoreless-turns", "9")
	if r.code != 2 || !strings.Contains(r.stderr, "--scoreless-turns") {
		t.Errorf("--scoreless-turns 9: exit %d, %s", r.code, r.stderr)
	}
}

// TestEndgameInterruptSignal sends a real SIGINT, SIGTERM or SIGHUP to an
// endgame search that cannot finish soon (7 tiles against 7, a blank): each
// stops it alike, printing the best line found so far, not proven, saying
// so, and exiting 130.
func TestEndgameInterruptSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	e := nwlEnv(t)
	bin := filepath.Join(t.TempDir(), "scrabble")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// A blank and six tiles against seven, from a self-play game: one
	// thread reaches depth 5 in 40 s, far from a proof, so the signal
	// always lands in the proof's search.
	board, err := filepath.Abs(filepath.Join("testdata", "endgame-hard.cgp"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "--data-dir", e.dataDir, "--lexicon", "NWL23", "endgame", "--board", board, "--json")
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(4 * time.Second) // the lexicon is compiled, then the search runs
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				t.Fatal(err)
			}
			var got endgameJSON
			if err := json.Unmarshal([]byte(stdout.String()), &got); err != nil {
				t.Fatalf("exit %d, stdout is not the endgame JSON (%v):\n%s\n%s", cmd.ProcessState.ExitCode(), err, stdout.String(), stderr.String())
			}
			if code := cmd.ProcessState.ExitCode(); code != 130 || !got.Interrupted || got.Proven || got.Best.Move == "" || len(got.PV) == 0 {
				t.Errorf("exit %d, %+v", code, got)
			}
			if !strings.Contains(stderr.String(), "scrabble: interrupted: the best line found so far is shown") {
				t.Errorf("stderr: %s", stderr.String())
			}
		})
	}
}
