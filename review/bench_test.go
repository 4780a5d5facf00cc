package review

import (
	"testing"

	"scrabble/eval"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
)

// BenchmarkReview reviews doug_v_emely.gcg (26 turns, both players) with
// static evaluation and NWL23's leave values: the lexicon and the leave
// table are loaded once, outside the timing.
func BenchmarkReview(b *testing.B) {
	lex := testlex.GADDAG(b, "NWL23")
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		b.Fatal(err)
	}
	r := replay(b, testlex.Game(b, "doug_v_emely.gcg"))
	opts := Options{Tables: testgen.Tables(lex), Leaves: leaves}
	b.ReportAllocs()
	for b.Loop() {
		mustReview(b, r, opts)
	}
	b.ReportMetric(float64(len(r.Turns)), "turns/op")
}
