//go:build !unix

package sim

import "time"

// cpuTime is unknown here: benchmarks report wall-time rates only.
func cpuTime() time.Duration { return 0 }
