package runlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLockExclusive: a second lock on a held directory is refused, naming
// the directory and the holder's pid; once released it can be taken again,
// and the lock file stays.
func TestLockExclusive(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to the open file, so a second open in this
	// process conflicts as another process would.
	_, err = Acquire(dir)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), dir) ||
		!strings.Contains(err.Error(), fmt.Sprintf("(pid %d)", os.Getpid())) {
		t.Fatalf("second lock: %v", err)
	}
	l.Release()
	l.Release() // twice is harmless
	l2, err := Acquire(dir)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	defer l2.Release()
	if _, err := os.Stat(filepath.Join(dir, File)); err != nil {
		t.Error(err)
	}
}

// TestLockMissingDir: a directory that does not exist is an error naming
// it, not a panic.
func TestLockMissingDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nope")
	if _, err := Acquire(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Fatalf("got %v", err)
	}
}
