package eval

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/bits"
	"path/filepath"
	"strconv"
	"strings"

	"scrabble/internal/atomicfile"
	"scrabble/internal/readlimit"
	"scrabble/rules"
)

// Binary leave file layout (all integers little-endian):
//
//	offset  size  field
//	0       8     magic "SCRLEAVE"
//	8       4     format version (1)
//	12      4     number of entries n (Len() of the table)
//	16      4n    values in millipoints, int32, in index order
//	16+4n   4     CRC-32C (Castagnoli) of bytes [0, 16+4n)
const (
	leaveMagic    = "SCRLEAVE"
	leaveVersion  = 1
	leaveHeader   = 16
	leaveTrailer  = 4
	csvHeaderLine = "leave,value"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteTo writes the table in the binary form. It implements io.WriterTo.
func (t *LeaveTable) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	crc := crc32.New(castagnoli)
	out := io.MultiWriter(bw, crc)
	var n int64
	var hdr [leaveHeader]byte
	copy(hdr[:], leaveMagic)
	binary.LittleEndian.PutUint32(hdr[8:], leaveVersion)
	binary.LittleEndian.PutUint32(hdr[12:], uint32(numLeaves))
	if _, err := out.Write(hdr[:]); err != nil {
		return n, err
	}
	n += leaveHeader
	var buf [4096]byte
	for start := 0; start < numLeaves; start += len(buf) / 4 {
		end := min(start+len(buf)/4, numLeaves)
		b := buf[:0]
		for i := start; i < end; i++ {
			b = binary.LittleEndian.AppendUint32(b, uint32(t.At(i)))
		}
		if _, err := out.Write(b); err != nil {
			return n, err
		}
		n += int64(len(b))
	}
	var sum [leaveTrailer]byte
	binary.LittleEndian.PutUint32(sum[:], crc.Sum32())
	if _, err := bw.Write(sum[:]); err != nil {
		return n, err
	}
	n += leaveTrailer
	return n, bw.Flush()
}

// Save writes the table in the binary form to path atomically: to a
// temporary file in the same directory, then renamed over path.
func (t *LeaveTable) Save(path string) error { return saveAtomic(path, "leaves", t) }

// SaveAs writes the table in the form path's name asks for: CSV (.csv,
// every leave, those worth 0 too, so that it loads back whole),
// gzip-compressed binary (.gz), else binary (Save). Every form is written
// atomically: on any error, a full disk say, the file at path is left as it
// was.
func (t *LeaveTable) SaveAs(path string) error {
	switch {
	case strings.HasSuffix(path, ".csv"):
		return saveAtomic(path, "leaves", writerTo(func(w io.Writer) error { return t.WriteCSV(w, false) }))
	case strings.HasSuffix(path, ".gz"):
		return saveAtomic(path, "leaves", writerTo(t.SaveGzip))
	}
	return t.Save(path)
}

// writerTo makes a write function an io.WriterTo for saveAtomic.
type writerTo func(w io.Writer) error

func (f writerTo) WriteTo(w io.Writer) (int64, error) { return 0, f(w) }

