package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWrite: the file appears whole with the asked mode, replaces an old
// one, and leaves no temporary file behind.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	for _, text := range []string{"first\n", "second\n"} {
		err := Write(path, Options{Perm: 0o644, Sync: true}, func(w io.Writer) error {
			_, err := io.WriteString(w, text)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != text {
			t.Fatalf("read %q, %v; want %q", got, err, text)
		}
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644", st.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1", len(entries))
	}
}

// TestWriteFails: a failed write leaves the old file and no temporary one.
func TestWriteFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("disk on fire")
	err := Write(path, Options{Pattern: ".tmp-*"}, func(w io.Writer) error {
		io.WriteString(w, "half")
		return bad
	})
	if !errors.Is(err, bad) {
		t.Fatalf("error %v, want %v", err, bad)
	}
	if got, _ := os.ReadFile(path); string(got) != "old\n" {
		t.Errorf("the old file became %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1", len(entries))
	}
}

// TestCreateAbort: Create names the temporary file by the pattern (or
// after the file), and Abort removes it.
func TestCreateAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	f, err := Create(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Match(".report.html.tmp*", filepath.Base(f.Name())); !m {
		t.Errorf("temporary file %s", f.Name())
	}
	f.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d files left after Abort", len(entries))
	}
	if _, err := Create(filepath.Join(dir, "missing", "x"), Options{}); err == nil {
		t.Error("Create in a missing directory: no error")
	}
}

// TestFullDisk: a write that runs out of space (SimulateFullDisk, which
// fails as the kernel does, with ENOSPC after what fits) fails Write,
// naming the temporary file's error, leaves the old file byte-identical and
// removes the temporary file; once the space is back, the file is written.
func TestFullDisk(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "table.csv")
	old := []byte("leave,value\nA,1\n")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("QU,12.5\n", 1000)
	write := func(w io.Writer) error {
		_, err := io.Copy(w, strings.NewReader(text)) // through ReadFrom
		return err
	}
	restore := SimulateFullDisk(100)
	err := Write(path, Options{Perm: 0o644, Sync: true}, write)
	restore()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("error %v, want ENOSPC", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
		t.Errorf("the old file became %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1", len(entries))
	}
	if err := Write(path, Options{Perm: 0o644, Sync: true}, write); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != text {
		t.Errorf("after the space came back: %d bytes, want %d", len(got), len(text))
	}
}
