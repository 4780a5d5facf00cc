package hugemem

import (
	"sync"
	"syscall"
	"unsafe"
)

const hugePage = 2 << 20

// mappings remembers each mapping by the address handed out, so Free can
// unmap all of it.
var mappings sync.Map // uintptr -> []byte

// alloc maps size bytes aligned to a huge page and asks for huge pages (a
// hint: without them the memory is still good). nil if the mapping fails.
func alloc(size int) []byte {
	whole, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil
	}
	off := (hugePage - int(uintptr(unsafe.Pointer(&whole[0]))%hugePage)) % hugePage
	mem := whole[off : off+size : off+size]
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE)
	mappings.Store(uintptr(unsafe.Pointer(&mem[0])), whole)
	return mem
}

func release(mem []byte) {
	if whole, ok := mappings.LoadAndDelete(uintptr(unsafe.Pointer(&mem[0]))); ok {
		_ = syscall.Munmap(whole.([]byte))
	}
}
