package eval

import (
	"io"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"scrabble/rules"
)

var sinkI32 int32
var sinkInt int

func BenchmarkLeaveValue(b *testing.B) {
	lt := randomTable(5)
	leaves := randomLeaves(rand.New(rand.NewPCG(5, 5)), 1<<12)
	b.ReportAllocs()
	b.ResetTimer()
	var s rules.Equity
	for i := 0; b.Loop(); i++ {
		s += lt.LeaveValue(&leaves[i&(len(leaves)-1)])
	}
	sinkI32 = int32(s)
}

func BenchmarkIndex(b *testing.B) {
	lt := NewLeaveTable()
	leaves := randomLeaves(rand.New(rand.NewPCG(6, 6)), 1<<12)
	b.ReportAllocs()
	b.ResetTimer()
	s := 0
	for i := 0; b.Loop(); i++ {
		j, _ := lt.Index(&leaves[i&(len(leaves)-1)])
		s += j
	}
	sinkInt = s
}

func BenchmarkLeaveAt(b *testing.B) {
	lt := NewLeaveTable()
	b.ReportAllocs()
	s := 0
	for i := 0; b.Loop(); i++ {
		r := lt.LeaveAt(i * 7919 % lt.Len())
		s += int(r[1])
	}
	sinkInt = s
}

func BenchmarkLoad(b *testing.B) {
	path := filepath.Join(b.TempDir(), "leaves.bin")
	if err := randomTable(7).Save(path); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadLeaves(path); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteCSV(b *testing.B) {
	lt := randomTable(8)
	b.ReportAllocs()
	for b.Loop() {
		if err := lt.WriteCSV(io.Discard, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRackLeaveValues values every leave of a rack at once, as the
// move generator does once per search (up to 128 leaves a rack).
func BenchmarkRackLeaveValues(b *testing.B) {
	lt := randomTable(7)
	rng := rand.New(rand.NewPCG(7, 7))
	racks := make([]rules.Rack, 1<<10)
	for i := range racks {
		racks[i] = randomRack(rng, rules.RackSize)
	}
	var out [128]rules.Equity
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r := &racks[i&(len(racks)-1)]
		n := 1
		for _, c := range r {
			n *= int(c) + 1
		}
		lt.RackLeaveValues(r, out[:n])
	}
}
