//go:build linux

package hugemem

import (
	"sync"
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
	mappings.Store(uintptr(unsafe.Pointer(unsafe.SliceData(table))), mem)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(table))), n), true
}

// mappings holds each mapping mapHuge made, by the address of the slice it
// returned, for unmap.
var mappings sync.Map

// unmap unmaps the mapping whose slice starts at addr, if mapHuge made one.
func unmap(addr uintptr) {
	if mem, ok := mappings.LoadAndDelete(addr); ok {
		_ = syscall.Munmap(mem.([]byte))
	}
}
