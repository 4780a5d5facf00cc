package movegen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"path/filepath"
	"strings"
	"unsafe"

	"scrabble/gaddag"
	"scrabble/internal/atomicfile"
	"scrabble/internal/crash"
	"scrabble/internal/filemap"
	"scrabble/internal/hugemem"
	"scrabble/rules"
)

// The tables file stores a lexicon's Tables, anagram index included, so a
// process reads them in one go instead of working them out (most of a
// short command's CPU). It sits beside the compiled lexicon and names it by size and checksum; any other
// lexicon, or a file of another version, is refused and the tables are
// worked out again (see OpenTables).
//
// Layout, little endian:
//
//	magic        [8]byte "SCRTABLS"
//	version      uint32
//	lexSum       uint32  the compiled lexicon's CRC-32C (gaddag.Checksum)
//	lexSize      uint64  and its size in bytes
//	root, dawg, rootSet, dawgSet, sevensUsed, eightsUsed  uint32
//	sections     uint32 (tablesSections), then each one's offset and
//	             length in bytes, uint64 each
//	the sections, each at a multiple of 64 bytes, zero padding between
//	crc32c       uint32 of everything before it
//
// The sections are the tables' own arrays, byte for byte, so reading them
// is one read into memory for huge pages and a check: no table is rebuilt
// or unpacked.
//
// tablesVersion must change whenever what the tables hold changes (a new
// table, another layout, another way of working one out): a file of an
// older version is then rebuilt, never misread. TestTablesFileGolden
// fails when the tables worked out from a fixed word list change, to say
// so.
const (
	tablesMagic   = "SCRTABLS"
	tablesVersion = 2
	// Sections: xarcs, after, short, small, sevens keys and sets, eights
	// keys and sets, prints, wildPrints, lists, listText.
	tablesSections = 12
	tablesHeader   = 8 + 4 + 4 + 8 + 6*4 + 4 + tablesSections*16
	tablesAlign    = 64
	// maxTablesFile bounds what is read: NWL23's tables take about 40 MB,
	// CSW24's a little more.
	maxTablesFile = 1 << 30
)

// ErrTablesStale is wrapped by the error of a tables file made for another
// compiled lexicon or by another version of the engine: not damage, just
// out of date.
var ErrTablesStale = errors.New("tables file out of date")

// errTablesCorrupt is wrapped by the error of a damaged tables file.
var errTablesCorrupt = errors.New("corrupt tables file")

// sectionsOf lists the tables' arrays in file order, as bytes (aliasing
// them).
func (t *Tables) sectionsOf() [tablesSections][]byte {
	idx := t.anagrams
	return [tablesSections][]byte{
		bytesOf(t.graph.xarcs),
		bytesOf(t.graph.after),
		bytesOf(unsafe.Slice(t.graph.short, 1)),
		bytesOf(idx.words.small),
		bytesOf(idx.words.sevens.keys),
		bytesOf(idx.words.sevens.sets),
		bytesOf(idx.eights.keys),
		bytesOf(idx.eights.sets),
		bytesOf(idx.prints.words),
		bytesOf(idx.wildPrints.words),
		bytesOf(idx.lists.slots),
		bytesOf(idx.listText),
	}
}

func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// viewOf is bytesOf undone: b as n values of T, without copying. b must be
// aligned for T (sections start at multiples of 64 in a buffer of uint64).
func viewOf[T any](b []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size)
}

func alignUp(n int) int { return (n + tablesAlign - 1) &^ (tablesAlign - 1) }

