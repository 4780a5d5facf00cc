// Package lexica reads word lists and manages the compiled lexica installed in
// the data directory.
package lexica

import (
	"bytes"
	"crypto/sha256"
	"fmt"
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

// ReadWordList reads a word-list file (see ParseWordList).
func ReadWordList(path string) (*WordList, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading word list: %w", err)
	}
	return ParseWordList(path, data)
}

// ParseWordList parses a word list: one word a line, the first
// whitespace-separated token counts (so definitions may follow), letters are
// case-insensitive, blank lines and lines starting with '#' are skipped. A
// word with a character outside A-Z is an error naming the file and line;
// words longer than the board are skipped and counted in TooLong.
func ParseWordList(file string, data []byte) (*WordList, error) {
	wl := &WordList{SHA256: sha256.Sum256(data)}
	// One string holds all words; each word is a substring of it, so parsing a
	// 3 MB list costs two allocations rather than one per word.
	buf := make([]byte, 0, len(data))
	type span struct{ start, end int32 }
	spans := make([]span, 0, len(data)/8)
	line := 0
	for len(data) > 0 {
		line++
		var raw []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			raw, data = data[:i], data[i+1:]
		} else {
			raw, data = data, nil
		}
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
			continue
		}
		start := len(buf)
		for i, c := range tok {
			switch {
			case c >= 'A' && c <= 'Z':
			case c >= 'a' && c <= 'z':
				c -= 'a' - 'A'
			default:
				r, _ := utf8.DecodeRune(tok[i:])
				return nil, fmt.Errorf("%s:%d:%d: %q is not a letter A-Z (in %q)", file, line, s+i+1, r, printable(tok))
			}
			buf = append(buf, c)
		}
		if len(tok) > MaxWordLength {
			// Full dictionaries hold words no board can take; they are
			// counted, not fatal.
			buf = buf[:start]
			wl.TooLong++
			continue
		}
		spans = append(spans, span{int32(start), int32(len(buf))})
	}
	all := string(buf)
	words := make([]string, len(spans))
	for i, sp := range spans {
		words[i] = all[sp.start:sp.end]
	}
	if !slices.IsSorted(words) {
		slices.Sort(words)
	}
	wl.Words = slices.Compact(words)
	if len(wl.Words) == 0 {
		return nil, fmt.Errorf("%s: no words", file)
	}
	return wl, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

func printable(b []byte) string {
	if len(b) > 40 {
		b = b[:40]
	}
	return string(b)
}
