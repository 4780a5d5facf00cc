// Package runlock keeps two long runs from writing the same output
// directory at once: a run holds an exclusive flock(2) on a lock file in
// its directory for as long as it lives, and a second run on the directory
// is refused instead of playing every game again beside the first and
// leaving a results file that cannot be resumed. The kernel releases the
// lock when the process ends, however it ends, so a killed run never
// leaves a stale lock behind.
package runlock

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// File is the name of the lock file in a run's directory. It is no work of
// the run's: code listing a run's files passes it over.
const File = ".scrabble.lock"

// ErrLocked is wrapped by Acquire's error when another process holds the
// directory.
var ErrLocked = errors.New("in use by another run")

// Lock is a held lock on a run's directory.
type Lock struct {
	f *os.File
}

// Acquire takes the lock on dir, which must exist, without waiting: when
// another process holds it, the error names dir and, when it can be read,
// that process's id, and wraps ErrLocked. The lock file records the
// holder's process id for that message.
func Acquire(dir string) (*Lock, error) {
	path := filepath.Join(dir, File)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			holder := ""
			if pid := holderPID(path); pid > 0 {
				holder = fmt.Sprintf(" (pid %d)", pid)
			}
			return nil, fmt.Errorf("%s is %w%s: wait for it to end, or write to another directory", dir, ErrLocked, holder)
		}
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	// The pid is only for the message above: a failure to record it
	// loses nothing else.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f}, nil
}

// Release gives the lock up; the lock file stays (removing it would let a
// third process lock a new file while a second still holds the old one).
// Releasing a nil or released lock does nothing.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	l.f.Close() // closing the only descriptor releases the flock
	l.f = nil
}

// holderPID is the process id recorded in the lock file, or 0.
func holderPID(path string) int {
	data, err := os.ReadFile(path)
	if err != nil || len(data) > 32 {
		return 0
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(data)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// flock is syscall.Flock on f, retried when a signal interrupts it.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}
