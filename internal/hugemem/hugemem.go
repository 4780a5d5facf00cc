// Package hugemem allocates the engine's large lookup tables (word filters
// and sets, the anagram lists, the leave table, the graph's arcs) on huge
// pages where the system offers them. Look-ups into such tables land at
// random in many megabytes: with 4 KB pages nearly every one also misses the
// TLB, and self-play ran about 12% faster on this machine with huge pages
// (Linux transparent huge pages, which are only given to memory that asks).
package hugemem

import "unsafe"

// minSize is the smallest table worth a mapping of its own.
const minSize = 1 << 20

// Slice returns a zeroed slice of n Ts, on huge pages when it is large and
// the system allows. T must hold no pointers: the memory may lie outside the
// Go heap, where the garbage collector does not look. The memory is never
// given back; use it for tables that live as long as the process, or
// release it with Free.
func Slice[T any](n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero)) * n
	if size < minSize {
		return make([]T, n)
	}
	mem := alloc(size)
	if mem == nil {
		return make([]T, n)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&mem[0])), n)
}

// Free gives back a slice from Slice. The slice must not be used after.
func Free[T any](s []T) {
	if len(s) == 0 {
		return
	}
	var zero T
	size := int(unsafe.Sizeof(zero)) * len(s)
	if size < minSize {
		return // from make: the garbage collector's
	}
	release(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), size))
}
