package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUncachableLexicon: with a data directory where the compiled cache
// cannot be written, a word-list path (--lexicon words.txt) and a
// SCRABBLE_LEXICA_DIR list still work: the command runs on the lexicon
// compiled in memory, with one warning on stderr. The cache's place is
// taken by a file, which stops root as it stops anyone (CI runs as root).
func TestUncachableLexicon(t *testing.T) {
	e := newTestEnv(t)
	e.file("data/cache", "a file where the cache directory goes\n")
	words := e.file("words.txt", tinyWords)
	shared := filepath.Join(e.root, "shared")
	e.file("shared/TINY.txt", tinyWords)
	check := func(args ...string) {
		t.Helper()
		r := e.run(append(args, "check", "CAT", "QI")...)
		if r.code != 0 || r.stdout != "CAT valid\nQI valid\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the words checked", args, r.code, r.stdout, r.stderr)
		}
		if n := strings.Count(r.stderr, "scrabble: warning: cannot cache the compiled "); n != 1 || !strings.Contains(r.stderr, "not a directory") {
			t.Errorf("%v: stderr %q; want one warning giving the cause", args, r.stderr)
		}
	}
	check("--lexicon", words)
	t.Setenv("SCRABBLE_LEXICA_DIR", shared)
	check("--lexicon", "TINY")
	if st, err := os.Stat(filepath.Join(e.dataDir, "cache")); err != nil || st.IsDir() {
		t.Errorf("the cache file: %v, %v", st, err)
	}
}
