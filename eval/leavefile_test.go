package eval

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"scrabble/internal/atomicfile"
	"scrabble/rules"
)

func randomTable(seed uint64) *LeaveTable {
	rng := rand.New(rand.NewPCG(seed, 7))
	lt := NewLeaveTable()
	for i := range lt.Len() {
		switch rng.IntN(4) {
		case 0: // stays 0
		case 1:
			lt.SetAt(i, rules.Equity(rng.Int32N(60001)-30000))
		case 2:
			lt.SetAt(i, rules.Equity(rng.Uint32()))
		case 3:
			lt.SetAt(i, []rules.Equity{-1 << 31, 1<<31 - 1, -1, 1, 1000, -1000, 25125}[rng.IntN(7)])
		}
	}
	return lt
}

func sameTable(t *testing.T, got, want *LeaveTable) {
	t.Helper()
	for i := range want.Len() {
		if got.At(i) != want.At(i) {
			r := want.LeaveAt(i)
			t.Fatalf("leave %s (index %d): got %d, want %d", r.String(), i, got.At(i), want.At(i))
		}
	}
}

func encode(t testing.TB, lt *LeaveTable) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := lt.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo reported %d bytes, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

func TestBinaryRoundTrip(t *testing.T) {
	want := randomTable(1)
	data := encode(t, want)
	if len(data) != 16+4*want.Len()+4 {
		t.Fatalf("encoded %d bytes", len(data))
	}
	got, err := DecodeLeaves(data)
	if err != nil {
		t.Fatal(err)
	}
	sameTable(t, got, want)

	path := filepath.Join(t.TempDir(), "leaves.bin")
	if err := want.Save(path); err != nil {
		t.Fatal(err)
	}
	for _, load := range []func(string) (*LeaveTable, error){LoadLeaves, LoadAny} {
		got, err := load(path)
		if err != nil {
			t.Fatal(err)
		}
		sameTable(t, got, want)
	}
	// Save replaces an existing file and leaves no temporary files behind.
	if err := NewLeaveTable().Save(path); err != nil {
		t.Fatal(err)
	}
	got, err = LoadLeaves(path)
	if err != nil {
		t.Fatal(err)
	}
	sameTable(t, got, NewLeaveTable())
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("directory holds %d files after Save", len(entries))
	}
}

func TestSaveFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "leaves.bin")
	err := NewLeaveTable().Save(path)
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("Save into a missing directory: %v", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	good := encode(t, randomTable(2))
	mod := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	putCount := func(b []byte, n uint32) []byte {
		// A consistent file of another size: right length and checksum.
		b = b[:16]
		binary.LittleEndian.PutUint32(b[12:], n)
		b = append(b, make([]byte, 4*int(n))...)
		return binary.LittleEndian.AppendUint32(b, crc32c(b))
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"half magic", good[:4], "truncated"},
		{"wrong magic", mod(func(b []byte) []byte { b[0] = 'X'; return b }), "magic"},
		{"csv", []byte("leave,value\nA,1\n"), "magic"},
		{"header cut", good[:12], "truncated"},
		{"no values", good[:16], "truncated"},
		{"truncated", good[:len(good)-1], "truncated"},
		{"one value short", good[:len(good)-4], "truncated"},
		{"trailing", append(bytes.Clone(good), 0), "trailing data"},
		{"version", mod(func(b []byte) []byte { b[8] = 2; return b }), "version 2"},
		{"flipped value", mod(func(b []byte) []byte { b[1000] ^= 0x10; return b }), "checksum"},
		{"flipped checksum", mod(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), "checksum"},
		{"flipped count", mod(func(b []byte) []byte { b[12] ^= 1; return b }), "truncated"},
		{"smaller table", mod(func(b []byte) []byte { return putCount(b, 1000) }), "different distribution"},
		{"empty table", mod(func(b []byte) []byte { return putCount(b, 0) }), "different distribution"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeLeaves(tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("DecodeLeaves: %v; want an error containing %q", err, tc.want)
			}
			path := filepath.Join(t.TempDir(), "bad.leaves")
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = LoadLeaves(path)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("LoadLeaves: %v; want an error naming %s and containing %q", err, path, tc.want)
			}
		})
	}
	if _, err := LoadLeaves(filepath.Join(t.TempDir(), "nope")); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestCSVRoundTrip(t *testing.T) {
	want := randomTable(3)
	for _, skipZero := range []bool{false, true} {
		var buf bytes.Buffer
		if err := want.WriteCSV(&buf, skipZero); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(buf.String(), "leave,value\n") {
			t.Fatalf("no header: %.40q", buf.String())
		}
		lines := strings.Count(buf.String(), "\n") - 1
		nonzero := 0
		for i := range want.Len() {
			if want.At(i) != 0 {
				nonzero++
			}
		}
		if wantLines := map[bool]int{false: want.Len(), true: nonzero}[skipZero]; lines != wantLines {
			t.Fatalf("skipZero=%v: %d lines, want %d", skipZero, lines, wantLines)
		}
		read := ReadCSV
		if skipZero {
			read = ReadPartialCSV
		}
		got, err := read("t.csv", &buf)
		if err != nil {
			t.Fatal(err)
		}
		sameTable(t, got, want)
	}
	// LoadAny picks CSV for a file without the magic.
	path := filepath.Join(t.TempDir(), "leaves.csv")
	var buf bytes.Buffer
	want.WriteCSV(&buf, false)
	os.WriteFile(path, buf.Bytes(), 0o644)
	got, err := LoadAny(path)
	if err != nil {
		t.Fatal(err)
	}
	sameTable(t, got, want)
}

