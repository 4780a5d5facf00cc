package gaddag

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"time"
	"unsafe"

	"scrabble/internal/atomicfile"
)

// File layout (little endian):
//
//	magic      [8]byte "SCRGADDG"
//	version    uint32
//	nameLen    uint32, name [nameLen]byte, zero padding to a multiple of 4
//	words      uint32
//	sha256     [32]byte of the source word list
//	builtAt    int64 unix seconds
//	gaddagRoot uint32
//	dawgRoot   uint32
//	arcCount   uint32
//	arcs       [arcCount]uint32
//	crc32c     uint32 of everything before it
const (
	magic         = "SCRGADDG"
	formatVersion = 1
	maxNameLen    = 256
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by every error about a damaged compiled file.
var ErrCorrupt = errors.New("corrupt compiled lexicon")

// WriteTo writes the compiled form.
func (g *GADDAG) WriteTo(w io.Writer) (int64, error) {
	b := g.encode()
	n, err := w.Write(b)
	return int64(n), err
}

func (g *GADDAG) encode() []byte {
	name := []byte(g.hdr.Name)
	pad := (4 - len(name)%4) % 4
	size := 8 + 4 + 4 + len(name) + pad + 4 + 32 + 8 + 4 + 4 + 4 + 4*len(g.arcs) + 4
	b := make([]byte, 0, size)
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, formatVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(name)))
	b = append(b, name...)
	b = append(b, make([]byte, pad)...)
	b = binary.LittleEndian.AppendUint32(b, uint32(g.hdr.WordCount))
	b = append(b, g.hdr.SourceSHA256[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(g.hdr.BuiltAt.Unix()))
	b = binary.LittleEndian.AppendUint32(b, uint32(g.root))
	b = binary.LittleEndian.AppendUint32(b, uint32(g.dawg))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(g.arcs)))
	for _, a := range g.arcs {
		b = binary.LittleEndian.AppendUint32(b, uint32(a))
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// Save writes the compiled form to path atomically (a temporary file in the
// same directory, then a rename), so a reader never sees half a file, and
// records path as the lexicon's Path.
func (g *GADDAG) Save(path string) error {
	// What an earlier Save killed mid-write left (never a live writer's).
	atomicfile.RemoveStale(filepath.Dir(path), ".tmp-*.gaddag")
	f, err := atomicfile.Create(path, atomicfile.Options{Pattern: ".tmp-*.gaddag", Perm: 0o644, Sync: true})
	if err != nil {
		return fmt.Errorf("saving lexicon: %w", err)
	}
	if _, err = g.WriteTo(f); err != nil {
		f.Abort()
	} else {
		err = f.Commit()
	}
	if err != nil {
		return fmt.Errorf("saving lexicon %s: %w", path, err)
	}
	g.path = path
	return nil
}

// Load reads a compiled lexicon file: one read, then the arcs are used in
// place.
func Load(path string) (*GADDAG, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading lexicon: %w", err)
	}
	g, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	g.path = path
	return g, nil
}

type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b)-r.off < n {
		r.err = fmt.Errorf("%w: truncated in %s at byte %d", ErrCorrupt, what, r.off)
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) u32(what string) uint32 {
	if s := r.take(4, what); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

// Decode reads a compiled lexicon from its bytes. The arcs alias data when
// its alignment allows (no copy); data must not be changed afterwards.
func Decode(data []byte) (*GADDAG, error) {
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: not a compiled lexicon (bad magic)", ErrCorrupt)
	}
	if len(data) < len(magic)+8 {
		return nil, fmt.Errorf("%w: truncated header", ErrCorrupt)
	}
	body := data[:len(data)-4]
	if want, got := binary.LittleEndian.Uint32(data[len(data)-4:]), crc32.Checksum(body, castagnoli); want != got {
		return nil, fmt.Errorf("%w: checksum mismatch (file damaged or truncated)", ErrCorrupt)
	}
	r := &reader{b: body, off: len(magic)}
	if v := r.u32("version"); v != formatVersion {
		return nil, fmt.Errorf("%w: format version %d, this program reads version %d (recompile the word list)", ErrCorrupt, v, formatVersion)
	}
	nameLen := r.u32("name length")
	if nameLen > maxNameLen {
		return nil, fmt.Errorf("%w: name length %d", ErrCorrupt, nameLen)
	}
	name := r.take(int(nameLen), "name")
	r.take(int((4-nameLen%4)%4), "name padding")
	g := &GADDAG{fileSz: len(data), sum: binary.LittleEndian.Uint32(data[len(data)-4:])}
	g.hdr.Name = string(name)
	g.hdr.WordCount = int(r.u32("word count"))
	copy(g.hdr.SourceSHA256[:], r.take(32, "source sha256"))
	if s := r.take(8, "build date"); s != nil {
		g.hdr.BuiltAt = time.Unix(int64(binary.LittleEndian.Uint64(s)), 0).UTC()
	}
	g.root = Node(r.u32("root"))
	g.dawg = Node(r.u32("dawg root"))
	n := r.u32("arc count")
	if r.err != nil {
		return nil, r.err
	}
	if uint64(n)*4 != uint64(len(body)-r.off) {
		return nil, fmt.Errorf("%w: %d arcs declared but %d bytes of arcs present", ErrCorrupt, n, len(body)-r.off)
	}
	g.arcs = arcsOf(body[r.off:], int(n))
	g.hdr.Nodes = int(n)
	if err := g.validate(); err != nil {
		return nil, err
	}
	return g, nil
}

var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// arcsOf views b as n arcs without copying when the machine is little endian
// and b is aligned; otherwise it copies.
func arcsOf(b []byte, n int) []Arc {
	if n == 0 {
		return nil
	}
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%4 == 0 {
		return unsafe.Slice((*Arc)(unsafe.Pointer(&b[0])), n)
	}
	arcs := make([]Arc, n)
	for i := range arcs {
		arcs[i] = Arc(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return arcs
}

// validate makes every later walk safe: children and roots point inside the
// array, letters are in range and in order among siblings, the array ends
// with a last-sibling arc so no sibling scan runs off the end, and the graph
// is what Build makes (checkGraph): acyclic, no path longer than a word, the
// declared number of words.
func (g *GADDAG) validate() error {
	n := len(g.arcs)
	if n == 0 || n > MaxArcs {
		return fmt.Errorf("%w: %d arcs", ErrCorrupt, n)
	}
	if !g.arcs[n-1].Last() {
		return fmt.Errorf("%w: arc array does not end a node", ErrCorrupt)
	}
	if g.root == 0 || int(g.root) >= n || g.dawg == 0 || int(g.dawg) >= n {
		return fmt.Errorf("%w: root index out of range", ErrCorrupt)
	}
	for i, a := range g.arcs {
		if i == 0 {
			continue // reserved slot
		}
		if int(a.Child()) >= n {
			return fmt.Errorf("%w: arc %d points to %d, past the end (%d)", ErrCorrupt, i, a.Child(), n)
		}
		if a.Letter() > 26 {
			return fmt.Errorf("%w: arc %d has letter code %d", ErrCorrupt, i, a.Letter())
		}
		if !a.Last() && i+1 < n && g.arcs[i+1].Letter() <= a.Letter() {
			return fmt.Errorf("%w: arcs %d and %d: siblings not in increasing letter order", ErrCorrupt, i, i+1)
		}
	}
	return g.checkGraph()
}
