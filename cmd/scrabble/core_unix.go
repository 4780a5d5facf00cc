//go:build unix

package main

import "syscall"

// noCoreFile sets the soft limit on core files to 0, so that the SIGABRT
// of a fatal error (dieByAbort) leaves none behind.
func noCoreFile() {
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_CORE, &lim) == nil && lim.Cur != 0 {
		lim.Cur = 0
		_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &lim) // best effort: at worst a core file
	}
}
