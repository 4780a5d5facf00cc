package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/internal/atomicfile"
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

// TestLeavesConvertFullDisk: leaves convert onto a disk that fills up
// mid-write fails with exit 1 naming OUT, and leaves the old OUT
// byte-identical, in every output form.
func TestLeavesConvertFullDisk(t *testing.T) {
	e := newTestEnv(t)
	in := filepath.Join("..", "..", "eval", "data", "NWL23.leaves")
	for _, name := range []string{"out.csv", "out.gz", "out.leaves"} {
		out := e.file(name, "the old table\n")
		restore := atomicfile.SimulateFullDisk(64 << 10)
		r := e.run("leaves", "convert", in, out)
		restore()
		if r.code != 1 || !strings.Contains(r.stderr, out) || !strings.Contains(r.stderr, "no space left on device") {
			t.Errorf("%s: exit %d, stderr %q; want 1 naming the file and the full disk", name, r.code, r.stderr)
		}
		if got, _ := os.ReadFile(out); string(got) != "the old table\n" {
			t.Errorf("%s: the old file became %d bytes: %.40q", name, len(got), got)
		}
		// With the space back, it converts, and the result loads whole.
		e.ok("leaves", "convert", in, out)
		e.ok("leaves", "csv", out)
	}
}

// TestLeavesPartialCSV: a leave CSV that does not list every leave is
// refused, naming the file and how many are missing, unless
// --allow-partial; a complete one (leaves convert's CSV, or leaves csv
// --all) loads as it is.
func TestLeavesPartialCSV(t *testing.T) {
	e := newTestEnv(t)
	in := filepath.Join("..", "..", "eval", "data", "NWL23.leaves")
	full := filepath.Join(e.root, "full.csv")
	e.ok("leaves", "convert", in, full)
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	total := bytes.Count(data, []byte("\n")) - 1 // the header aside
	e.ok("leaves", "convert", full, filepath.Join(e.root, "again.leaves"))
	if all := e.ok("leaves", "csv", "--all", in); all != string(data) {
		t.Errorf("leaves csv --all and leaves convert's CSV differ")
	}

	// The first half, cut at a line's end: what a full disk left before
	// writes were atomic.
	cut := bytes.IndexByte(data[len(data)/2:], '\n') + len(data)/2 + 1
	short := e.file("short.csv", string(data[:cut]))
	listed := bytes.Count(data[:cut], []byte("\n")) - 1
	for _, args := range [][]string{
		{"leaves", "convert", short, filepath.Join(e.root, "x.leaves")},
		{"leaves", "csv", short},
	} {
		r := e.run(args...)
		want := fmt.Sprintf("%s: %d of the %d leaves of 1 to 6 tiles are missing", short, total-listed, total)
		if r.code != 1 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "--allow-partial") {
			t.Errorf("%s: exit %d, stderr %q; want 1 and %q", args[1], r.code, r.stderr, want)
		}
	}
	e.ok("leaves", "convert", "--allow-partial", short, filepath.Join(e.root, "x.leaves"))
	if got := e.ok("leaves", "csv", "--allow-partial", short); got == "" {
		t.Error("leaves csv --allow-partial printed nothing")
	}
	r := e.run("selfplay", "--games", "1", "--p1-leaves", short)
	if r.code != 1 || !strings.Contains(r.stderr, short) || !strings.Contains(r.stderr, "--allow-partial-leaves") {
		t.Errorf("selfplay: exit %d, stderr %q", r.code, r.stderr)
	}
}
