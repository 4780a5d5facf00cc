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
// and 3 threads; a finished run resumed reads back its generations; an
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

func TestLeavesTrainFrom(t *testing.T) {
	lexDir := os.Getenv(testlex.EnvVar)
	testlex.Path(t, "NWL23")
	e := newTestEnv(t)
	t.Setenv(testlex.EnvVar, lexDir)
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	train := func(out string, extra ...string) result {
		argv := []string{"--lexicon", "NWL23", "leaves", "train", "--games", "30", "--generations", "1", "--seed", "5", "--out", out}
		return e.run(append(argv, extra...)...)
	}
	read := func(name string) []byte {
		data, err := os.ReadFile(path(name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, r := range []result{
		train(path("start.leaves"), "--games", "40"),
		train(path("other.leaves"), "--games", "40", "--seed", "6"),
		train(path("zero.leaves")),
		train(path("from.leaves"), "--from", path("start.leaves"), "-j", "1"),
		train(path("from3.leaves"), "--from", path("start.leaves"), "-j", "3"),
		train(path("next.leaves"), "--observe", "next"),
	} {
		if r.code != 0 {
			t.Fatalf("train: status %d, stderr %q", r.code, r.stderr)
		}
	}
	if bytes.Equal(read("from.leaves"), read("zero.leaves")) {
		t.Error("training from a table gave what training from zero leaves gives")
	}
	if bytes.Equal(read("next.leaves"), read("zero.leaves")) {
		t.Error("--observe next gave the same values as --observe rack")
	}
	if r := train(path("bogus.leaves"), "--observe", "bogus"); r.code == 0 || !strings.Contains(r.stderr, "rack or next") {
		t.Errorf("--observe bogus: status %d, stderr %q", r.code, r.stderr)
	}
	if !bytes.Equal(read("from.leaves"), read("from3.leaves")) {
		t.Error("training from a table: different values for 1 and 3 workers")
	}
	// Resuming goes on from the values the run began with, and refuses
	// other ones.
	r := train(path("from.leaves"), "--resume")
	if r.code != 0 || !strings.Contains(r.stdout, "done earlier") || !bytes.Equal(read("from.leaves"), read("from3.leaves")) {
		t.Errorf("resume without --from: status %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := train(path("from.leaves"), "--resume", "--from", path("other.leaves")); r.code == 0 || !strings.Contains(r.stderr, "cannot resume: from was sha256:") {
		t.Errorf("resume from other values: status %d, stderr %q", r.code, r.stderr)
	}
	if r := train(path("zero.leaves"), "--resume", "--from", path("start.leaves")); r.code == 0 || !strings.Contains(r.stderr, "cannot resume: from was none (recorded in") {
		t.Errorf("resume of a run from zero leaves with --from: status %d, stderr %q", r.code, r.stderr)
	}
	// A resumed run learns the way it began.
	if r := train(path("next.leaves"), "--resume"); r.code == 0 || !strings.Contains(r.stderr, "cannot resume: observe was next (recorded in") {
		t.Errorf("resume of an --observe next run without it: status %d, stderr %q", r.code, r.stderr)
	}
	if r := train(path("next.leaves"), "--resume", "--observe", "next"); r.code != 0 || !strings.Contains(r.stdout, "done earlier") {
		t.Errorf("resume of an --observe next run with it: status %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// A run from before settings.json kept no record: it cannot be checked.
	if err := os.Remove(path("zero.leaves.train/settings.json")); err != nil {
		t.Fatal(err)
	}
	if r := train(path("zero.leaves"), "--resume"); r.code == 0 || !strings.Contains(r.stderr, "it has no settings.json") {
		t.Errorf("resume of a run from before settings.json: status %d, stderr %q", r.code, r.stderr)
	}
	if r := train(path("bad.leaves"), "--from", path("missing.leaves")); r.code == 0 || !strings.Contains(r.stderr, "missing.leaves") {
		t.Errorf("--from a missing file: status %d, stderr %q", r.code, r.stderr)
	}
	// A run that could not start left nothing to resume: it starts afresh.
	if r := train(path("bad.leaves"), "--from", path("start.leaves")); r.code != 0 {
		t.Errorf("start after a failed start: status %d, stderr %q", r.code, r.stderr)
	}
}
