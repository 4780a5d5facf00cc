// Package readlimit reads files with a size limit: every reader of user
// input goes through it, so that no file (a device such as /dev/zero, a
// gzip bomb, a mistaken multi-gigabyte path) can make the program read or
// allocate without bound. The limits are documented, with what each
// covers, in docs/limits.md; they are generous for real use.
package readlimit

import (
	"fmt"
	"io"
	"os"
)

// The limits, in bytes.
const (
	Position    = 1 << 20   // a position: --board, a CGP or grid file
	Positions   = 64 << 20  // bench movegen --positions, one CGP a line
	Leaves      = 64 << 20  // a leave file, CSV or binary, gzip'ed ones after decompression too
	WinPct      = 16 << 20  // a win% table (CSV)
	Config      = 1 << 20   // the config file
	Stats       = 256 << 20 // a training checkpoint (leave or win statistics)
	Results     = 1 << 30   // a self-play results file (results.jsonl)
	ResultsLine = 64 << 10  // one line of a results file
)

// TooLargeError is a file (or stream) over its limit.
type TooLargeError struct {
	Name  string // the file, as given
	What  string // what it was read as, e.g. "a position"
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the most %s may hold (see docs/limits.md)", e.Name, Size(e.Limit), e.What)
}

// ReadFile reads the file at path, or fails with a *TooLargeError naming
// it and the limit when it holds more than limit bytes. A regular file is
// checked before reading; anything else (a device, a pipe) is read up to
// the limit and then refused. Errors opening or reading are returned as
// the os package gives them (they name the path).
func ReadFile(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, &TooLargeError{Name: path, What: what, Limit: limit}
	}
	return ReadAll(path, f, limit, what)
}

// ReadAll reads r to its end, or fails with a *TooLargeError naming name
// once it has given more than limit bytes.
func ReadAll(name string, r io.Reader, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Name: name, What: what, Limit: limit}
	}
	return data, nil
}

// Reader wraps r so that reading more than limit bytes from it is a
// *TooLargeError naming name: for readers that stream (a decompressor, a
// scanner) rather than read whole.
func Reader(name string, r io.Reader, limit int64, what string) io.Reader {
	return &reader{r: r, left: limit, err: &TooLargeError{Name: name, What: what, Limit: limit}}
}

type reader struct {
	r    io.Reader
	left int64 // bytes still allowed
	err  *TooLargeError
}

func (l *reader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.err
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1] // one past the limit tells a file of exactly limit bytes from a larger one
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n + int(l.left), l.err // the bytes within the limit, then the error
	}
	return n, err
}

// Size formats a limit: "64 MB", "1 GB", "512 KB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
