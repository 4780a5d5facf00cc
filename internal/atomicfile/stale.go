package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// RunPattern matches the temporary files Create names by default (an
// empty Options.Pattern) in a directory: "." + a file's name + ".tmp" and
// a random string.
const RunPattern = ".*.tmp*"

// RemoveStale removes the temporary files in dir whose names match one of
// patterns (filepath.Match) and that no live writer holds: a writer killed
// mid-write (SIGKILL, a crash, a lost machine) leaves its temporary file
// unlocked, while a live one holds its flock (see Create) until the file is
// renamed or removed, so its files are never touched. Only regular files
// are considered. It returns the names removed; a directory that does not
// exist holds nothing. The first error met is returned with what was
// removed: cleaning is a courtesy, and a caller may go on without it.
func RemoveStale(dir string, patterns ...string) (removed []string, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var first error
	for _, e := range entries {
		if !e.Type().IsRegular() || !matchAny(e.Name(), patterns) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		ok, err := removeIfUnlocked(path)
		if ok {
			removed = append(removed, path)
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return removed, first
}

func matchAny(name string, patterns []string) bool {
	for _, p := range patterns {
		if ok, _ := filepath.Match(p, name); ok {
			return true
		}
	}
	return false
}

// removeIfUnlocked removes path if its flock can be taken, holding the lock
// while it checks that the name is still the file it locked (a writer may
// have renamed it into place in between) and removes it.
func removeIfUnlocked(path string) (bool, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil // renamed or removed meanwhile
	}
	if err != nil {
		return false, err
	}
	defer f.Close() // releases the lock, after the removal
	if err := flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return false, nil // a live writer's
		}
		return false, err
	}
	if !sameFile(f, path) {
		return false, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, err
	}
	return true, nil
}
