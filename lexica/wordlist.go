// Package lexica reads word lists and manages the compiled lexica installed in
// the data directory.
package lexica

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"slices"
	"unicode/utf8"
)

// MaxWordLength is the longest word a 15x15 board can hold.
const MaxWordLength = 15

// WordList is a parsed word list.
type WordList struct {
	Words  []string // upper case A-Z, sorted, without duplicates
	SHA256 [32]byte // of the source bytes
	// TooLong counts words skipped for being longer than MaxWordLength.
	TooLong int
}

// MaxWordListBytes is the largest word list read: CSW24 is 3 MB, so a file
// past 64 MB is not a word list (and compiling it would take gigabytes).
const MaxWordListBytes = 64 << 20

// maxLineBytes is the longest line of a word list (a word and, say, its
// definition).
const maxLineBytes = 64 << 10

// ReadWordList reads a word-list file (see ParseWordList) as a stream: the
// file is never held whole in memory, and one larger than MaxWordListBytes
// is refused.
func ReadWordList(path string) (*WordList, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading word list: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > MaxWordListBytes {
		return nil, tooBig(path)
	}
	return readWordList(path, f)
}

func tooBig(file string) error {
	return fmt.Errorf("%s: larger than the word-list limit of %d MB", file, MaxWordListBytes>>20)
}

// HashWordList returns the sha256 of a word-list file, read as a stream
// and refused past MaxWordListBytes like ReadWordList.
func HashWordList(path string) ([32]byte, error) {
	var sum [32]byte
	f, err := os.Open(path)
	if err != nil {
		return sum, fmt.Errorf("reading word list: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, MaxWordListBytes+1))
	if err != nil {
		return sum, fmt.Errorf("reading word list %s: %w", path, err)
	}
	if n > MaxWordListBytes {
		return sum, tooBig(path)
	}
	h.Sum(sum[:0])
	return sum, nil
}

// readWordList parses the word list read from r, hashing it on the way.
func readWordList(file string, r io.Reader) (*WordList, error) {
	h := sha256.New()
	lim := &io.LimitedReader{R: r, N: MaxWordListBytes + 1}
	sc := bufio.NewScanner(io.TeeReader(lim, h))
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	var p wordParser
	for sc.Scan() {
		if lim.N == 0 {
			return nil, tooBig(file)
		}
		if err := p.line(file, sc.Bytes()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, fmt.Errorf("%s:%d: line longer than %d KB", file, p.n+1, maxLineBytes>>10)
		}
		return nil, fmt.Errorf("reading word list %s: %w", file, err)
	}
	if lim.N == 0 {
		return nil, tooBig(file)
	}
	wl := p.finish()
	h.Sum(wl.SHA256[:0])
	if len(wl.Words) == 0 {
		return nil, fmt.Errorf("%s: no words", file)
	}
	return wl, nil
}

// ParseWordList parses a word list: one word a line, the first
// whitespace-separated token counts (so definitions may follow), letters are
// case-insensitive, blank lines and lines starting with '#' are skipped. A
// word with a character outside A-Z is an error naming the file and line;
// words longer than the board are skipped and counted in TooLong.
func ParseWordList(file string, data []byte) (*WordList, error) {
	return readWordList(file, bytes.NewReader(data))
}

// wordParser collects the words of a list a line at a time. One string
// holds all words; each word is a substring of it, so parsing a 3 MB list
// costs a few allocations rather than one per word.
type wordParser struct {
	buf     []byte
	spans   []wordSpan
	n       int // lines so far
	tooLong int
}

type wordSpan struct{ start, end int32 }

func (p *wordParser) line(file string, raw []byte) error {
	p.n++
	// First token.
	s := 0
	for s < len(raw) && isSpace(raw[s]) {
		s++
	}
	e := s
	for e < len(raw) && !isSpace(raw[e]) {
		e++
	}
	tok := raw[s:e]
	if len(tok) == 0 || tok[0] == '#' {
		return nil
	}
	start := len(p.buf)
	for i, c := range tok {
		switch {
		case c >= 'A' && c <= 'Z':
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		default:
			r, _ := utf8.DecodeRune(tok[i:])
			return fmt.Errorf("%s:%d:%d: %q is not a letter A-Z (in %q)", file, p.n, s+i+1, r, printable(tok))
		}
		p.buf = append(p.buf, c)
	}
	if len(tok) > MaxWordLength {
		// Full dictionaries hold words no board can take; they are
		// counted, not fatal.
		p.buf = p.buf[:start]
		p.tooLong++
		return nil
	}
	p.spans = append(p.spans, wordSpan{int32(start), int32(len(p.buf))})
	return nil
}

func (p *wordParser) finish() *WordList {
	all := string(p.buf)
	words := make([]string, len(p.spans))
	for i, sp := range p.spans {
		words[i] = all[sp.start:sp.end]
	}
	if !slices.IsSorted(words) {
		slices.Sort(words)
	}
	return &WordList{Words: slices.Compact(words), TooLong: p.tooLong}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

func printable(b []byte) string {
	if len(b) > 40 {
		b = b[:40]
	}
	return string(b)
}