// WriteTablesFile stores t, its anagram index built first if it is not yet,
// at path (atomically: a reader sees the old file or the new one whole).
// t must be the tables of a lexicon that has a compiled form (a lexicon
// loaded or saved by package gaddag: its size and checksum name it).
func WriteTablesFile(t *Tables, path string) error {
	if t.whole != nil {
		return errors.New("pruned tables are not stored")
	}
	if !littleEndian {
		return errors.New("tables files are written on little-endian machines only")
	}
	idx := t.anagramIndex()
	secs := t.sectionsOf()
	b := make([]byte, tablesHeader, tablesHeader+64)
	copy(b, tablesMagic)
	le := binary.LittleEndian
	le.PutUint32(b[8:], tablesVersion)
	le.PutUint32(b[12:], t.lex.Checksum())
	le.PutUint64(b[16:], uint64(t.lex.Size()))
	for i, v := range []uint32{uint32(t.graph.root), uint32(t.graph.dawg), t.graph.rootSet, t.graph.dawgSet,
		uint32(idx.words.sevens.used), uint32(idx.eights.used)} {
		le.PutUint32(b[24+4*i:], v)
	}
	le.PutUint32(b[48:], tablesSections)
	off := alignUp(tablesHeader)
	for i, s := range secs {
		le.PutUint64(b[52+16*i:], uint64(off))
		le.PutUint64(b[60+16*i:], uint64(len(s)))
		off = alignUp(off + len(s))
	}
	atomicfile.RemoveStale(filepath.Dir(path), ".tmp-*.tables")
	err := atomicfile.Write(path, atomicfile.Options{Pattern: ".tmp-*.tables", Perm: 0o644, Sync: true}, func(w io.Writer) error {
		crc := crc32.New(castagnoli)
		out := io.MultiWriter(w, crc)
		var pad [tablesAlign]byte
		written := 0
		put := func(p []byte) error {
			n, err := out.Write(p)
			written += n
			return err
		}
		if err := put(b); err != nil {
			return err
		}
		for _, s := range secs {
			if err := put(pad[:alignUp(written)-written]); err != nil {
				return err
			}
			if err := put(s); err != nil {
				return err
			}
		}
		_, err := w.Write(le.AppendUint32(nil, crc.Sum32()))
		return err
	})
	if err != nil {
		return fmt.Errorf("writing the move generator's tables: %w", err)
	}
	return nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// littleEndian: the file's sections are the tables' memory as this
// machine lays it out, written on little-endian machines only (as
// gaddag's arcs are read in place only there).
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// Memory is where tables read from a file live.
type Memory int

const (
	// Mapped tables are the file's pages, mapped read-only: nothing is
	// copied or zeroed and every process on the machine shares them, the
	// fastest start. The pages are 4 KB.
	Mapped Memory = iota
	// HugePages tables are copied into memory backed by 2 MB pages, as
	// tables worked out in the process are (internal/hugemem): searches are
	// 1.5-3% faster (the tables are read at random, beyond what the TLB
	// covers in 4 KB pages), but faulting the pages in costs more than a
	// short command takes in all (the kernel compacts memory for them),
	// which only a long run wins back.
	HugePages
)

// ReadTablesFile reads the tables of lex stored at path by WriteTablesFile,
// into mem. A file for another lexicon or of another version gives an
// error wrapping ErrTablesStale; a missing one, fs.ErrNotExist.
//
// The file is checked before use: its checksum, and every value the search
// uses as an index or bound (arc targets, letter sets, table sizes, word
// list offsets and letters), so a damaged or forged file is refused, never
// followed out of bounds. The check reads each entry once; nothing is
// rebuilt. The tables are kept for the process's
// life: their memory is never given back.
func ReadTablesFile(lex *gaddag.GADDAG, path string, mem Memory) (*Tables, error) {
	t, id, release, err := readTablesFile(path, mem)
	if err == nil {
		if err = t.bind(lex, id); err != nil {
			release()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// lexID names the compiled lexicon a tables file was made from: its size
// and checksum.
type lexID struct {
	sum  uint32
	size uint64
}

// bind makes t, read from a file made for the lexicon id names, lex's.
func (t *Tables) bind(lex *gaddag.GADDAG, id lexID) error {
	if id.sum != lex.Checksum() || id.size != uint64(lex.Size()) || len(t.graph.xarcs) != len(lex.Arcs()) {
		return fmt.Errorf("%w: made for another compiled lexicon", ErrTablesStale)
	}
	t.lex = lex
	return nil
}

// readTablesFile reads and checks a tables file into mem; release gives
// its memory back, for tables that are not used after all.
func readTablesFile(path string, mem Memory) (t *Tables, id lexID, release func(), err error) {
	if !littleEndian {
		return nil, id, nil, fmt.Errorf("%w: written for little-endian machines", ErrTablesStale)
	}
	f, err := filemap.Open(path, maxTablesFile)
	if err != nil {
		return nil, id, nil, err
	}
	if len(f.Data) < tablesHeader+4 {
		f.Close()
		return nil, id, nil, fmt.Errorf("%w: %d bytes", errTablesCorrupt, len(f.Data))
	}
	data, release := f.Data, f.Close // mapped, for the process's life
	if mem == HugePages {
		huge := hugemem.Make[uint64]((len(f.Data) + 7) / 8)
		data = bytesOf(huge)[:len(f.Data)]
		copy(data, f.Data)
		f.Close()
		release = func() { hugemem.Free(huge) }
	}
	t, id, err = decodeTables(data)
	if err != nil {
		release()
		return nil, id, nil, err
	}
	return t, id, release, nil
}

// decodeTables makes tables from a tables file's bytes, which they then
// alias, checked but for no lexicon yet (bind), and the lexicon the file
// names. data must be 8-byte aligned.
func decodeTables(data []byte) (*Tables, lexID, error) {
	le := binary.LittleEndian
	var id lexID
	if string(data[:8]) != tablesMagic {
		return nil, id, fmt.Errorf("%w: not a tables file (bad magic)", errTablesCorrupt)
	}
	if v := le.Uint32(data[8:]); v != tablesVersion {
		return nil, id, fmt.Errorf("%w: version %d, this program reads version %d", ErrTablesStale, v, tablesVersion)
	}
	id = lexID{sum: le.Uint32(data[12:]), size: le.Uint64(data[16:])}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != le.Uint32(data[len(body):]) {
		return nil, id, fmt.Errorf("%w: checksum mismatch (file damaged or truncated)", errTablesCorrupt)
	}
	if le.Uint32(data[48:]) != tablesSections {
		return nil, id, fmt.Errorf("%w: %d sections", errTablesCorrupt, le.Uint32(data[48:]))
	}
	var secs [tablesSections][]byte
	for i := range secs {
		off, n := le.Uint64(data[52+16*i:]), le.Uint64(data[60+16*i:])
		if off%tablesAlign != 0 || off > uint64(len(body)) || n > uint64(len(body))-off {
			return nil, id, fmt.Errorf("%w: section %d out of the file", errTablesCorrupt, i)
		}
		secs[i] = body[off : off+n]
	}
	u32 := func(i int) uint32 { return le.Uint32(data[24+4*i:]) }
	t := &Tables{}
	g := &t.graph
	g.xarcs = viewOf[xarc](secs[0])
	g.after = viewOf[uint32](secs[1])
	g.root, g.dawg, g.rootSet, g.dawgSet = gaddag.Node(u32(0)), gaddag.Node(u32(1)), u32(2), u32(3)
	if len(secs[2]) != int(unsafe.Sizeof(shortCross{})) {
		return nil, id, fmt.Errorf("%w: short cross-check table of %d bytes", errTablesCorrupt, len(secs[2]))
	}
	g.short = &viewOf[shortCross](secs[2])[0]
	idx := &anagramIndex{}
	idx.words.small = viewOf[uint64](secs[3])
	idx.words.sevens = keyMasks{keys: viewOf[uint64](secs[4]), sets: viewOf[uint32](secs[5]), used: int(u32(4))}
	idx.eights = keyMasks{keys: viewOf[uint64](secs[6]), sets: viewOf[uint32](secs[7]), used: int(u32(5))}
	idx.prints = printFilter{words: viewOf[uint64](secs[8])}
	idx.wildPrints = printFilter{words: viewOf[uint64](secs[9])}
	idx.lists = printTable{slots: viewOf[printSlot](secs[10])}
	idx.listText = viewOf[rules.Letter](secs[11])
	if err := checkTables(g, idx, secs); err != nil {
		return nil, id, fmt.Errorf("%w: %v", errTablesCorrupt, err)
	}
	idx.prints.shift = 64 - uint(bits.TrailingZeros(uint(len(idx.prints.words))))
	idx.wildPrints.shift = 64 - uint(bits.TrailingZeros(uint(len(idx.wildPrints.words))))
	t.anagrams = idx
	t.anagramOnce.Do(func() {}) // the index is here: never build it
	t.empty = emptyBoardState(t)
	return t, id, nil
}

// checkTables checks what the search trusts of the tables: sizes, and
// every value it uses as an index, so that no file makes it read out of
// bounds or probe a full hash table for ever.
func checkTables(g *graph, idx *anagramIndex, secs [tablesSections][]byte) error {
	n := len(secs[0]) / 8 // the arcs (bind checks the lexicon has as many)
	for i, s := range secs[:2] {
		if n == 0 || len(s) != [2]int{8, 4}[i]*n {
			return fmt.Errorf("section %d: %d bytes for %d arcs", i, len(s), n)
		}
	}
	const sets = allLetters | 1 // letters and the separator
	if int(g.root)+bits.OnesCount32(g.rootSet) > n || int(g.dawg)+bits.OnesCount32(g.dawgSet) > n ||
		g.rootSet&^sets != 0 || g.dawgSet&^sets != 0 {
		return errors.New("roots out of range")
	}
	// A child's arcs are its set's letters, one each from child on.
	for i, x := range g.xarcs {
		set := x.childSet()
		if set&^sets != 0 || int(x.child())+bits.OnesCount32(set) > n || x.arc().Letter() > 26 {
			return fmt.Errorf("annotated arc %d out of range", i)
		}
	}
	for i, a := range g.after {
		if a&^allLetters != 0 {
			return fmt.Errorf("after-run set %d out of range", i)
		}
	}
	sc := g.short
	for _, s := range [][]uint32{sc.before1[:], sc.after1[:], sc.before2[:], sc.after2[:]} {
		for _, v := range s {
			if v&^allLetters != 0 {
				return errors.New("short cross-check set out of range")
			}
		}
	}
	if len(idx.words.small) != int(smallBits+63)/64 {
		return fmt.Errorf("small spell set of %d words", len(idx.words.small))
	}
	for _, m := range []*keyMasks{&idx.words.sevens, &idx.eights} {
		if err := checkKeyMasks(m); err != nil {
			return err
		}
	}
	for _, w := range [][]uint64{idx.prints.words, idx.wildPrints.words} {
		if len(w) < 1 || len(w)&(len(w)-1) != 0 {
			return fmt.Errorf("filter of %d words", len(w))
		}
	}
	for _, l := range idx.listText {
		if l < 1 || l > 26 {
			return errors.New("word list with a letter out of range")
		}
	}
	slots := idx.lists.slots
	if len(slots) < 1 || len(slots)&(len(slots)-1) != 0 {
		return fmt.Errorf("word-list table of %d slots", len(slots))
	}
	empty := false
	for _, s := range slots {
		if s.key == 0 {
			empty = true
			continue
		}
		v := s.val
		if v&inlineFlag != 0 {
			length := int(v >> 56 & 15)
			if length > inlineMax {
				return errors.New("word-list entry too long")
			}
			for i := range length {
				if l := v >> (5 * i) & 31; l < 1 || l > 26 {
					return errors.New("word-list entry with a letter out of range")
				}
			}
			continue
		}
		off, count, length := v>>16, v>>4&0xfff, v&15
		if off > uint64(len(idx.listText)) || count*length > uint64(len(idx.listText))-off {
			return errors.New("word-list entry out of range")
		}
	}
	if !empty {
		return errors.New("word-list table full")
	}
	return nil
}

// checkKeyMasks checks a hash table's shape: a power of two, keys and sets
// alike, and an empty slot (so a probe for an absent key ends).
func checkKeyMasks(m *keyMasks) error {
	n := len(m.keys)
	if n < 1 || n&(n-1) != 0 || len(m.sets) != n || m.used < 0 || m.used >= n {
		return fmt.Errorf("hash table of %d keys, %d sets, %d used", n, len(m.sets), m.used)
	}
	used := 0
	for _, k := range m.keys {
		if k != 0 {
			used++
		}
	}
	if used != m.used {
		return fmt.Errorf("hash table holds %d keys, says %d", used, m.used)
	}
	return nil
}

// TablesPath is where the tables of lex are stored: beside its compiled
// form (NWL23.gaddag: NWL23.tables), or "" for a lexicon with none.
func TablesPath(lex *gaddag.GADDAG) string { return TablesPathFor(lex.Path()) }

// TablesPathFor is TablesPath for the compiled lexicon at path ("" for
// "").
func TablesPathFor(path string) string {
	if path == "" {
		return ""
	}
	return strings.TrimSuffix(path, filepath.Ext(path)) + ".tables"
}

// PreloadedTables is a tables file being read and checked on another
// goroutine while its lexicon loads (PreloadTablesFile): a command that
// needs both waits for the longer of the two, not their sum.
type PreloadedTables struct {
	path    string
	mem     Memory
	read    crash.Group
	t       *Tables
	id      lexID
	release func()
	err     error
}

// PreloadTablesFile starts reading the tables file at path into mem.
func PreloadTablesFile(path string, mem Memory) *PreloadedTables {
	p := &PreloadedTables{path: path, mem: mem}
	p.read.Go(func() { p.t, p.id, p.release, p.err = readTablesFile(path, mem) })
	return p
}

// Open returns the tables of lex as OpenTables does, taking the preloaded
// file when it is lex's (its tables file, read into the memory asked for);
// otherwise, or when the file was not good, as OpenTables would.
func (p *PreloadedTables) Open(lex *gaddag.GADDAG, mem Memory) (t *Tables, warning error) {
	if p != nil && p.path == TablesPath(lex) && p.mem == mem {
		if err := p.read.Wait(); err != nil {
			p.err = err // a bug in the reader: open as if it had not run
		}
		if p.err == nil {
			t := p.t
			p.t = nil // one lexicon's, once
			if t != nil && t.bind(lex, p.id) == nil {
				return t, nil
			}
			if t != nil {
				p.release()
			}
		}
	}
	return OpenTables(lex, mem)
}

// OpenTables returns the tables of lex: read from its tables file
// (TablesPath) into mem when that holds them, else worked out, anagram
// index included, and stored there for the next process (a file of another
// version or lexicon is replaced, a damaged one too). The tables returned
// are good even when warning is not nil: it says why they could not be
// stored, which costs the next process the work again, not this one.
func OpenTables(lex *gaddag.GADDAG, mem Memory) (t *Tables, warning error) {
	path := TablesPath(lex)
	if path == "" {
		return NewTables(lex), nil
	}
	if t, err := ReadTablesFile(lex, path, mem); err == nil {
		return t, nil
	}
	t = NewTables(lex)
	t.Prepare()
	return t, WriteTablesFile(t, path)
}
