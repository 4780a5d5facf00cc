package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"scrabble/gcg"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/review"
)

// reviewSimJSON holds the --json fields of review --sim the tests look at.
type reviewSimJSON struct {
	Turns []struct {
		Turn     int      `json:"turn"`
		Reviewed bool     `json:"reviewed"`
		Flags    []string `json:"flags"`
		Played   struct {
			Move  string   `json:"move"`
			Value *float64 `json:"value"`
		} `json:"played"`
		Best []struct {
			Move  string   `json:"move"`
			Value *float64 `json:"value"`
		} `json:"best"`
	} `json:"turns"`
	Interrupted int `json:"interrupted_at_turn"`
}

// TestReviewSimValuesMoveMade: review --sim values the move made on every
// reviewed turn, even one the simulator's own candidates leave out (every
// move of tiny.gcg is poor, and several of the shared games' are), and
// gives it the value of the same move among the engine's best.
func TestReviewSimValuesMoveMade(t *testing.T) {
	e := reviewEnv(t)
	games := []string{filepath.Join("..", "..", "review", "testdata", "tiny.gcg"), testlex.Game(t, "josh2.gcg")}
	for _, game := range games {
		var rep reviewSimJSON
		out := e.ok("--lexicon", "NWL23", "review", game, "--sim", "--iterations", "2", "--json")
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		reviewed := 0
		for _, tr := range rep.Turns {
			if !tr.Reviewed {
				continue
			}
			reviewed++
			if tr.Played.Value == nil || strings.Contains(strings.Join(tr.Flags, ","), review.FlagNotRanked) {
				t.Errorf("%s turn %d: the move made %s has no value (flags %v)", filepath.Base(game), tr.Turn, tr.Played.Move, tr.Flags)
				continue
			}
			for _, b := range tr.Best {
				if b.Move == tr.Played.Move && (b.Value == nil || *b.Value != *tr.Played.Value) {
					t.Errorf("%s turn %d: %s valued %v among the best, %v as played", filepath.Base(game), tr.Turn, b.Move, b.Value, *tr.Played.Value)
				}
			}
		}
		if reviewed == 0 {
			t.Errorf("%s: no turn reviewed", game)
		}
	}
}

