package lexica

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
)

// repeatReader yields its pattern forever, like /dev/zero.
type repeatReader struct {
	pattern []byte
	at      int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.pattern[r.at%len(r.pattern)]
		r.at++
	}
	return len(p), nil
}

// TestReadWordListStreamLimit: a stream without end (a pipe, a device) is
// read up to the limit, not to the end, and refused there.
func TestReadWordListStreamLimit(t *testing.T) {
	_, err := readWordList("/dev/endless", &repeatReader{pattern: []byte("#\n")})
	if err == nil || !strings.Contains(err.Error(), "/dev/endless: larger than the word-list limit of 64 MB") {
		t.Fatalf("endless stream: %v", err)
	}
	// Just under the limit is fine.
	under := io.MultiReader(strings.NewReader("CAT\n"), io.LimitReader(&repeatReader{pattern: []byte("#\n")}, MaxWordListBytes-4))
	if wl, err := readWordList("under.txt", under); err != nil || len(wl.Words) != 1 {
		t.Fatalf("64 MB exactly: %v %v", wl, err)
	}
	if _, err := readWordList("long.txt", bytes.NewReader(bytes.Repeat([]byte("A"), maxLineBytes+1))); err == nil || !strings.Contains(err.Error(), "long.txt:1: line longer than 64 KB") {
		t.Fatalf("a long line: %v", err)
	}
}

// TestReadWordListStreams: reading a word list costs memory for its words,
// not for its bytes: 64 MB of comment lines around two words allocate a
// small fraction of that (reading the whole file first would allocate it
// all).
func TestReadWordListStreams(t *testing.T) {
	comment := []byte("# a comment line\n")
	n := (MaxWordListBytes - 8) / len(comment) * len(comment) // whole lines
	in := io.MultiReader(strings.NewReader("CAT\n"), io.LimitReader(&repeatReader{pattern: comment}, int64(n)), strings.NewReader("DOG\n"))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	wl, err := readWordList("big.txt", in)
	runtime.ReadMemStats(&after)
	if err != nil || len(wl.Words) != 2 {
		t.Fatalf("%v %v", wl, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > MaxWordListBytes/8 {
		t.Errorf("reading 64 MB of a word list allocated %d bytes: it is not streamed", alloc)
	}
}
