package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"scrabble/internal/benchset"
	"scrabble/internal/readlimit"
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

// TestReadersLimit: every reader refuses a file over its limit with an
// error naming the file and the limit, without reading it whole: sparse
// files over each limit, /dev/zero, standard input, a gzip bomb.
func TestReadersLimit(t *testing.T) {
	e := nwlEnv(t)
	sparse := func(name string, size int64) string {
		p := filepath.Join(e.root, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, size); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var bomb bytes.Buffer // 65 MB of zeros after the binary leave magic, 64 KB gzip'ed
	zw := gzip.NewWriter(&bomb)
	zw.Write([]byte("SCRLEAVE"))
	zw.Write(make([]byte, readlimit.Leaves+(1<<20)))
	zw.Close()
	bombFile := e.file("bomb.gz", bomb.String())
	results := filepath.Join(e.root, "run")
	e.ok("--lexicon", "NWL23", "selfplay", "--games", "1", "--p1", "score", "--p2", "score", "--out", results)
	rf, err := os.OpenFile(filepath.Join(results, "results.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	rf.WriteString(strings.Repeat(" ", readlimit.ResultsLine+1) + "\n")
	rf.Close()
	big := sparse("big", 1<<30+1) // over every limit
	// Two more runs: one whose settings.json, one whose results.jsonl is
	// over its limit (sparse: no disk).
	bigRun := func(name, file string) string {
		dir := filepath.Join(e.root, name)
		e.ok("--lexicon", "NWL23", "selfplay", "--games", "1", "--p1", "score", "--p2", "score", "--out", dir)
		if err := os.Truncate(filepath.Join(dir, file), 1<<30+1); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	bigSettings, bigResults := bigRun("run-settings", "settings.json"), bigRun("run-results", "results.jsonl")
	for _, c := range []struct {
		args  []string
		stdin string
		want  []string
	}{
		{args: []string{"show", "--board", "/dev/zero"}, want: []string{"/dev/zero is larger than 1 MB"}},
		{args: []string{"show", "--board", big}, want: []string{big + " is larger than 1 MB, the most a position may hold"}},
		{args: []string{"show", "--board", "-"}, stdin: strings.Repeat("\n", readlimit.Position+1), want: []string{"<stdin> is larger than 1 MB"}},
		{args: []string{"moves", "--board", big, "--rack", "A"}, want: []string{big + " is larger than 1 MB"}},
		{args: []string{"bench", "movegen", "--positions", big}, want: []string{big + " is larger than 64 MB, the most a positions file may hold"}},
		{args: []string{"bench", "movegen", "--positions", "/dev/zero"}, want: []string{"/dev/zero is larger than 64 MB"}},
		{args: []string{"leaves", "csv", big}, want: []string{big + " is larger than 64 MB, the most a leave file may hold"}},
		{args: []string{"leaves", "csv", bombFile}, want: []string{bombFile + " (decompressed) is larger than 64 MB"}},
		{args: []string{"winpct", "show", big}, want: []string{big + " is larger than 16 MB, the most a win% table may hold"}},
		{args: []string{"--config", big, "show", "--board", examplePos}, want: []string{big + " is larger than 1 MB, the most a config file may hold"}},
		{args: []string{"selfplay", "--games", "2", "--p1", "score", "--p2", "score", "--out", results, "--resume"}, want: []string{"results.jsonl, line 2: longer than 64 KB"}},
		{args: []string{"selfplay", "--games", "2", "--p1", "score", "--p2", "score", "--out", bigSettings, "--resume"}, want: []string{"settings.json is larger than 1 MB"}},
		{args: []string{"selfplay", "--games", "2", "--p1", "score", "--p2", "score", "--out", bigResults, "--resume"}, want: []string{"results.jsonl is larger than 1 GB"}},
	} {
		r := e.runIn(c.stdin, append([]string{"--data-dir", e.dataDir, "--lexicon", "NWL23"}, c.args...)...)
		ok := r.code == 1
		for _, w := range c.want {
			ok = ok && strings.Contains(r.stderr, w)
		}
		if !ok {
			t.Errorf("scrabble %s: exit %d, stderr %q; want exit 1 and %q", strings.Join(c.args, " "), r.code, r.stderr, c.want)
		}
	}
}

// TestPanicExitStatus: a bug exits 70, never 2 (a usage error) or 1 (a
// failure), whether the panic is on the main goroutine or recovered in a
// worker, in process and from the built binary.
func TestPanicExitStatus(t *testing.T) {
	bin := ""
	if !testing.Short() {
		bin = buildBinary(t, t.TempDir())
	}
	for _, where := range []string{"main", "worker"} {
		t.Setenv(testPanicEnv, where)
		var out, errb bytes.Buffer
		if code := run([]string{"version"}, strings.NewReader(""), &out, &errb); code != 70 || !strings.Contains(errb.String(), "scrabble: internal error: forced by "+testPanicEnv) {
			t.Errorf("%s: run: exit %d, stderr %q; want 70 and an internal error", where, code, errb.String())
		}
		if bin == "" {
			continue
		}
		cmd := exec.Command(bin, "version")
		stderr, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 70 || err == nil || !strings.Contains(string(stderr), "internal error") {
			t.Errorf("%s: the binary: exit %d, output %q; want 70 and an internal error", where, code, stderr)
		}
	}
}
