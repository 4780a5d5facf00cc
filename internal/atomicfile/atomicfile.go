// Package atomicfile writes a file so that a reader, or a run resumed after
// a crash, sees the old file or the new one, never part of one: the bytes
// go to a temporary file in the same directory, which is then renamed over
// the path. Every file the engine writes for keeps goes through it, with
// Sync on: internal/archtest fails on any other os.Create, os.WriteFile or
// os.OpenFile for writing in the module's non-test code, and on an Options
// without Sync.
//
// A process killed mid-write leaves its temporary file behind. The writer
// holds an flock(2) on its temporary file from Create until the file is
// renamed or removed, so RemoveStale can tell a dead writer's temporaries
// (no lock) from a live one's and remove only those.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// Options say how the temporary file is named and what is done before the
// rename.
type Options struct {
	// Pattern names the temporary file in path's directory as
	// os.CreateTemp does ("*" is replaced by a random string); empty means
	// "." + the file's name + ".tmp*".
	Pattern string
	// Perm, if not 0, is the file's mode; 0 keeps os.CreateTemp's 0600.
	Perm fs.FileMode
	// Sync flushes the data to the disk before the rename (and the
	// directory after it), so the new file survives a crash of the
	// machine, at the cost of a wait. Every writer of the module sets it.
	Sync bool
}

// File is a file being written: the temporary file until Commit puts it in
// place, or Abort removes it.
type File struct {
	*os.File
	path string
	opts Options
	// lock is a second descriptor of the file, holding its flock until
	// the rename or removal is done (closing File first, as Commit does,
	// keeps the lock).
	lock int
}

// Create starts writing path: the temporary file is created now, so a
// directory that cannot be written to is an error before any work.
func Create(path string, opts Options) (*File, error) {
	pattern := opts.Pattern
	if pattern == "" {
		pattern = "." + filepath.Base(path) + ".tmp*"
	}
	// A RemoveStale between the creation and the lock could remove the
	// new file: once locked, the name must still be this file's, else it
	// is made again.
	for range 8 {
		f, err := os.CreateTemp(filepath.Dir(path), pattern)
		if err != nil {
			return nil, err
		}
		lock, err := lockTemp(f)
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
		}
		if sameFile(f, f.Name()) {
			return &File{File: f, path: path, opts: opts, lock: lock}, nil
		}
		f.Close()
		syscall.Close(lock)
	}
	return nil, fmt.Errorf("creating a temporary file for %s: removed as often as made", path)
}

// lockTemp takes the writer's lock on f through a descriptor of its own
// (not inherited by child processes).
func lockTemp(f *os.File) (int, error) {
	fd, _, errno := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), syscall.F_DUPFD_CLOEXEC, 0)
	if errno != 0 {
		return -1, errno
	}
	if err := flock(int(fd), syscall.LOCK_EX); err != nil {
		syscall.Close(int(fd))
		return -1, err
	}
	return int(fd), nil
}

// sameFile reports whether name is the open file f.
func sameFile(f *os.File, name string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Lstat(name)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// flock is syscall.Flock, retried when a signal interrupts it.
func flock(fd, how int) error {
	for {
		if err := syscall.Flock(fd, how); err != syscall.EINTR {
			return err
		}
	}
}

// unlock releases the writer's lock, once the temporary file is renamed
// or removed.
func (f *File) unlock() {
	if f.lock >= 0 {
		syscall.Close(f.lock)
		f.lock = -1
	}
}

// Commit puts the file written in place: it sets the mode, syncs if asked,
// closes the file and renames it over the path. On any error the temporary
// file is removed and the path left as it was.
func (f *File) Commit() error {
	err := f.finish()
	if err == nil {
		err = os.Rename(f.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.Name())
		f.unlock()
		return err
	}
	f.unlock()
	if f.opts.Sync {
		syncDir(filepath.Dir(f.path))
	}
	return nil
}

// syncDir flushes a directory's entries, so a rename in it survives a
// crash. It is best effort: the file is in place whatever it returns, and
// some file systems cannot sync a directory.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Write writes p to the temporary file. (File defines its writes rather
// than take *os.File's, so that SimulateFullDisk sees every byte.)
func (f *File) Write(p []byte) (int, error) {
	if n, ok := takeSpace(len(p)); !ok {
		k, err := f.File.Write(p[:n])
		if err == nil {
			err = &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
		}
		return k, err
	}
	return f.File.Write(p)
}

// WriteString writes s to the temporary file.
func (f *File) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

// ReadFrom copies r to the temporary file through Write.
func (f *File) ReadFrom(r io.Reader) (int64, error) { return io.Copy(writerOnly{f}, r) }

// writerOnly hides File's ReadFrom from io.Copy, which would call it back.
type writerOnly struct{ io.Writer }

// The disk space SimulateFullDisk leaves; space < 0 means no simulation.
var (
	spaceMu sync.Mutex
	space   int64 = -1
)

// SimulateFullDisk is for tests: until the returned function is called,
// the files written through this package share free bytes of space, and a
// write beyond them fails as on a full disk (a *fs.PathError wrapping
// syscall.ENOSPC, after writing what fits). Nothing else changes: the
// temporary file, the Abort or the Commit are the real ones.
func SimulateFullDisk(free int64) (restore func()) {
	spaceMu.Lock()
	old := space
	space = max(free, 0)
	spaceMu.Unlock()
	return func() {
		spaceMu.Lock()
		space = old
		spaceMu.Unlock()
	}
}

// takeSpace claims n bytes of the simulated disk: ok when they fit (or
// there is no simulation), else how many do.
func takeSpace(n int) (fit int, ok bool) {
	spaceMu.Lock()
	defer spaceMu.Unlock()
	if space < 0 || int64(n) <= space {
		if space >= 0 {
			space -= int64(n)
		}
		return n, true
	}
	fit = int(space)
	space = 0
	return fit, false
}

func (f *File) finish() error {
	var err error
	if f.opts.Perm != 0 {
		err = f.Chmod(f.opts.Perm)
	}
	if err == nil && f.opts.Sync {
		err = f.File.Sync()
	}
	return errors.Join(err, f.Close())
}

// Abort removes the temporary file, leaving the path as it was.
func (f *File) Abort() {
	f.Close()
	os.Remove(f.Name())
	f.unlock()
}

// Write writes path with write, atomically (see Create and Commit). An
// error from write aborts the file and is returned as it is.
func Write(path string, opts Options, write func(w io.Writer) error) error {
	f, err := Create(path, opts)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}
