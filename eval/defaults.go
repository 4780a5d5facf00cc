package eval

import (
	"bytes"
	"compress/gzip"
	_ "embed" // the built-in leave tables
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unsafe"

	"scrabble/internal/hugemem"
	"scrabble/internal/readlimit"
	"scrabble/rules"
)

// The engine's own leave values, learned by `scrabble leaves train` (see
// docs/leaves.md for how), stored in the binary form, uncompressed: a
// process reads a built-in table in place, without unpacking it (gunzip
// took a third of a short command's time). Git and the module zip compress
// them anyway.
//
//go:embed data/NWL23.leaves
var nwl23Leaves string

//go:embed data/CSW24.leaves
var csw24Leaves string

// defaultLeaveFile maps a lexicon name to the trained table that fits it:
// North American lists share NWL23's values, Collins lists CSW24's.
func defaultLeaveFile(lexicon string) (name, data string) {
	up := strings.ToUpper(lexicon)
	switch {
	case strings.HasPrefix(up, "NWL"), strings.HasPrefix(up, "TWL"), strings.HasPrefix(up, "OTCWL"):
		return "data/NWL23.leaves", nwl23Leaves
	case strings.HasPrefix(up, "CSW"), strings.HasPrefix(up, "SOWPODS"), strings.HasPrefix(up, "COLLINS"):
		return "data/CSW24.leaves", csw24Leaves
	}
	return "", ""
}

var (
	defaultMu     sync.Mutex
	defaultTables = map[string]*LeaveTable{}
)

// DefaultLeaves returns the trained leave table for a lexicon, or nil when
// the engine has none for it (every leave is then worth 0). Tables are
// decoded once and shared; callers must not change them.
func DefaultLeaves(lexicon string) (*LeaveTable, error) {
	file, data := defaultLeaveFile(lexicon)
	if file == "" {
		return nil, nil
	}
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if t, ok := defaultTables[file]; ok {
		return t, nil
	}
	// Decoded straight from the binary's read-only data into the table's
	// own memory: no copy of the file first.
	t, err := decodeLeaves(unsafe.Slice(unsafe.StringData(data), len(data)), hugemem.Make[rules.Equity])
	if err != nil {
		return nil, fmt.Errorf("built-in leave table %s: %w", file, err)
	}
	defaultTables[file] = t
	return t, nil
}

// decodeMaybeGzip decodes the binary form, gzip-compressed or not; name is
// the file, for the error of one that decompresses to more than the limit.
func decodeMaybeGzip(name string, data []byte) (*LeaveTable, error) {
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		// The gzip trailer's last word is the data's size (mod 2^32):
		// read into a buffer of that size at once rather than growing one
		// (a fifth of the time for a built-in table). A wrong size only
		// costs a copy; the limit holds either way (a gzip bomb is refused).
		const limit = readlimit.Leaves
		buf := bytes.NewBuffer(make([]byte, 0, min(int(binary.LittleEndian.Uint32(data[len(data)-4:])), limit)+1))
		if _, err := buf.ReadFrom(readlimit.Reader(name+" (decompressed)", zr, limit, "a leave file")); err != nil {
			var tl *readlimit.TooLargeError
			if errors.As(err, &tl) {
				return nil, err
			}
			return nil, fmt.Errorf("gzip: %w", err)
		}
		data = buf.Bytes()
	}
	return DecodeLeaves(data)
}

// SaveGzip writes the table in the binary form, gzip-compressed, as the
// built-in tables are stored.
func (t *LeaveTable) SaveGzip(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := t.WriteTo(zw); err != nil {
		return err
	}
	return zw.Close()
}
