package gaddag_test

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"scrabble/gaddag"
	"scrabble/internal/testlex"
	"scrabble/lexica"
)

// BenchmarkCompile measures reading a word list and compiling it, the work
// of `scrabble lexicon add`.
func BenchmarkCompile(b *testing.B) {
	for _, name := range []string{"NWL23", "CSW24"} {
		b.Run(name, func(b *testing.B) {
			path := testlex.Path(b, name)
			var size int
			for b.Loop() {
				wl, err := lexica.ReadWordList(path)
				if err != nil {
					b.Fatal(err)
				}
				g, err := gaddag.Build(name, wl.Words, wl.SHA256)
				if err != nil {
					b.Fatal(err)
				}
				size = g.Size()
			}
			b.ReportMetric(float64(size)/1e6, "MB")
		})
	}
}

func BenchmarkLoad(b *testing.B) {
	for _, name := range []string{"NWL23", "CSW24"} {
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), name+".gaddag")
			if err := testlex.GADDAG(b, name).Save(path); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := gaddag.Load(path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkContains(b *testing.B) {
	g := testlex.GADDAG(b, "NWL23")
	wl := testlex.WordList(b, "NWL23")
	rng := rand.New(rand.NewPCG(3, 4))
	// Half real words, half near misses.
	probe := make([]string, 4096)
	for i := range probe {
		w := []byte(wl.Words[rng.IntN(len(wl.Words))])
		if i%2 == 1 {
			w[rng.IntN(len(w))] = byte('A' + rng.IntN(26))
		}
		probe[i] = string(w)
	}
	i := 0
	for b.Loop() {
		g.Contains(probe[i&4095])
		i++
	}
}

// BenchmarkDecode measures decoding a compiled lexicon already in memory:
// the checksum and the proof that the graph is well-formed, without the
// file read that BenchmarkLoad adds.
func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"NWL23", "CSW24"} {
		b.Run(name, func(b *testing.B) {
			var buf bytes.Buffer
			if _, err := testlex.GADDAG(b, name).WriteTo(&buf); err != nil {
				b.Fatal(err)
			}
			data := buf.Bytes()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := gaddag.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
