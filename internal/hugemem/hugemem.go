// Package hugemem allocates the engine's big read-mostly tables (the
// anagram index, the annotated GADDAG arcs, the leave table) in memory the
// kernel is asked to back with 2 MB pages. The search reads these tables at
// random, about 20 MB of them, which is more than the processor's TLB
// covers with 4 KB pages, so without huge pages most of those reads also
// walk the page tables. Where huge pages are not available (another
// system, transparent huge pages turned off) the memory is ordinary.
package hugemem

import (
	"fmt"
	"reflect"
	"unsafe"
)

// hugePage is the size of a huge page on the systems that have them here
// (x86-64 and arm64 Linux with 4 KB base pages).
const hugePage = 2 << 20

// minBytes is the smallest table given huge pages of its own (a huge page
// is backed whole, so a 128 KB table takes 2 MB of memory: there are about
// a dozen such tables); a smaller one is left to the Go heap.
const minBytes = 128 << 10

// Make returns a zeroed slice of n values of T. A table of at least 128 KB
// is mapped outside the Go heap, aligned to huge pages and advised to use
// them; a smaller one, and any when the mapping fails, comes from make.
//
// The garbage collector does not free memory mapped here: a table kept as
// long as the process runs (a lexicon's shared indexes, the built-in leave
// tables) never needs to, and one that is dropped must be given back with
// Free. T must hold no pointers (the garbage collector does not scan this
// memory): Make panics if it does.
func Make[T any](n int) []T {
	t := reflect.TypeFor[T]()
	if !pointerFree(t) {
		panic(fmt.Sprintf("hugemem: %v holds pointers", t))
	}
	size := int(t.Size()) * n
	if n <= 0 || size < minBytes || size/n != int(t.Size()) {
		return make([]T, n)
	}
	if s, ok := mapHuge[T](n, size); ok {
		return s
	}
	return make([]T, n)
}

// Free gives back the memory of a slice Make returned, when Make mapped it
// (a slice from make is left to the garbage collector). The slice, and any
// slice of it, must not be used after. Tables that come and go, such as
// an endgame's transposition table, use Make and Free; tables kept for the
// process's life never call Free.
func Free[T any](s []T) {
	if len(s) == 0 {
		return
	}
	unmap(uintptr(unsafe.Pointer(unsafe.SliceData(s))))
}

func pointerFree(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return pointerFree(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !pointerFree(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}
