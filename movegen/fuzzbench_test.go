package movegen_test

import (
	"math/rand/v2"
	"testing"
)

// benchFuzz runs a fuzz target's check on pseudo-random inputs, to profile
// what an execution costs (go test -bench FuzzCheck -cpuprofile).
func benchFuzz(b *testing.B, check func(*fuzzState, testing.TB, []byte)) {
	s := newFuzzStateFor(b)
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := make([][]byte, 256)
	for i := range inputs {
		in := make([]byte, 8+rng.IntN(56))
		for j := range in {
			in[j] = byte(rng.Uint32())
		}
		inputs[i] = in
	}
	for i := 0; b.Loop(); i++ {
		check(s, b, inputs[i%len(inputs)])
	}
}

func BenchmarkFuzzCheckGenerate(b *testing.B) { benchFuzz(b, (*fuzzState).checkGenerate) }
func BenchmarkFuzzCheckBest(b *testing.B)     { benchFuzz(b, (*fuzzState).checkBest) }
func BenchmarkFuzzCheckApply(b *testing.B)    { benchFuzz(b, (*fuzzState).checkApply) }
