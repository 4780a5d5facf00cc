package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckpoints(t *testing.T) {
	dir := t.TempDir()
	write := func(content string) func(string) error {
		return func(path string) error { return os.WriteFile(path, []byte(content), 0o644) }
	}
	if path, c, err := lastCheckpoint(dir, "gen-1.", ".stats"); path != "" || c != 0 || err != nil {
		t.Fatalf("empty dir: %q, %d, %v", path, c, err)
	}
	for _, c := range []int{1, 2, 12} {
		if err := saveCheckpoint(dir, "gen-1.", ".stats", c, write("after "+string(rune('0'+c%10)))); err != nil {
			t.Fatal(err)
		}
	}
	// Another generation's checkpoint is left alone and not taken.
	if err := saveCheckpoint(dir, "gen-2.", ".stats", 40, write("gen 2")); err != nil {
		t.Fatal(err)
	}
	path, c, err := lastCheckpoint(dir, "gen-1.", ".stats")
	if err != nil || c != 12 || filepath.Base(path) != "gen-1.c000012.stats" {
		t.Fatalf("last = %q, %d, %v; want gen-1.c000012.stats, 12", path, c, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 2 {
		t.Errorf("files %v: want only the newest of each run", files)
	}
	if err := os.WriteFile(filepath.Join(dir, "gen-1.cXYZ.stats"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lastCheckpoint(dir, "gen-1.", ".stats"); err == nil || !strings.Contains(err.Error(), "cannot tell which games") {
		t.Errorf("a badly named checkpoint: err = %v", err)
	}
}
