package testlex

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// GamesEnvVar names the directory of recorded games (*.gcg) for tests.
const GamesEnvVar = "SCRABBLE_GAMES_DIR"

// GamesDir returns the directory of the shared recorded games:
// $SCRABBLE_GAMES_DIR, else ../shared/games beside the repository root (the
// directory holding go.mod, found from the test's working directory). The
// policy is the word lists': when SCRABBLE_LEXICA_DIR is set (CI) a missing
// directory fails the test, otherwise the test is skipped.
func GamesDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv(GamesEnvVar)
	if dir == "" {
		if root, ok := repoRoot(); ok {
			dir = filepath.Join(root, "..", "shared", "games")
		}
	}
	if dir != "" {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
	}
	if os.Getenv(EnvVar) != "" || os.Getenv(GamesEnvVar) != "" {
		tb.Fatalf("the recorded games are missing: set %s to their directory (looked in %q)", GamesEnvVar, dir)
	}
	tb.Skipf("no recorded games (%s unset and ../shared/games not found); skipping", GamesEnvVar)
	return ""
}

// Games returns the paths of every *.gcg in GamesDir, sorted; none is a
// failure.
func Games(tb testing.TB) []string {
	tb.Helper()
	dir := GamesDir(tb)
	paths, err := filepath.Glob(filepath.Join(dir, "*.gcg"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(paths) == 0 {
		tb.Fatalf("%s holds no *.gcg files", dir)
	}
	sort.Strings(paths)
	return paths
}

// Game returns the path of one recorded game by file name, failing when it
// is missing (e.g. "vs_andy.gcg").
func Game(tb testing.TB, name string) string {
	tb.Helper()
	p := filepath.Join(GamesDir(tb), name)
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("recorded game %s: %v", name, err)
	}
	return p
}

// repoRoot walks up from the working directory (a test runs in its
// package's directory) to the directory holding go.mod.
func repoRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
