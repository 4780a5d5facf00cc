package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/internal/testlex"
)

// TestLeavesTrainDeterministic: the same seed gives the same values with 1
// and 3 workers; a finished run resumed reads back its generations; an
// earlier run is not overwritten without --resume.
func TestLeavesTrainDeterministic(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.Path(t, "NWL23")
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.leaves"), filepath.Join(dir, "b.leaves")
	e.ok("--lexicon", "NWL23", "leaves", "train", "--games", "40", "--generations", "2", "--seed", "3", "-j", "1", "--out", a)
	e.ok("--lexicon", "NWL23", "leaves", "train", "--games", "40", "--generations", "2", "--seed", "3", "-j", "3", "--out", b)
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) == 0 || !bytes.Equal(da, db) {
		t.Fatalf("same seed, different workers: leave files differ (%d and %d bytes)", len(da), len(db))
	}
	csv := e.ok("leaves", "csv", a)
	if !strings.HasPrefix(csv, "leave,value\n") || strings.Count(csv, "\n") < 20 {
		t.Errorf("leaves csv printed:\n%.200s", csv)
	}

	r := e.run("--lexicon", "NWL23", "leaves", "train", "--games", "40", "--generations", "2", "--seed", "3", "--out", a)
	if r.code == 0 || !strings.Contains(r.stderr, "--resume") {
		t.Errorf("rerun without --resume: status %d, stderr %q", r.code, r.stderr)
	}
	out := e.ok("--lexicon", "NWL23", "leaves", "train", "--games", "40", "--generations", "2", "--seed", "3", "--resume", "--out", a)
	if !strings.Contains(out, "done earlier") {
		t.Errorf("resume of a finished run printed:\n%s", out)
	}
	if again, _ := os.ReadFile(a); !bytes.Equal(again, da) {
		t.Error("resuming a finished run changed its values")
	}

	c := filepath.Join(dir, "c.leaves")
	e.ok("--lexicon", "NWL23", "leaves", "train", "--games", "40", "--generations", "2", "--seed", "4", "--out", c)
	if dc, _ := os.ReadFile(c); bytes.Equal(dc, da) {
		t.Error("a different seed gave the same values")
	}
}
