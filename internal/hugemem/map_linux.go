//go:build linux

package hugemem

import (
	"syscall"
	"unsafe"
)

// mapHuge maps size bytes (rounded up to whole huge pages, starting on a
// huge-page boundary) and advises the kernel to back them with huge pages.
// The advice is best effort: without it the mapping still works.
func mapHuge[T any](n, size int) ([]T, bool) {
	rounded := (size + hugePage - 1) &^ (hugePage - 1)
	mem, err := syscall.Mmap(-1, 0, rounded+hugePage, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, false
	}
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(mem)))) & (hugePage - 1)
	table := mem[off : off+rounded : off+rounded]
	_ = syscall.Madvise(table, syscall.MADV_HUGEPAGE)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(table))), n), true
}
