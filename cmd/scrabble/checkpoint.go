package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Long runs (leave training, win-table training) save their counts every
// chunk of games as a checkpoint file named prefix + "c000012" + ext in
// their work directory, so an interrupted run resumes after the last one.

// trainingDir makes the work directory of a training run writing out
// (out + ".train"); one that holds an earlier run is an error unless
// resume.
func trainingDir(out string, resume bool) (string, error) {
	work := out + ".train"
	if entries, _ := os.ReadDir(work); len(entries) > 0 && !resume {
		return "", fmt.Errorf("%s holds an earlier run: continue it with --resume, or remove it", work)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return "", err
	}
	return work, nil
}

// lastCheckpoint returns the checkpoint covering the most chunks and their
// number; path is "" when there is none.
func lastCheckpoint(dir, prefix, ext string) (path string, chunks int, err error) {
	files, _ := filepath.Glob(filepath.Join(dir, prefix+"c*"+ext))
	if len(files) == 0 {
		return "", 0, nil
	}
	sort.Strings(files) // chunk numbers are zero-padded
	last := files[len(files)-1]
	if _, err := fmt.Sscanf(filepath.Base(last)[len(prefix):], "c%06d"+ext, &chunks); err != nil {
		return "", 0, fmt.Errorf("%s: cannot tell which games it covers", last)
	}
	return last, chunks, nil
}

// saveCheckpoint writes the checkpoint after chunks chunks with save, then
// removes the older ones (the new one is complete before the old go).
func saveCheckpoint(dir, prefix, ext string, chunks int, save func(path string) error) error {
	path := filepath.Join(dir, fmt.Sprintf("%sc%06d%s", prefix, chunks, ext))
	if err := save(path); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, prefix+"c*"+ext))
	for _, o := range old {
		if o != path {
			os.Remove(o)
		}
	}
	return nil
}