// saveAtomic writes w to a temporary file beside path, synced, then renames
// it over path, so readers never see half a file. Errors name path.
func saveAtomic(path, what string, w io.WriterTo) (err error) {
	// What an earlier save of this file, killed mid-write, left beside it
	// (never a live writer's: see atomicfile.RemoveStale). Only this file's
	// own temporaries: its directory is the user's.
	atomicfile.RemoveStale(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	err = atomicfile.Write(path, atomicfile.Options{Perm: 0o644, Sync: true}, func(f io.Writer) error {
		_, err := w.WriteTo(f)
		return err
	})
	if err != nil {
		return fmt.Errorf("saving %s to %s: %w", what, path, err)
	}
	return nil
}

// LoadLeaves reads a table in the binary form from path.
func LoadLeaves(path string) (*LeaveTable, error) {
	data, err := readlimit.ReadFile(path, readlimit.Leaves, "a leave file")
	if err != nil {
		return nil, fmt.Errorf("loading leaves: %w", err)
	}
	t, err := DecodeLeaves(data)
	if err != nil {
		return nil, fmt.Errorf("leave file %s: %w", path, err)
	}
	return t, nil
}

// DecodeLeaves reads a table in the binary form. Errors say what is wrong
// (not a leave file, unsupported version, truncated, checksum mismatch, or a
// table made for a different tile distribution) but not which file.
func DecodeLeaves(data []byte) (*LeaveTable, error) {
	return decodeLeaves(data, func(n int) []rules.Equity { return make([]rules.Equity, n) })
}

// decodeLeaves is DecodeLeaves, the values decoded into memory from alloc
// (of n values).
func decodeLeaves(data []byte, alloc func(n int) []rules.Equity) (*LeaveTable, error) {
	if len(data) < len(leaveMagic) {
		if bytes.HasPrefix([]byte(leaveMagic), data) {
			return nil, fmt.Errorf("truncated: %d bytes, shorter than the %d-byte header", len(data), leaveHeader)
		}
		return nil, errors.New("not a binary leave file (no SCRLEAVE magic)")
	}
	if string(data[:len(leaveMagic)]) != leaveMagic {
		return nil, errors.New("not a binary leave file (no SCRLEAVE magic)")
	}
	if len(data) < leaveHeader {
		return nil, fmt.Errorf("truncated: %d bytes, shorter than the %d-byte header", len(data), leaveHeader)
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != leaveVersion {
		return nil, fmt.Errorf("unsupported format version %d (this build reads version %d)", v, leaveVersion)
	}
	n := int64(binary.LittleEndian.Uint32(data[12:]))
	want := leaveHeader + 4*n + leaveTrailer
	if int64(len(data)) != want {
		what := "truncated"
		if int64(len(data)) > want {
			what = "trailing data"
		}
		return nil, fmt.Errorf("%s: %d bytes, but the header's %d entries need %d", what, len(data), n, want)
	}
	body := data[:len(data)-leaveTrailer]
	if got, sum := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(data[len(body):]); got != sum {
		return nil, fmt.Errorf("checksum mismatch (stored %08x, computed %08x): the file is corrupt", sum, got)
	}
	if n != int64(numLeaves) {
		return nil, fmt.Errorf("table has %d entries but this build's tile distribution has %d leaves of 1 to %d tiles: it was made for a different distribution", n, numLeaves, MaxLeave)
	}
	t := &LeaveTable{vals: alloc(numLeaves), key: tableKeys.Add(1)}
	vals := body[leaveHeader:]
	for i := range t.vals {
		t.vals[i] = rules.Equity(binary.LittleEndian.Uint32(vals[4*i:]))
	}
	return t, nil
}

// LoadAny reads a table from path in either form: binary when the file
// starts with the SCRLEAVE magic (or is gzip-compressed), CSV otherwise. A
// CSV must list every leave (see ReadCSV); LoadAnyPartial takes one that
// does not.
func LoadAny(path string) (*LeaveTable, error) { return loadAny(path, false) }

// LoadAnyPartial is LoadAny for a CSV that may leave leaves out (a
// hand-written table, or `leaves csv` without --all): those are worth 0.
func LoadAnyPartial(path string) (*LeaveTable, error) { return loadAny(path, true) }

func loadAny(path string, partial bool) (*LeaveTable, error) {
	data, err := readlimit.ReadFile(path, readlimit.Leaves, "a leave file")
	if err != nil {
		return nil, fmt.Errorf("loading leaves: %w", err)
	}
	if bytes.HasPrefix(data, []byte(leaveMagic)) || bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		t, err := decodeMaybeGzip(path, data)
		if err != nil {
			return nil, fmt.Errorf("leave file %s: %w", path, err)
		}
		return t, nil
	}
	return readCSV(path, bytes.NewReader(data), partial)
}

// WriteCSV writes the table as CSV: a header line "leave,value", then one
// line per leave in index order, the leave's tiles alphabetically with '?'
// for a blank last and the value in points with up to three decimals
// ("EIRST?,25.125"). With skipZero, leaves worth 0 are left out.
func (t *LeaveTable) WriteCSV(w io.Writer, skipZero bool) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(csvHeaderLine + "\n")
	var line []byte
	for i := 0; i < numLeaves; i++ {
		v := t.At(i)
		if skipZero && v == 0 {
			continue
		}
		r := leaveAt(i)
		line = appendLeave(line[:0], &r)
		line = append(line, ',')
		line = appendPoints(line, v)
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func appendLeave(b []byte, r *rules.Rack) []byte {
	for j := 1; j < rules.RackSlots; j++ {
		for range r[j] {
			b = append(b, byte('A'+j-1))
		}
	}
	for range r[0] {
		b = append(b, '?')
	}
	return b
}

// appendPoints renders an equity in points with up to three decimals.
func appendPoints(b []byte, v rules.Equity) []byte {
	return append(b, v.String()...)
}

// ReadCSV reads a table in the CSV form written by WriteCSV; file names the
// input in error messages. Blank lines and lines starting with '#' are
// skipped, as is a "leave,value" header line. Tiles may come in any order;
// values are in points and are rounded to the nearest millipoint. Errors
// name the file and line: a character that is not a tile, a leave of no
// tiles or more than 6, a leave the distribution does not allow, a leave
// listed twice, a bad value.
//
// The table must be complete: every leave of 1 to MaxLeave tiles the
// distribution allows (Len of them) listed, as WriteCSV writes them without
// skipZero. A CSV that leaves any out, a file cut short on a full disk say,
// is refused with a *MissingLeavesError; ReadPartialCSV takes it.
func ReadCSV(file string, r io.Reader) (*LeaveTable, error) { return readCSV(file, r, false) }

// ReadPartialCSV is ReadCSV for a CSV that may leave leaves out: those are
// worth 0.
func ReadPartialCSV(file string, r io.Reader) (*LeaveTable, error) { return readCSV(file, r, true) }

// MissingLeavesError is ReadCSV's refusal of a CSV that does not list every
// leave.
type MissingLeavesError struct {
	File    string
	Missing int    // leaves not listed
	Total   int    // leaves a complete table lists (Len)
	First   string // the first missing leave in the table's order
}

func (e *MissingLeavesError) Error() string {
	return fmt.Sprintf("%s: %d of the %d leaves of 1 to %d tiles are missing (the first: %s): the file is cut short or lists only some leaves",
		e.File, e.Missing, e.Total, MaxLeave, e.First)
}

func readCSV(file string, r io.Reader, partial bool) (*LeaveTable, error) {
	t := NewLeaveTable()
	seen := make([]uint64, (numLeaves+63)/64)
	sc := bufio.NewScanner(r)
	lineNo, sawData := 0, false
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", file, lineNo, fmt.Sprintf(format, args...))
		}
		leaveField, valueField, ok := strings.Cut(line, ",")
		if !ok {
			return nil, fail("want leave,value but found %q", line)
		}
		leaveField, valueField = strings.TrimSpace(leaveField), strings.TrimSpace(valueField)
		if !sawData && strings.EqualFold(leaveField, "leave") && strings.EqualFold(valueField, "value") {
			sawData = true
			continue
		}
		sawData = true
		leave, err := parseLeave(leaveField)
		if err != nil {
			return nil, fail("%v", err)
		}
		mp, err := parsePoints(valueField)
		if err != nil {
			return nil, fail("leave %s: %v", leaveField, err)
		}
		i, _ := leaveIndex(&leave)
		if seen[i/64]&(1<<(i%64)) != 0 {
			return nil, fail("leave %s listed twice", leave.String())
		}
		seen[i/64] |= 1 << (i % 64)
		t.vals[i] = mp
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", file, lineNo+1, err)
	}
	if !partial {
		if err := checkComplete(file, seen); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// checkComplete refuses a CSV whose seen bits do not cover every leave.
func checkComplete(file string, seen []uint64) error {
	listed, first := 0, -1
	for w, bitsSet := range seen {
		listed += bits.OnesCount64(bitsSet)
		if first < 0 && w*64 < numLeaves {
			want := ^uint64(0)
			if n := numLeaves - w*64; n < 64 {
				want = 1<<n - 1
			}
			if bitsSet != want {
				first = w*64 + bits.TrailingZeros64(^bitsSet)
			}
		}
	}
	if listed == numLeaves {
		return nil
	}
	r := leaveAt(first)
	return &MissingLeavesError{File: file, Missing: numLeaves - listed, Total: numLeaves, First: string(appendLeave(nil, &r))}
}

// parseLeave reads a leave written with A-Z and '?' for a blank, and checks
// that the table holds it.
func parseLeave(s string) (rules.Rack, error) {
	var r rules.Rack
	if s == "" {
		return r, errors.New("empty leave")
	}
	n := 0
	for _, ch := range s {
		switch {
		case ch >= 'A' && ch <= 'Z':
			r[ch-'A'+1]++
		case ch == '?':
			r[0]++
		default:
			return r, fmt.Errorf("leave %q: %q is not a tile (A-Z, or ? for a blank)", s, ch)
		}
		n++
		if n > MaxLeave {
			return r, fmt.Errorf("leave %q has %d or more tiles; leaves have 1 to %d", s, n, MaxLeave)
		}
	}
	for j, c := range r {
		if c > rules.Distribution()[j] {
			name := "?"
			if j > 0 {
				name = string(rune('A' + j - 1))
			}
			return r, fmt.Errorf("leave %q is impossible: it has %d %s but the set has only %d", s, c, name, rules.Distribution()[j])
		}
	}
	return r, nil
}

// parsePoints reads a value in points and returns it in millipoints.
func parsePoints(s string) (rules.Equity, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("value %q is not a number", s)
	}
	if !rules.InRange(f) {
		return 0, fmt.Errorf("value %q is out of range (±%d points)", s, rules.MaxPoints)
	}
	return rules.RoundPoints(f), nil
}
