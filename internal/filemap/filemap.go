// Package filemap gives a file's bytes for reading without copying them:
// mapped into memory where the system allows (Linux), read whole
// elsewhere. The engine stores tables it would otherwise work out on
// every start (movegen's tables file); mapping them costs no zeroed
// memory and no copy, and processes on one machine share the pages.
package filemap

import (
	"fmt"
	"io"
	"os"
	"unsafe"
)

// File is a file's contents in memory, 8-byte aligned (mapped memory is
// page aligned; a read one is a buffer of uint64), so values of up to 8
// bytes can be viewed in it at aligned offsets.
type File struct {
	Data  []byte
	unmap func()
}

// Close gives the memory back; Data must not be used after.
func (f *File) Close() {
	if f.unmap != nil {
		f.unmap()
		f.unmap = nil
	}
	f.Data = nil
}

// Open maps (or reads) the file at path, which must not be longer than
// limit bytes. The file must not be changed in place while mapped:
// writers replace it (rename), and a mapping keeps the old contents.
func Open(path string, limit int64) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size > limit {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d this file may hold", path, size, limit)
	}
	if size == 0 {
		return &File{}, nil
	}
	if m, ok := mapFile(f, int(size)); ok {
		return m, nil
	}
	return readFile(f, int(size))
}

// readFile reads the file into a buffer of uint64.
func readFile(f *os.File, size int) (*File, error) {
	words := make([]uint64, (size+7)/8)
	data := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.Name(), err)
	}
	return &File{Data: data}, nil
}
