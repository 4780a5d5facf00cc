package movegen

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scrabble/gaddag"
	"scrabble/internal/testlex"
	"scrabble/rules"
)

// goldenWords is a fixed word list whose tables TestTablesFileGolden
// fingerprints.
var goldenWords = strings.Fields(`AA AAH AB ABS AE AI AIN AINE AIRN AIT ANE ANI ANT ANTE ANTI ARE ARIA
	BA BAN BANE BEAR CAB CABS EAR EARN EAT EATS EN ETA IN INTER IS NA NAE NE NEAR NIT
	QAT QI QIS RAN RANI RANT RAT RATE RE REI RES REST RETAIN RETAINS RETINA RETINAS
	SAT SATIRE SEA SEAT SI SIN SINE SIT SITE STAIN STAINER STAR STARE STEIN TA TAE TAN
	TEA TEN TI TIE TIN TINE ZA ZAS ZEA ZEN`)

func goldenLexicon(t *testing.T) *gaddag.GADDAG {
	t.Helper()
	lex, err := gaddag.Build("GOLDEN", goldenWords, [32]byte{})
	if err != nil {
		t.Fatal(err)
	}
	return lex
}

// tablesDigest fingerprints what the tables hold (their sections and
// roots), not the lexicon they name.
func tablesDigest(t *Tables) string {
	h := sha256.New()
	for _, s := range t.sectionsOf() {
		h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(s))))
		h.Write(s)
	}
	g := &t.graph
	for _, v := range []uint32{uint32(g.root), uint32(g.dawg), g.rootSet, g.dawgSet} {
		h.Write(binary.LittleEndian.AppendUint32(nil, v))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestTablesFileGolden keeps tablesVersion honest: the tables of a fixed
// word list have the fingerprint recorded for the current version. When a
// change to the tables (a new table, another layout, another way of
// working one out) changes them, files written before must not be read as
// if they held the new ones: bump tablesVersion and record the new
// fingerprint under it.
func TestTablesFileGolden(t *testing.T) {
	golden := map[int]string{
		1: "5e72777dc0f1cda213a8a5da3b77ab333a7ba83227e2a91c45d96645a2246acf",
		2: "02490c23c93b42ecefafc133e167a48d2b633cc688f58d23d003eb610465657e", // tables sized by the lexicon
	}
	tb := newTables(goldenLexicon(t), false)
	tb.Prepare()
	got := tablesDigest(tb)
	want, ok := golden[tablesVersion]
	if !ok || got != want {
		t.Fatalf("the tables of the golden word list have fingerprint %s, but version %d records %q: "+
			"if the tables changed, bump tablesVersion and record this fingerprint under the new version", got, tablesVersion, want)
	}
}

// TestTablesFileRoundTrip: every section reads back byte for byte, on
// both test lexica, and the file's size is what the layout says.
func TestTablesFileRoundTrip(t *testing.T) {
	for _, name := range testlex.Names() {
		lex := testlex.GADDAG(t, name)
		built := tablesFor(lex)
		path := filepath.Join(t.TempDir(), "x.tables")
		if err := WriteTablesFile(built, path); err != nil {
			t.Fatal(err)
		}
		for _, mem := range []Memory{Mapped, HugePages} {
			checkRoundTrip(t, name, built, lex, path, mem)
		}
		st, _ := os.Stat(path)
		t.Logf("%s: %d bytes", name, st.Size())
	}
}

func checkRoundTrip(t *testing.T, name string, built *Tables, lex *gaddag.GADDAG, path string, mem Memory) {
	t.Helper()
	{
		loaded, err := ReadTablesFile(lex, path, mem)
		if err != nil {
			t.Fatal(err)
		}
		a, b := built.sectionsOf(), loaded.sectionsOf()
		for i := range a {
			if !bytes.Equal(a[i], b[i]) {
				t.Errorf("%s, memory %d: section %d differs after the round trip (%d bytes, %d read)", name, mem, i, len(a[i]), len(b[i]))
			}
		}
		if built.graph.root != loaded.graph.root || built.graph.dawg != loaded.graph.dawg ||
			built.graph.rootSet != loaded.graph.rootSet || built.graph.dawgSet != loaded.graph.dawgSet {
			t.Errorf("%s, memory %d: roots differ after the round trip", name, mem)
		}
		// The lanes' stamps are unique to each state (see laneVer).
		e1, e2 := loaded.empty, built.empty
		e1.laneVer, e2.laneVer = [2][n]uint64{}, [2][n]uint64{}
		if e1 != e2 {
			t.Errorf("%s, memory %d: the empty board's state differs", name, mem)
		}
	}
}

// validTablesFile writes the golden lexicon's tables and returns the
// lexicon and the file's bytes.
func validTablesFile(t testing.TB) (*gaddag.GADDAG, []byte) {
	t.Helper()
	lex, err := gaddag.Build("GOLDEN", goldenWords, [32]byte{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "golden.tables")
	if err := WriteTablesFile(newTables(lex, false), path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return lex, data
}

// sectionAt returns where section i starts in a tables file and its length.
func sectionAt(data []byte, i int) (off, n int) {
	return int(binary.LittleEndian.Uint64(data[52+16*i:])), int(binary.LittleEndian.Uint64(data[60+16*i:]))
}

// resum sets a tables file's checksum to match its bytes, as a forger
// would.
func resum(data []byte) {
	body := data[:len(data)-4]
	binary.LittleEndian.PutUint32(data[len(body):], crc32.Checksum(body, castagnoli))
}

// decodeCopy decodes a copy of data (8-byte aligned, as a mapping is).
func decodeCopy(lex *gaddag.GADDAG, data []byte) (*Tables, error) {
	words := make([]uint64, (len(data)+7)/8)
	buf := bytesOf(words)[:len(data)]
	copy(buf, data)
	t, id, err := decodeTables(buf)
	if err == nil {
		err = t.bind(lex, id)
	}
	return t, err
}

// TestTablesFileRefused: a file that is not this lexicon's tables, or is
// damaged, or forged to pass the checksum with values the search would
// follow out of bounds, is refused with an error saying which, and never
// makes the reader panic.
func TestTablesFileRefused(t *testing.T) {
	lex, valid := validTablesFile(t)
	if _, err := decodeCopy(lex, valid); err != nil {
		t.Fatalf("the valid file: %v", err)
	}
	u32 := func(sec, i int, v uint32) func([]byte) {
		return func(b []byte) {
			off, _ := sectionAt(b, sec)
			binary.LittleEndian.PutUint32(b[off+4*i:], v)
		}
	}
	u64 := func(sec, i int, v uint64) func([]byte) {
		return func(b []byte) {
			off, _ := sectionAt(b, sec)
			binary.LittleEndian.PutUint64(b[off+8*i:], v)
		}
	}
	fillKeys := func(sec int) func([]byte) {
		return func(b []byte) {
			off, n := sectionAt(b, sec)
			for i := 0; i < n; i += 8 {
				binary.LittleEndian.PutUint64(b[off+i:], uint64(i+1))
			}
		}
	}
	// The first slot of the word lists' table holding a real entry.
	firstList := func(b []byte) int {
		off, n := sectionAt(b, 10)
		for i := 0; i < n; i += 16 {
			if binary.LittleEndian.Uint64(b[off+i:]) != 0 {
				return off + i
			}
		}
		t.Fatal("no word list entry")
		return 0
	}
	for _, c := range []struct {
		name   string
		forge  func([]byte)
		resum  bool // set the checksum to match, as a forger would
		stale  bool // ErrTablesStale rather than damage
		reason string
	}{
		{"bad magic", func(b []byte) { b[0] = 'X' }, true, false, "bad magic"},
		{"another version", func(b []byte) { binary.LittleEndian.PutUint32(b[8:], tablesVersion+1) }, true, true, "version"},
		{"another lexicon", func(b []byte) { b[12] ^= 1 }, true, true, "another compiled lexicon"},
		{"a byte flipped", func(b []byte) { b[len(b)/2] ^= 4 }, false, false, "checksum"},
		{"section count", func(b []byte) { binary.LittleEndian.PutUint32(b[48:], 11) }, true, false, "sections"},
		{"section misaligned", func(b []byte) { binary.LittleEndian.PutUint64(b[52+16*3:], uint64(tablesHeader+1)) }, true, false, "section 3"},
		{"section past the end", func(b []byte) { binary.LittleEndian.PutUint64(b[60+16*11:], 1<<40) }, true, false, "section 11"},
		{"arcs of the wrong length", func(b []byte) { binary.LittleEndian.PutUint64(b[60:], 8) }, true, false, "for 1 arcs"},
		{"arc child past the end", u64(0, 5, 0xffff_ffff_00ff_ffff), true, false, "annotated arc"},
		{"arc child set beyond letters", u64(0, 5, 1<<63), true, false, "annotated arc"},
		{"root out of range", func(b []byte) { binary.LittleEndian.PutUint32(b[24:], 1<<30) }, true, false, "roots"},
		{"after-run set beyond letters", u32(1, 3, 1<<30), true, false, "after-run set"},
		{"short cross-check set beyond letters", u32(2, 7, 1<<31), true, false, "short cross-check"},
		{"sevens table full", fillKeys(4), true, false, "hash table"},
		{"eights table miscounted", u64(6, 0, 77), true, false, "hash table"},
		{"word list entry out of range", func(b []byte) {
			binary.LittleEndian.PutUint64(b[firstList(b)+8:], listEntry(1<<20, 3, 7))
		}, true, false, "word-list entry"},
		{"inline word too long", func(b []byte) {
			binary.LittleEndian.PutUint64(b[firstList(b)+8:], inlineFlag|15<<56)
		}, true, false, "too long"},
		{"truncated", nil, false, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := bytes.Clone(valid)
			if c.forge == nil {
				b = b[:len(b)-100]
			} else {
				c.forge(b)
			}
			if c.resum {
				resum(b)
			}
			_, err := decodeCopy(lex, b)
			switch {
			case err == nil:
				t.Fatal("read without an error")
			case c.stale != errors.Is(err, ErrTablesStale):
				t.Fatalf("%v: stale %v, want %v", err, !c.stale, c.stale)
			case !c.stale && !errors.Is(err, errTablesCorrupt):
				t.Fatalf("%v: not a damaged-file error", err)
			case !strings.Contains(err.Error(), c.reason):
				t.Fatalf("%v: does not say %q", err, c.reason)
			}
		})
	}
}

// FuzzReadTablesFile forges tables files: a value written at any place of
// a valid file (header or section), the checksum set to match, then read.
// Either the reader refuses it, or a generator on the tables it gives
// lists plays and finds the best one on a few boards without panicking.
func FuzzReadTablesFile(f *testing.F) {
	f.Add(uint8(0), uint32(5*8), uint64(0xffff_ffff_00ff_ffff), uint8(8))
	f.Add(uint8(10), uint32(0), uint64(1), uint8(8))
	f.Add(uint8(255), uint32(24), uint64(3), uint8(4))
	f.Add(uint8(11), uint32(3), uint64(0x1f1f), uint8(2))
	f.Add(uint8(2), uint32(100), uint64(1<<27), uint8(4))
	lex, valid := validTablesFile(f)
	// The empty board, and one with words to play through and beside.
	boards := make([]rules.Board, 2)
	for i, c := range "CABS" {
		boards[1].Set(7, 6+i, rules.Letter(c-'A'+1))
	}
	for i, c := range "QI" {
		boards[1].Set(8+i, 9, rules.Letter(c-'A'+1))
	}
	var racks []rules.Rack
	for _, r := range []string{"AEINRST", "QISZAA?", "ABC?EST"} {
		rack, err := rules.ParseRack(r)
		if err != nil {
			f.Fatal(err)
		}
		racks = append(racks, rack)
	}
	f.Fuzz(func(t *testing.T, sec uint8, at uint32, val uint64, width uint8) {
		b := bytes.Clone(valid)
		start, n := 0, tablesHeader // the header
		if int(sec) < tablesSections {
			start, n = sectionAt(b, int(sec))
		}
		w := int(width%8) + 1
		if n < w {
			return
		}
		pos := start + int(at)%(n-w+1)
		var v [8]byte
		binary.LittleEndian.PutUint64(v[:], val)
		copy(b[pos:pos+w], v[:w])
		resum(b)
		tables, err := decodeCopy(lex, b)
		if err != nil {
			return
		}
		g := New(tables)
		for i := range boards {
			g.SetBoard(&boards[i])
			for _, rack := range racks {
				var all AllMoves
				g.Generate(&rack, 50, Options{Exchanges: true, Pass: true}, &all)
				g.Best(&rack, 50, Options{})
			}
		}
	})
}
