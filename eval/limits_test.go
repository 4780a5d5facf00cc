package eval

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/internal/readlimit"
)

// TestLoadersLimit: every loader of the package refuses a file over its
// limit, naming the file and the limit, before reading it (sparse files
// over each limit) or while decompressing it (a gzip bomb).
func TestLoadersLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, readlimit.Stats+1); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(leaveMagic))
	zw.Write(make([]byte, readlimit.Leaves))
	zw.Close()
	bomb := filepath.Join(dir, "bomb.gz")
	if err := os.WriteFile(bomb, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		load func(string) error
		file string
		want string
	}{
		{"LoadAny", func(p string) error { _, err := LoadAny(p); return err }, big, "64 MB"},
		{"LoadAny gzip", func(p string) error { _, err := LoadAny(p); return err }, bomb, "64 MB"},
		{"LoadLeaves", func(p string) error { _, err := LoadLeaves(p); return err }, big, "64 MB"},
		{"LoadWinPct", func(p string) error { _, err := LoadWinPct(p); return err }, big, "16 MB"},
		{"LoadWinStats", func(p string) error { _, err := LoadWinStats(p); return err }, big, "256 MB"},
		{"LoadLeaveStats", func(p string) error { _, err := LoadLeaveStats(p); return err }, big, "256 MB"},
	} {
		err := c.load(c.file)
		var tl *readlimit.TooLargeError
		if !errors.As(err, &tl) || !strings.Contains(err.Error(), c.file) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s(%s): %v, want an error naming the file and the %s limit", c.name, filepath.Base(c.file), err, c.want)
		}
	}
}
