package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTablesFile: lexicon add stores the move generator's tables beside
// the lexicon, and commands read them (they are not written again); a
// damaged file is replaced without a word and the answers stay the same;
// a place that cannot take the file costs one warning a run, not the
// answer; lexicon remove deletes the file with the lexicon.
func TestTablesFile(t *testing.T) {
	e := movesEnv(t)
	path := filepath.Join(e.dataDir, "lexica", "MOVES.tables")
	st1, err := os.Stat(path)
	if err != nil {
		t.Fatalf("no tables file after lexicon add: %v", err)
	}
	board := e.file("one.txt", strings.Repeat("...............\n", 7)+"......CATS.....\n"+strings.Repeat("...............\n", 7))
	best := func(what string) string {
		t.Helper()
		r := e.run("best", "--board", board, "--rack", "AEST", "--top", "3")
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("%s: exit %d, stderr %q", what, r.code, r.stderr)
		}
		return r.stdout
	}
	want := best("first run")
	if !strings.Contains(want, "Best play: ") {
		t.Fatalf("best found nothing expected:\n%s", want)
	}
	if st2, err := os.Stat(path); err != nil || !os.SameFile(st1, st2) {
		t.Fatalf("a command wrote the tables file again (%v)", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/3] ^= 0x10
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := best("damaged file"); got != want {
		t.Fatalf("with a damaged tables file:\n%s\nwant:\n%s", got, want)
	}
	if fixed, _ := os.ReadFile(path); string(fixed) == string(data) {
		t.Fatal("the damaged tables file was not replaced")
	}
	// A directory where the file goes: it cannot be stored.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	r := e.run("best", "--board", board, "--rack", "AEST", "--top", "3")
	if r.code != 0 || r.stdout != want {
		t.Fatalf("tables not stored: exit %d, stdout:\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
	if n := strings.Count(r.stderr, "scrabble: warning: cannot store the move generator's tables of MOVES"); n != 1 {
		t.Fatalf("stderr %q: want one warning", r.stderr)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	best("after the directory went")
	e.ok("lexicon", "remove", "MOVES")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("lexicon remove left the tables file (%v)", err)
	}
}
