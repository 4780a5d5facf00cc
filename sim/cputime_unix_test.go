//go:build unix

package sim

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used: on a shared machine it
// tells how much of a benchmark's wall time was really spent on it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