// cancelAfter is a ranker that cancels the review's context when it is
// asked to rank its n+1st turn, as Ctrl-C would during that turn.
type cancelAfter struct {
	review.Ranker
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Rank(ctx context.Context, pos *review.Position, moves []move.Move) ([]float64, error) {
	if c.n == 0 {
		c.cancel()
	}
	c.n--
	return c.Ranker.Rank(ctx, pos, moves)
}

// TestReviewSimCancelled: a review cancelled during a turn's simulation
// returns the turns before it, with their summary, and names the turn.
func TestReviewSimCancelled(t *testing.T) {
	lex := testlex.GADDAG(t, "NWL23")
	g, err := gcg.ReadFile(testlex.Game(t, "doug_v_emely.gcg"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ranker := &cancelAfter{Ranker: review.NewSimRanker(testgen.Tables(lex), nil, 2), n: 2, cancel: cancel}
	rep, err := review.Review(ctx, g.Replay(), review.Options{Tables: testgen.Tables(lex), Ranker: ranker})
	if !errors.Is(err, context.Canceled) || rep == nil {
		t.Fatalf("report %v, error %v; want the report so far and context.Canceled", rep, err)
	}
	if len(rep.Turns) != 2 || rep.Turns[0].Turn != 1 || rep.Turns[1].Turn != 2 || rep.Interrupted != 3 {
		t.Fatalf("%d turns, interrupted at %d; want turns 1 and 2, interrupted at 3", len(rep.Turns), rep.Interrupted)
	}
	for _, tr := range rep.Turns {
		if tr.Played.Value == nil {
			t.Errorf("turn %d was not valued by the simulation", tr.Turn)
		}
	}
	if s := rep.Summary.Players; len(s) != 2 || s[0].Turns+s[1].Turns != 2 {
		t.Errorf("summary %+v: want the 2 turns done", s)
	}
}

// TestReviewSimInterruptSignal sends a real SIGINT, SIGTERM and SIGHUP to
// review --sim of a shared game: each time it prints the review of the
// turns done so far (JSON, HTML, text), says where it stopped and exits
// 130; with several games it names the game it stopped in.
func TestReviewSimInterruptSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	e := reviewEnv(t)
	game := testlex.Game(t, "doug_v_emely.gcg")
	bin := filepath.Join(t.TempDir(), "scrabble")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// interrupt runs the review of games and sends sig once it has
	// reviewed for a while; it returns the exit code, stdout and stderr.
	interrupt := func(t *testing.T, sig syscall.Signal, games []string, args ...string) (int, string, string) {
		t.Helper()
		argv := append([]string{"--data-dir", e.dataDir, "--lexicon", "NWL23", "review"}, games...)
		cmd := exec.Command(bin, append(append(argv, "--sim", "--iterations", "200"), args...)...)
		var stdout strings.Builder
		cmd.Stdout = &stdout
		errPipe, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		stderr := bufio.NewReader(errPipe)
		// The first line says the simulation is starting: Ctrl-C is
		// handled from then on.
		first, err := stderr.ReadString('\n')
		if err != nil || !strings.HasPrefix(first, "Reviewing by simulation") {
			cmd.Process.Kill()
			t.Fatalf("first stderr line %q, %v", first, err)
		}
		time.Sleep(2 * time.Second)
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		var rest strings.Builder
		if _, err := bufio.NewReader(stderr).WriteTo(&rest); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), stdout.String(), first + rest.String()
	}

	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) { checkReviewInterrupted(t, e, sig, interrupt, game) })
	}

	// Several games: the one stopped in is named, those before it whole.
	other := testlex.Game(t, "josh2.gcg")
	code, stdout, stderr := interrupt(t, syscall.SIGTERM, []string{game, other})
	want := "interrupted in " + game + " at turn "
	if code != 130 || !strings.Contains(stdout, "Review "+want) || !strings.Contains(stderr, "scrabble: "+want) {
		t.Errorf("several games: exit %d, want 130 and %q\nstdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
	}
}

// checkReviewInterrupted interrupts review --sim of game with sig, in JSON
// with an HTML page and in text, and checks what it prints.
func checkReviewInterrupted(t *testing.T, e *testEnv, sig syscall.Signal,
	interrupt func(*testing.T, syscall.Signal, []string, ...string) (int, string, string), game string) {
	html := filepath.Join(e.root, "partial-"+sig.String()+".html")
	code, stdout, stderr := interrupt(t, sig, []string{game}, "--json", "--html", html)
	var rep reviewSimJSON
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("exit %d, stdout is not the JSON report (%v):\n%s\n%s", code, err, stdout, stderr)
	}
	t.Logf("interrupted at turn %d with %d turns done", rep.Interrupted, len(rep.Turns))
	// Both players' turns are reviewed, so those done are 1 to N-1.
	if code != 130 || rep.Interrupted < 1 || len(rep.Turns) != rep.Interrupted-1 {
		t.Errorf("exit %d, %d turns, interrupted at turn %d; want 130 and the turns before it\n%s", code, len(rep.Turns), rep.Interrupted, stderr)
	}
	for i, tr := range rep.Turns {
		if tr.Turn != i+1 {
			t.Errorf("turn %d in place %d", tr.Turn, i+1)
		}
	}
	wantMsg := "interrupted at turn "
	if !strings.Contains(stderr, "scrabble: "+wantMsg) {
		t.Errorf("stderr does not say where it stopped:\n%s", stderr)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatalf("the partial HTML report: %v", err)
	}
	if n := strings.Count(string(page), `<section class="turn"`); n != len(rep.Turns) {
		t.Errorf("%d turn sections in the HTML, want the %d turns done", n, len(rep.Turns))
	}

	code, stdout, _ = interrupt(t, sig, []string{game})
	if code != 130 || !strings.Contains(stdout, "Summary\n") || !strings.Contains(stdout, "Review "+wantMsg) {
		t.Errorf("text: exit %d\n%s", code, stdout)
	}
}