func TestCSVFormat(t *testing.T) {
	lt := NewLeaveTable()
	set := map[string]rules.Equity{"EIRST?": 25125, "Q": -7500, "S": 8000, "??": 30100, "UU": -5, "Z": -2147483648, "X": 2147483647, "VV": 0}
	for s, v := range set {
		r := mustRack(t, s)
		lt.Set(&r, v)
	}
	var buf bytes.Buffer
	if err := lt.WriteCSV(&buf, true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	slices.Sort(lines)
	want := []string{"??,30.1", "EIRST?,25.125", "Q,-7.5", "S,8", "UU,-0.005", "X,2147483.647", "Z,-2147483.648", "leave,value"}
	if !slices.Equal(lines, want) {
		t.Fatalf("CSV lines:\n%q\nwant\n%q", lines, want)
	}
}

func TestReadCSV(t *testing.T) {
	input := "# leave values\n\nleave,value\r\nEIRST?,25.125\n  ?RSTIE , 1e1 \n"
	_, err := ReadPartialCSV("in.csv", strings.NewReader(input))
	if err == nil || !strings.Contains(err.Error(), "in.csv:5:") || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("duplicate in another order: %v", err)
	}
	input = "# leave values\n\nleave,value\r\nEIRST?,25.125\nQ, -7.5\n\n#x\nZ?,0\nAB,3.0005\n"
	lt, err := ReadPartialCSV("in.csv", strings.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	for s, v := range map[string]rules.Equity{"EIRST?": 25125, "Q": -7500, "AB": 3001, "S": 0, "": 0} {
		r := mustRack(t, s)
		if got := lt.Value(&r); got != v {
			t.Errorf("%q: %d, want %d", s, got, v)
		}
	}
	// No header is fine too.
	if _, err := ReadPartialCSV("in.csv", strings.NewReader("A,1\n")); err != nil {
		t.Fatal(err)
	}
}

func TestReadCSVErrors(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"bad letter", "leave,value\nA1,3\n", "x.csv:2: leave \"A1\": '1' is not a tile"},
		{"lower case", "e,3\n", "x.csv:1: leave \"e\""},
		{"impossible", "# c\nQQ,3\n", "x.csv:2: leave \"QQ\" is impossible: it has 2 Q but the set has only 1"},
		{"three blanks", "???,3\n", "x.csv:1: leave \"???\" is impossible"},
		{"seven tiles", "A,1\nAEINRST,3\n", "x.csv:2: leave \"AEINRST\" has 7 or more tiles"},
		{"empty leave", ",3\n", "x.csv:1: empty leave"},
		{"duplicate", "leave,value\nAB,1\nCD,2\nBA,3\n", "x.csv:4: leave AB listed twice"},
		{"bad number", "AB,x\n", "x.csv:1: leave AB: value \"x\" is not a number"},
		{"empty number", "AB,\n", "x.csv:1: leave AB: value \"\" is not a number"},
		{"nan", "AB,NaN\n", "not a number"},
		{"inf", "AB,inf\n", "not a number"},
		{"huge", "AB,3000000\n", "out of range"},
		{"three fields", "AB,1,2\n", "x.csv:1: leave AB: value \"1,2\""},
		{"no comma", "leave,value\nAB 3\n", "x.csv:2: want leave,value"},
		{"header later", "A,1\nleave,value\n", "x.csv:2: leave \"leave\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadPartialCSV("x.csv", strings.NewReader(tc.input))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	path := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(path, []byte("A,1\nQQ,2\n"), 0o644)
	for _, load := range []func(string) (*LeaveTable, error){LoadAny, LoadAnyPartial} {
		if _, err := load(path); err == nil || !strings.Contains(err.Error(), path+":2:") {
			t.Fatalf("LoadAny: %v", err)
		}
	}
}

func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{
		"leave,value\nEIRST?,25.125\nQ,-7.5\n",
		"# c\n\nA,1\nB,2e-3\n",
		"QQ,1\n", "AB,1\nBA,2\n", "AEINRST,1\n", "??,0.0005\n", "Z,-2147483.648\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lt, err := ReadPartialCSV("fuzz.csv", bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := lt.WriteCSV(&buf, true); err != nil {
			t.Fatal(err)
		}
		again, err := ReadPartialCSV("again.csv", &buf)
		if err != nil {
			t.Fatalf("re-reading written CSV: %v", err)
		}
		if !slices.Equal(again.vals, lt.vals) {
			t.Fatal("CSV round trip changed the table")
		}
	})
}

