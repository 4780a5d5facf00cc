package readlimit

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := func(n int) string {
		p := filepath.Join(dir, "f"+strings.Repeat("x", n%7)+string(rune('a'+n%26)))
		if err := os.WriteFile(p, bytes.Repeat([]byte("a"), n), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		path    string
		limit   int64
		tooBig  bool
		wantLen int
	}{
		{file(0), 10, false, 0},
		{file(10), 10, false, 10},
		{file(11), 10, true, 0},
		{"/dev/zero", 1 << 10, true, 0}, // never ends: read up to the limit, then refused
	} {
		data, err := ReadFile(c.path, c.limit, "a test file")
		var tl *TooLargeError
		switch {
		case c.tooBig && (!errors.As(err, &tl) || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), Size(c.limit)) || !strings.Contains(err.Error(), "a test file")):
			t.Errorf("%s, limit %d: error %v, want one naming the file, the limit and what it is", c.path, c.limit, err)
		case !c.tooBig && (err != nil || len(data) != c.wantLen):
			t.Errorf("%s, limit %d: %d bytes, error %v; want %d bytes", c.path, c.limit, len(data), err, c.wantLen)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 10, "x"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestReader(t *testing.T) {
	for _, c := range []struct {
		n, limit int
		tooBig   bool
	}{{0, 5, false}, {5, 5, false}, {6, 5, true}, {100000, 5, true}, {100000, 100000, false}} {
		got, err := io.ReadAll(Reader("z.gz", bytes.NewReader(bytes.Repeat([]byte("b"), c.n)), int64(c.limit), "a leave file"))
		var tl *TooLargeError
		if c.tooBig != errors.As(err, &tl) || (!c.tooBig && len(got) != c.n) || len(got) > c.limit {
			t.Errorf("%d bytes, limit %d: read %d, error %v", c.n, c.limit, len(got), err)
		}
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{1 << 30: "1 GB", 64 << 20: "64 MB", 64 << 10: "64 KB", 100: "100 bytes", 1536: "1536 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
