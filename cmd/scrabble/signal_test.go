package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLongRunsStopOnSignals sends a real SIGINT, SIGTERM and SIGHUP to
// self-play and to both training commands, each run far longer than the
// test waits: every one stops alike, with the clean stop Ctrl-C gets (exit
// 130 and the hint to resume), and self-play's summary counts exactly the
// games its results file holds.
func TestLongRunsStopOnSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary and runs it for seconds")
	}
	e := nwlEnv(t)
	bin := buildBinary(t, t.TempDir())
	e.ok("--lexicon", "NWL23", "check", "CAT") // compiled once, before the runs
	for _, c := range []struct {
		name   string
		args   func(dir string) []string
		stderr string // what the stop says
	}{
		{"selfplay", func(dir string) []string {
			return []string{"selfplay", "--games", "1000000", "--threads", "1", "--json", "--out", filepath.Join(dir, "run")}
		}, "scrabble: interrupted after "},
		{"leaves-train", func(dir string) []string {
			return []string{"leaves", "train", "--games", "1000000", "--generations", "1", "--threads", "1", "--out", filepath.Join(dir, "leaves.csv")}
		}, "scrabble: interrupted in generation 1; continue with --resume"},
		{"winpct-train", func(dir string) []string {
			return []string{"winpct", "train", "--games", "1000000", "--threads", "1", "--out", filepath.Join(dir, "winpct.csv")}
		}, "scrabble: interrupted after "},
	} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
			t.Run(c.name+"/"+sig.String(), func(t *testing.T) {
				dir := t.TempDir()
				cmd := exec.Command(bin, append([]string{"--data-dir", e.dataDir, "--lexicon", "NWL23"}, c.args(dir)...)...)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				if c.name == "selfplay" {
					waitForFirstGame(t, cmd, filepath.Join(dir, "run"), &stderr)
				} else {
					time.Sleep(3 * time.Second) // training by then
				}
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				err := cmd.Wait()
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() != 130 {
					t.Fatalf("%v after %v, want exit 130\nstderr: %s", err, sig, stderr.String())
				}
				if !strings.Contains(stderr.String(), c.stderr) || !strings.Contains(stderr.String(), "continue with --resume") {
					t.Errorf("stderr %q, want %q and the hint to resume", stderr.String(), c.stderr)
				}
				if c.name != "selfplay" {
					return
				}
				s, _ := parseSelfplayJSON(t, stdout.String())
				data, err := os.ReadFile(filepath.Join(dir, "run", "results.jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				if lines := bytes.Count(data, []byte("\n")); s.Games == 0 || lines != s.Games {
					t.Errorf("the summary counts %d games, results.jsonl holds %d", s.Games, lines)
				}
			})
		}
	}
}
