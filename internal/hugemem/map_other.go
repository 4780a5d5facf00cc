//go:build !linux

package hugemem

func mapHuge[T any](n, size int) ([]T, bool) { return nil, false }

func unmap(addr uintptr) {}