func FuzzDecodeLeaves(f *testing.F) {
	good := encode(f, NewLeaveTable())
	f.Add(good[:40])
	f.Add([]byte("SCRLEAVE\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("SCRLEAVE\x01\x00\x00\x00\x01\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("SCRLEAVE"))
	f.Add([]byte("leave,value\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lt, err := DecodeLeaves(data)
		if err != nil {
			return
		}
		if !bytes.Equal(encode(t, lt), data) {
			t.Fatal("accepted data does not re-encode to the same bytes")
		}
	})
}

func TestFuzzSeedFullTable(t *testing.T) {
	// The fuzz seeds cannot hold a full table; check its acceptance here.
	data := encode(t, randomTable(4))
	lt, err := DecodeLeaves(data)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(t, lt), data) {
		t.Fatal("re-encoding differs")
	}
}

func crc32c(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }

// TestReadCSVComplete: a CSV that lists every leave loads; one cut short at
// a line's end (the fragment a full disk leaves) is refused, naming the
// file and how many leaves are missing, unless read as partial.
func TestReadCSVComplete(t *testing.T) {
	want := randomTable(5)
	var buf bytes.Buffer
	if err := want.WriteCSV(&buf, false); err != nil {
		t.Fatal(err)
	}
	full := buf.Bytes()
	dir := t.TempDir()
	path := filepath.Join(dir, "full.csv")
	if err := os.WriteFile(path, full, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadAny(path)
	if err != nil {
		t.Fatalf("a complete CSV: %v", err)
	}
	sameTable(t, got, want)

	// Cut after the header and the first 1000 leaves.
	cut := 0
	for range 1001 {
		cut += bytes.IndexByte(full[cut:], '\n') + 1
	}
	short := filepath.Join(dir, "short.csv")
	if err := os.WriteFile(short, full[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadAny(short)
	var missing *MissingLeavesError
	if !errors.As(err, &missing) || missing.File != short || missing.Missing != want.Len()-1000 || missing.Total != want.Len() {
		t.Fatalf("a CSV cut short: %v (%+v), want %d leaves missing", err, missing, want.Len()-1000)
	}
	first := want.LeaveAt(1000)
	if wantMsg := fmt.Sprintf("%s: %d of the %d leaves", short, want.Len()-1000, want.Len()); !strings.Contains(err.Error(), wantMsg) ||
		!strings.Contains(err.Error(), "the first: "+string(appendLeave(nil, &first))) {
		t.Errorf("error %q, want it to say %q and the first missing leave", err, wantMsg)
	}
	part, err := LoadAnyPartial(short)
	if err != nil {
		t.Fatalf("LoadAnyPartial: %v", err)
	}
	for i := range want.Len() {
		if v := map[bool]rules.Equity{true: want.At(i), false: 0}[i < 1000]; part.At(i) != v {
			t.Fatalf("partial table: leave %d is %d, want %d", i, part.At(i), v)
		}
	}
	// A file of the header alone, or empty, misses them all.
	for _, text := range []string{"leave,value\n", ""} {
		_, err := ReadCSV("x.csv", strings.NewReader(text))
		if !errors.As(err, &missing) || missing.Missing != want.Len() {
			t.Errorf("%q: %v", text, err)
		}
	}
	// The last leave missing alone is caught too.
	lastCut := bytes.LastIndexByte(full[:len(full)-1], '\n') + 1
	if _, err := ReadCSV("x.csv", bytes.NewReader(full[:lastCut])); !errors.As(err, &missing) || missing.Missing != 1 {
		t.Errorf("the last leave missing: %v", err)
	}
}

// TestSaveFullDisk: every way of saving a leave table, and the win% CSV,
// leaves the old file byte-identical when the disk fills up mid-write, and
// says which file failed; with the space back the table saves and loads
// whole.
func TestSaveFullDisk(t *testing.T) {
	want := randomTable(9)
	win := DefaultWinPct()
	dir := t.TempDir()
	saves := map[string]func(string) error{
		"leaves.csv":    want.SaveAs,
		"leaves.gz":     want.SaveAs,
		"leaves.leaves": want.SaveAs,
		"bin.leaves":    want.Save,
		"winpct.csv":    func(p string) error { return win.SaveCSV(p, "a comment") },
	}
	for name, save := range saves {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			old := []byte("the old file\n")
			if err := os.WriteFile(path, old, 0o644); err != nil {
				t.Fatal(err)
			}
			restore := atomicfile.SimulateFullDisk(4096)
			err := save(path)
			restore()
			if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v, want ENOSPC naming %s", err, path)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
				t.Fatalf("the old file became %d bytes: %.40q", len(got), got)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp") {
					t.Errorf("temporary file %s left", e.Name())
				}
			}
			if err := save(path); err != nil {
				t.Fatal(err)
			}
			if name == "winpct.csv" {
				return
			}
			got, err := LoadAny(path)
			if err != nil {
				t.Fatal(err)
			}
			sameTable(t, got, want)
		})
	}
}
