// Package testlex finds the shared word lists for tests and benchmarks.
//
// The lists are licensed and never committed; CI points SCRABBLE_LEXICA_DIR
// at them. When the variable is set, a missing list fails the test (CI must
// not go green by skipping); when it is unset, the test is skipped.
package testlex

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"scrabble/gaddag"
	"scrabble/lexica"
)

// EnvVar names the directory holding NWL23.txt, CSW24.txt and TWL06.txt.
const EnvVar = "SCRABBLE_LEXICA_DIR"

// Path returns the path of the named list (e.g. "NWL23").
func Path(tb testing.TB, name string) string {
	tb.Helper()
	dir := os.Getenv(EnvVar)
	if dir == "" {
		tb.Skipf("%s is not set; skipping a test that needs %s", EnvVar, name)
	}
	p := filepath.Join(dir, name+".txt")
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("%s is set but the %s word list is missing: %v", EnvVar, name, err)
	}
	return p
}

var (
	mu     sync.Mutex
	lists  = map[string]*lexica.WordList{}
	graphs = map[string]*gaddag.GADDAG{}
)

// WordList reads the named list once per test binary.
func WordList(tb testing.TB, name string) *lexica.WordList {
	tb.Helper()
	p := Path(tb, name)
	mu.Lock()
	defer mu.Unlock()
	if wl, ok := lists[name]; ok {
		return wl
	}
	wl, err := lexica.ReadWordList(p)
	if err != nil {
		tb.Fatalf("reading %s: %v", name, err)
	}
	lists[name] = wl
	return wl
}

// GADDAG compiles the named list once per test binary.
func GADDAG(tb testing.TB, name string) *gaddag.GADDAG {
	tb.Helper()
	wl := WordList(tb, name)
	mu.Lock()
	defer mu.Unlock()
	if g, ok := graphs[name]; ok {
		return g
	}
	g, err := gaddag.Build(name, wl.Words, wl.SHA256)
	if err != nil {
		tb.Fatalf("compiling %s: %v", name, err)
	}
	graphs[name] = g
	return g
}
