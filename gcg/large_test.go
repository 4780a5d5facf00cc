package gcg

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// largeNoteGames are the shapes of long texts a GCG file can hold: each
// builds a file of n text lines. Parsing them used to copy the whole text
// so far for every line (86 s for a note of 100,000 lines).
var largeNoteGames = []struct {
	name string
	gen  func(n int) string
	// check returns the text the game should hold.
	text func(g *Game) string
}{
	{"note continued", func(n int) string {
		var b strings.Builder
		b.WriteString("#player1 a\n#player2 b\n>a: AEINRST 8D RETAINS +66 66\n#note start\n")
		for i := range n {
			fmt.Fprintf(&b, "continuation line %06d\n", i)
		}
		return b.String()
	}, func(g *Game) string { return g.Events[0].Note }},
	{"note lines", func(n int) string {
		var b strings.Builder
		b.WriteString("#player1 a\n#player2 b\n>a: AEINRST 8D RETAINS +66 66\n")
		for i := range n {
			fmt.Fprintf(&b, "#note pragma line %06d\n", i)
		}
		return b.String()
	}, func(g *Game) string { return g.Events[0].Note }},
	{"game note with blanks", func(n int) string {
		var b strings.Builder
		b.WriteString("#player1 a\n#player2 b\n#note start\n")
		for i := range n {
			fmt.Fprintf(&b, "\nline %06d\n", i)
		}
		return b.String()
	}, func(g *Game) string { return g.Note }},
	{"description", func(n int) string {
		var b strings.Builder
		b.WriteString("#player1 a\n#player2 b\n#description start\n")
		for i := range n {
			fmt.Fprintf(&b, "#description line %06d\n", i)
		}
		return b.String()
	}, func(g *Game) string { return g.Description }},
}

// writeLarge writes a generated game into dir and returns its path.
func writeLarge(t testing.TB, dir, text string) string {
	t.Helper()
	path := filepath.Join(dir, "large.gcg")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// bytesAllocated returns the bytes f allocates.
func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestParseLargeNotesLinear: parsing a file whose note or description runs
// over n lines allocates in proportion to n, not n²: four times the lines
// cost about four times the bytes (a quadratic parser costs sixteen). The
// files are generated into a temporary directory and read with ReadFile.
// No clock is involved.
func TestParseLargeNotesLinear(t *testing.T) {
	const n = 2000
	for _, tc := range largeNoteGames {
		t.Run(tc.name, func(t *testing.T) {
			var cost [2]uint64
			for i, lines := range []int{n, 4 * n} {
				path := writeLarge(t, t.TempDir(), tc.gen(lines))
				var g *Game
				var err error
				cost[i] = bytesAllocated(func() { g, err = ReadFile(path) })
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Count(tc.text(g), "\n"); got < lines-1 {
					t.Fatalf("%d lines: the text holds %d line ends, want at least %d", lines, got, lines-1)
				}
			}
			ratio := float64(cost[1]) / float64(cost[0])
			t.Logf("%d lines: %d bytes allocated; %d lines: %d bytes (x%.1f)", n, cost[0], 4*n, cost[1], ratio)
			if ratio > 6 {
				t.Errorf("4x the lines allocate %.1fx the bytes (%d, then %d): parsing is not linear", ratio, cost[0], cost[1])
			}
		})
	}
}

// BenchmarkParseLargeNote parses a generated file whose one #note goes on
// over 100,000 lines (2.4 MB), and one of 40,000 #note lines.
func BenchmarkParseLargeNote(b *testing.B) {
	for _, tc := range largeNoteGames[:2] {
		b.Run(tc.name, func(b *testing.B) {
			data := []byte(tc.gen(100_000))
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse("large.gcg", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
