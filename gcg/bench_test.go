package gcg

import (
	"os"
	"testing"

	"scrabble/internal/testlex"
)

// BenchmarkParseReplay parses and replays doug_v_emely.gcg (28 events).
func BenchmarkParseReplay(b *testing.B) {
	data, err := os.ReadFile(testlex.Game(b, "doug_v_emely.gcg"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		g, err := Parse("doug_v_emely.gcg", data)
		if err != nil {
			b.Fatal(err)
		}
		g.Replay()
	}
}
