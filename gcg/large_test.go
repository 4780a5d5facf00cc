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

// endless is a reader that never ends (like /dev/zero), counting the bytes
// read from it.
type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '#'
	}
	r.n += int64(len(p))
	return len(p), nil
}

// TestReadSizeLimit: a file over MaxFileSize is refused with an error
// naming it and the limit, and an endless input is not read past it.
func TestReadSizeLimit(t *testing.T) {
	big := filepath.Join(t.TempDir(), "huge.gcg")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: MaxFileSize+1 bytes, nearly none on disk.
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	inf := &endless{}
	tests := []struct {
		name string
		read func() (*Game, error)
		file string
	}{
		{"file one byte over", func() (*Game, error) { return ReadFile(big) }, big},
		{"endless input", func() (*Game, error) { return Read("<stdin>", inf) }, "<stdin>"},
		{"data in memory", func() (*Game, error) {
			return Parse("mem.gcg", make([]byte, MaxFileSize+1))
		}, "mem.gcg"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := tc.read()
			if err == nil {
				t.Fatalf("read a game of %d events, want an error", len(g.Events))
			}
			want := tc.file + ": larger than 16 MB, the limit for a GCG file"
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q, want it to start %q", err, want)
			}
		})
	}
	if inf.n > 2*MaxFileSize {
		t.Errorf("read %d bytes of an endless input", inf.n)
	}
}
