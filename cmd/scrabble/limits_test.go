package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"scrabble/internal/benchset"
)

// TestThreadsCapped: a thread or worker count far above the machine's is
// capped at maxThreads, with a message, before anything is allocated for it.
func TestThreadsCapped(t *testing.T) {
	e := nwlEnv(t)
	capped := fmt.Sprintf("100000 capped at %d threads", maxThreads())
	for _, c := range []struct {
		args    []string
		threads string // in the output
	}{
		{[]string{"selfplay", "--games", "2", "--p1", "score", "--p2", "score", "--workers", "100000"}, fmt.Sprintf("on %d threads", maxThreads())},
		{[]string{"selfplay", "--games", "2", "--p1", "score", "--p2", "score", "--threads", "100000"}, fmt.Sprintf("on %d threads", maxThreads())},
		{[]string{"sim", "--board", examplePos, "--iterations", "2", "--candidates", "2", "--threads", "100000"}, fmt.Sprintf("on %d threads", maxThreads())},
		{[]string{"bench", "movegen", "--threads", "100000", "--duration", "10ms"}, "278 positions"},
	} {
		r := e.run(append([]string{"--lexicon", "NWL23"}, c.args...)...)
		if r.code != 0 || !strings.Contains(r.stderr, capped) || !strings.Contains(r.stdout, c.threads) {
			t.Errorf("scrabble %s: exit %d, stdout %q, stderr %q; want success, %q on stderr and %q", strings.Join(c.args, " "), r.code, r.stdout, r.stderr, capped, c.threads)
		}
	}
}

// TestBenchManyPositions: bench movegen over a large --positions file sizes
// its generators by threads, not positions: 5,560 positions on 4 threads
// allocate far less than a generator per position and thread.
func TestBenchManyPositions(t *testing.T) {
	e := nwlEnv(t)
	ps, err := benchset.Positions()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for range 20 {
		for _, p := range ps {
			b.WriteString(p.CGP() + "\n")
		}
	}
	file := filepath.Join(e.root, "many.cgp")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	alloc := func(args ...string) (string, uint64) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out := e.ok(append([]string{"--lexicon", "NWL23", "bench", "movegen", "--threads", "4", "--duration", "10ms"}, args...)...)
		runtime.ReadMemStats(&after)
		return out, after.TotalAlloc - before.TotalAlloc
	}
	_, base := alloc() // the committed 278 positions: the lexicon, tables and 4x278 generators
	out, many := alloc("--positions", file)
	if !strings.Contains(out, fmt.Sprintf("%s positions", thousands(20*len(ps)))) || !strings.Contains(out, "one a thread") {
		t.Errorf("output:\n%s", out)
	}
	if many > base+(50<<20) {
		t.Errorf("bench over %d positions on 4 threads allocated %d MB, over the committed set's %d MB plus 50", 20*len(ps), many>>20, base>>20)
	}
}
