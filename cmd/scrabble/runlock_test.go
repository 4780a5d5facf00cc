package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scrabble/internal/runlock"
)

// TestSelfplayLockRealProcesses: a second selfplay process on the --out of
// a running one is refused (exit 1, naming the directory and the first
// process's pid) before it touches anything, and the first finishes with
// every game recorded once, so that the run resumes.
func TestSelfplayLockRealProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary and runs it for seconds")
	}
	e := nwlEnv(t)
	bin := buildBinary(t, t.TempDir())
	// The lexicon is compiled once, before either run, so that both
	// start in a moment.
	e.ok("--lexicon", "NWL23", "check", "CAT")
	dir := filepath.Join(e.root, "run")
	const games = 2000 // seconds of play on one thread
	args := []string{"--data-dir", e.dataDir, "--lexicon", "NWL23", "selfplay", "--games", fmt.Sprint(games),
		"--threads", "1", "--out", dir}

	first := exec.Command(bin, args...)
	var out1, err1 bytes.Buffer
	first.Stdout, first.Stderr = &out1, &err1
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	firstDone := make(chan error, 1)
	go func() { firstDone <- first.Wait() }()
	waitForFirstGame(t, first, dir, &err1)

	// A second run, and a resume of the run, while the first plays.
	for _, extra := range [][]string{nil, {"--resume"}} {
		second := exec.Command(bin, append(args, extra...)...)
		var out2, err2 bytes.Buffer
		second.Stdout, second.Stderr = &out2, &err2
		err := second.Run()
		select {
		case <-firstDone:
			t.Fatalf("the first run ended before the second was refused: give it more games\nsecond %v: %v %s", extra, err, err2.String())
		default:
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("second run %v: %v, want exit 1\nstdout: %s", extra, err, out2.String())
		}
		want := fmt.Sprintf("scrabble: %s is in use by another run (pid %d): wait for it to end, or write to another directory\n", dir, first.Process.Pid)
		if err2.String() != want {
			t.Errorf("second run %v's stderr:\n%q\nwant\n%q", extra, err2.String(), want)
		}
		if out2.Len() != 0 {
			t.Errorf("second run %v printed %q", extra, out2.String())
		}
	}

	if err := <-firstDone; err != nil {
		t.Fatalf("first run: %v\n%s", err, err1.String())
	}
	if !strings.Contains(out1.String(), "Played 2,000 games") {
		t.Errorf("first run's summary:\n%s", out1.String())
	}
	// Every game once in the results, each with its record.
	data, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var r struct{ Game int }
		if err := json.Unmarshal([]byte(line), &r); err != nil || seen[r.Game] || r.Game < 0 || r.Game >= games {
			t.Fatalf("results.jsonl line %d: %v, game %d (seen before: %v)", i+1, err, r.Game, seen[r.Game])
		}
		seen[r.Game] = true
	}
	if len(seen) != games {
		t.Fatalf("results.jsonl holds %d games, want %d", len(seen), games)
	}
	if _, err := os.Stat(filepath.Join(dir, "game-001999.gcg")); err != nil {
		t.Error(err)
	}
	// The run resumes: nothing left to play, then more games.
	r := e.run(append(args[2:], "--resume", "--json")...)
	if r.code != 0 {
		t.Fatalf("resume: exit %d: %s", r.code, r.stderr)
	}
	if s, _ := parseSelfplayJSON(t, r.stdout); s.Games != games || s.Played != 0 {
		t.Errorf("resumed: %+v", s)
	}
}

// TestTrainingLock: leaves train and winpct train refuse a work directory
// another run holds, before touching it.
func TestTrainingLock(t *testing.T) {
	e := movesEnv(t)
	for _, c := range [][]string{
		{"leaves", "train", "--games", "2", "--generations", "1", "--out"},
		{"winpct", "train", "--games", "2", "--out"},
	} {
		out := filepath.Join(e.root, c[0]+".out")
		work := out + ".train"
		if err := os.MkdirAll(work, 0o755); err != nil {
			t.Fatal(err)
		}
		// A lock taken by this process conflicts with the command's as
		// another process's would: flock locks belong to an open file.
		l, err := runlock.Acquire(work)
		if err != nil {
			t.Fatal(err)
		}
		r := e.run(append(c, out)...)
		want := fmt.Sprintf("scrabble: %s is in use by another run (pid %d)", work, os.Getpid())
		if r.code != 1 || !strings.HasPrefix(r.stderr, want) {
			t.Errorf("%s %s: exit %d, stderr %q; want exit 1 and %q", c[0], c[1], r.code, r.stderr, want)
		}
		entries, _ := os.ReadDir(work)
		if len(entries) != 1 || entries[0].Name() != runlock.File {
			t.Errorf("%s %s: the refused run wrote in %s: %v", c[0], c[1], work, entries)
		}
		l.Release()
		e.ok(append(c, out)...)
		e.ok(append(c, out, "--resume")...)
	}
}

// waitForFirstGame waits until the self-play process cmd, writing to dir,
// has recorded its first game (it is playing by then), and kills it and
// fails the test if a minute goes by first.
func waitForFirstGame(t *testing.T, cmd *exec.Cmd, dir string, stderr *bytes.Buffer) {
	t.Helper()
	results := filepath.Join(dir, "results.jsonl")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if data, _ := os.ReadFile(results); bytes.Contains(data, []byte("\n")) {
			return
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no game written to %s in a minute:\n%s", results, stderr.String())
		}
	}
}
