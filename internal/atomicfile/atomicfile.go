// Package atomicfile writes a file so that a reader, or a run resumed after
// a crash, sees the old file or the new one, never part of one: the bytes
// go to a temporary file in the same directory, which is then renamed over
// the path. Every file the engine writes for keeps goes through it.
package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
	// Sync flushes the data to the disk before the rename, so the new file
	// survives a crash of the machine, at the cost of a wait.
	Sync bool
}

// File is a file being written: the temporary file until Commit puts it in
// place, or Abort removes it.
type File struct {
	*os.File
	path string
	opts Options
}

// Create starts writing path: the temporary file is created now, so a
// directory that cannot be written to is an error before any work.
func Create(path string, opts Options) (*File, error) {
	pattern := opts.Pattern
	if pattern == "" {
		pattern = "." + filepath.Base(path) + ".tmp*"
	}
	f, err := os.CreateTemp(filepath.Dir(path), pattern)
	if err != nil {
		return nil, err
	}
	return &File{File: f, path: path, opts: opts}, nil
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
	}
	return err
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
