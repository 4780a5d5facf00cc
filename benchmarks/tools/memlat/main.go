// Command memlat prints this machine's speed now, in two numbers: a
// register-only loop (ns an iteration) and a random read over 32 MB (ns a
// load, a pointer chase, so one load at a time). On this VM the first stays
// put while the second moves between about 60 and 180 ns as other tenants
// fill the shared L3 or not, and the engine's speed follows the second; so
// measurements taken at different times compare only with it beside them
// (benchmarks/tools/loop.sh).
package main

import (
	"flag"
	"fmt"
	"time"
)

//go:noinline
func spin(n int) uint64 {
	x := uint64(1)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
		x ^= x >> 17
	}
	return x
}

func main() {
	mb := flag.Int("mb", 32, "size of the random read's array, MB")
	flag.Parse()
	const spins = 100_000_000
	start := time.Now()
	sink := spin(spins)
	alu := time.Since(start)

	// One random cycle through every slot (Sattolo's shuffle), so the
	// chase visits the whole array.
	n := *mb << 18 // uint32 slots
	next := make([]uint32, n)
	for i := range next {
		next[i] = uint32(i)
	}
	x := uint64(88172645463325252)
	for i := n - 1; i > 0; i-- {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := int(x % uint64(i))
		next[i], next[j] = next[j], next[i]
	}
	const loads = 4_000_000
	p := uint32(0)
	start = time.Now()
	for range loads {
		p = next[p]
	}
	mem := time.Since(start)
	fmt.Printf("alu %.2f ns, mem %.0f ns\n", float64(alu.Nanoseconds())/spins, float64(mem.Nanoseconds())/loads)
	if sink == 0 && p == 1<<31 {
		fmt.Println() // keeps the work from being optimised away
	}
}
