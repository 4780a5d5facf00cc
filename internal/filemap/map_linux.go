//go:build linux

package filemap

import (
	"os"
	"syscall"
)

// mapFile maps the file read-only, its pages mapped at once (MAP_POPULATE:
// one call, not a fault per page later).
func mapFile(f *os.File, size int) (*File, bool) {
	mem, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return nil, false
	}
	return &File{Data: mem, unmap: func() { _ = syscall.Munmap(mem) }}, true
}
