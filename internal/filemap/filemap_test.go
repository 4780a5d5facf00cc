package filemap

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// TestOpen: the bytes are the file's, 8-byte aligned, whether mapped or
// read; an empty file gives none; a file over the limit, or missing, is an
// error naming it.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("tables\x00\x01"), 100_001)
	path := filepath.Join(dir, "t.bin")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, got []byte) {
		t.Helper()
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: %d bytes differ from the file's %d", what, len(got), len(want))
		}
		if uintptr(unsafe.Pointer(unsafe.SliceData(got)))%8 != 0 {
			t.Fatalf("%s: not 8-byte aligned", what)
		}
	}
	check("Open", f.Data)
	f.Close()
	if f.Data != nil {
		t.Fatal("Close left the data")
	}
	osf, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer osf.Close()
	r, err := readFile(osf, len(want))
	if err != nil {
		t.Fatal(err)
	}
	check("readFile", r.Data)

	if _, err := Open(path, int64(len(want)-1)); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("over the limit: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "none"), 1<<30); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if e, err := Open(empty, 1<<30); err != nil || len(e.Data) != 0 {
		t.Fatalf("empty file: %v, %d bytes", err, len(e.Data))
	}
}
