package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"scrabble/internal/natstest"
	"scrabble/queue"
)

// queueTest readies a test of the queue with real processes: the test's
// environment, the built binary, an in-process NATS server's URL and a
// function naming a path under the environment's root.
func queueTest(t *testing.T) (e *testEnv, bin, url string, dir func(string) string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds the binary and runs a NATS server and processes for seconds")
	}
	e = nwlEnv(t)
	bin = buildBinary(t, t.TempDir())
	url = startNATS(t)
	dir = func(name string) string { return filepath.Join(e.root, name) }
	return e, bin, url, dir
}

// startWorkers returns a function starting worker processes of bin on the
// queue at url, one thread each, their items played under work.
func startWorkers(t *testing.T, e *testEnv, bin, url, work string) func(id string, env ...string) *proc {
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	return func(id string, env ...string) *proc {
		return startProc(t, "worker "+id, bin, env, "--data-dir", e.dataDir, "worker", "--queue", url, "--threads", "1", "--id", id, "--work-dir", work)
	}
}

// startNATS starts a NATS server in the test's process (natstest.Start).
func startNATS(t *testing.T) string { return natstest.Start(t) }

// lockedBuffer is a process's stderr, read while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// proc is a process of the built binary.
type proc struct {
	name           string
	cmd            *exec.Cmd
	stdout, stderr *lockedBuffer
	done           chan struct{}
	err            error
}

func startProc(t *testing.T, name, bin string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, cmd: exec.Command(bin, args...), stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("%s's stderr:\n%s", p.name, p.stderr)
		}
	})
	return p
}

// kill ends the process with SIGKILL, as a machine lost would, and waits.
func (p *proc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// finish waits for the process to exit on its own, failing the test if it
// does not within a minute or exits with an error.
func (p *proc) finish(t *testing.T) {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		t.Fatalf("the %s did not finish in a minute", p.name)
	}
	if p.err != nil {
		t.Fatalf("%s: %v\n%s", p.name, p.err, p.stderr)
	}
}

// waitFor waits until cond holds, failing the test after d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func resultLines(dir string) int {
	data, _ := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	return bytes.Count(data, []byte("\n"))
}

// TestQueueSelfplay plays a run over the queue with an in-process NATS
// server, a coordinator and three worker processes: the first publishes
// part of its first item and is killed (SIGKILL) holding it, the third
// starts late; in the second case the coordinator is killed as well and
// restarted with --resume. The collected run, merged, is byte for byte the
// run one machine plays: every game once, none lost.
func TestQueueSelfplay(t *testing.T) {
	e, bin, url, dir := queueTest(t)
	run := []string{"--lexicon", "NWL23", "selfplay", "--games", "36", "--pairs", "--seed", "9", "--p1", "equity", "--p2", "score"}
	// The single machine's run (which also leaves the lexicon's tables
	// compiled for the processes).
	e.ok(append(run, "--out", dir("single"), "--threads", "2")...)
	whole := e.ok("selfplay", "merge", "--json", "--out", dir("whole"), dir("single"))

	base := []string{"--data-dir", e.dataDir}
	work := dir("work")
	worker := startWorkers(t, e, bin, url, work)
	for _, c := range []struct {
		name            string
		killCoordinator bool
	}{
		{"worker killed", false},
		{"worker and coordinator killed", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := dir("queue " + c.name)
			coordArgs := append(append(append([]string{}, base...), run...), "--queue", url, "--out", out, "--shards", "12", "--ack-wait", "2s", "--json")
			coord := startProc(t, "coordinator", bin, nil, coordArgs...)
			w1 := worker("w1", testWorkerHangEnv+"=1")
			waitFor(t, 30*time.Second, "worker 1 to hang in its first item", func() bool { return strings.Contains(w1.stderr.String(), "hanging") })
			w2 := worker("w2")
			w1.kill()
			if c.killCoordinator {
				waitFor(t, 30*time.Second, "the coordinator to store a game", func() bool { return resultLines(out) >= 1 })
				coord.kill()
				if resultLines(out) == 36 {
					t.Fatal("the coordinator was killed after the run, not during it")
				}
				coord = startProc(t, "coordinator restarted", bin, nil, append(coordArgs, "--resume")...)
			}
			time.Sleep(300 * time.Millisecond)
			w3 := worker("w3")
			coord.finish(t)
			w2.kill()
			w3.kill()
			// The killed worker's item went to another worker.
			if !strings.Contains(w2.stderr.String()+w3.stderr.String(), "delivery 2") {
				t.Errorf("no worker played a redelivered item:\n%s\n%s", w2.stderr, w3.stderr)
			}
			if n := resultLines(out); n != 36 {
				t.Errorf("results.jsonl has %d lines, want 36", n)
			}
			merged := e.ok("selfplay", "merge", "--json", "--out", dir("merged "+c.name), out)
			if merged != whole {
				t.Errorf("merged summary:\n%s\nthe single run's:\n%s", merged, whole)
			}
			files, err := os.ReadDir(dir("whole"))
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != 36+2 {
				t.Fatalf("the single run has %d files", len(files))
			}
			for _, f := range files {
				a, err1 := os.ReadFile(filepath.Join(dir("merged "+c.name), f.Name()))
				b, err2 := os.ReadFile(filepath.Join(dir("whole"), f.Name()))
				if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
					t.Errorf("%s differs from the single run's (%v, %v)", f.Name(), err1, err2)
				}
			}
			// The coordinator's summary is the single run's.
			for _, field := range []string{`"games":36`, `"win_rate"`} {
				if !strings.Contains(coord.stdout.String(), field) {
					t.Errorf("the coordinator's summary lacks %s:\n%s", field, coord.stdout)
				}
			}
		})
	}
	// The killed workers' directories are removed by the next worker on
	// the machine, which removes its own when it stops.
	if left, _ := os.ReadDir(work); len(left) == 0 {
		t.Error("no directories of the workers killed last: nothing to remove")
	}
	if r := e.run("worker", "--queue", url, "--idle", "500ms", "--work-dir", work); r.code != 0 {
		t.Fatalf("worker: exit %d\n%s", r.code, r.stderr)
	}
	if left, _ := os.ReadDir(work); len(left) != 0 {
		t.Errorf("%d directories left in the work directory", len(left))
	}
}

// TestQueueUnreachable: a server that cannot be reached at the start is a
// clear error, for the coordinator and the worker alike, after
// --connect-wait.
func TestQueueUnreachable(t *testing.T) {
	e := nwlEnv(t)
	const url = "nats://127.0.0.1:1"
	for _, args := range [][]string{
		{"worker", "--queue", url, "--connect-wait", "500ms"},
		{"--lexicon", "NWL23", "selfplay", "--games", "4", "--queue", url, "--connect-wait", "500ms", "--out", filepath.Join(e.root, "run")},
	} {
		r := e.run(args...)
		if r.code != 1 || !strings.Contains(r.stderr, "cannot reach the NATS server at "+url) {
			t.Errorf("%s: exit %d, stderr:\n%s", args[0], r.code, r.stderr)
		}
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"worker"}, "--queue URL is required"},
		{[]string{"--lexicon", "NWL23", "selfplay", "--queue", url}, "--queue needs --out DIR"},
		{[]string{"--lexicon", "NWL23", "selfplay", "--queue", url, "--out", "x", "--shard", "1/2"}, "not --shard"},
		{[]string{"--lexicon", "NWL23", "selfplay", "--queue", url, "--out", "x", "--shards", "0"}, "--shards must be at least 1"},
		{[]string{"--lexicon", "NWL23", "selfplay", "--queue", url, "--out", filepath.Join(e.root, "y"), "--ack-wait", "0s"}, "--ack-wait must be at least 1s"},
		{[]string{"worker", "--queue", url, "--idle", "-1s"}, "must not be negative"},
	} {
		if r := e.run(c.args...); r.code != 2 || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%q: exit %d, stderr:\n%s", c.args, r.code, r.stderr)
		}
	}
}

// TestWorkerRefuses: a worker refuses, saying why, items of another build,
// of a lexicon it lacks or whose word list differs, and of a player it
// does not know; each goes back to the queue, and the worker plays none.
func TestWorkerRefuses(t *testing.T) {
	e := nwlEnv(t)
	url := startNATS(t)
	sha := nwlSHA(t, e)
	settings := func(p1 string) []byte {
		return fmt.Appendf(nil, "{\n  \"command\": \"selfplay\",\n  \"p1\": %q,\n  \"p2\": \"score\"\n}\n", p1)
	}
	cases := []struct {
		item queue.Item
		msg  string
	}{
		{queue.Item{Build: "scrabble of another commit", Lexicon: "NWL23", LexiconSHA256: sha, Settings: settings("equity")}, "it is of another build (scrabble of another commit; this worker is"},
		{queue.Item{Build: buildID(), Lexicon: "CSW19", LexiconSHA256: sha, Settings: settings("equity")}, "lexicon CSW19:"},
		{queue.Item{Build: buildID(), Lexicon: "NWL23", LexiconSHA256: strings.Repeat("0", 64), Settings: settings("equity")}, "lexicon NWL23 here is another word list"},
		{queue.Item{Build: buildID(), Lexicon: "NWL23", LexiconSHA256: sha, Settings: settings("nosuch")}, `player 1 is "nosuch", not a player of this build`},
	}
	var items []queue.Item
	var msgs []string
	for i, c := range cases {
		it := c.item
		it.Games, it.Shard, it.Shards = 4, 1, 1
		it.Run = queue.RunID(fmt.Appendf(nil, "refusal %d", i))
		items, msgs = append(items, it), append(msgs, c.msg)
	}
	expectRefusals(t, e, url, items, msgs, 4, nil)
}

// expectRefusals publishes each item from a coordinator of its own
// (stored: the games or parts an item's run has; prepare, if set, readies
// the server for it), runs a worker over them, and checks that the worker's
// log and the coordinators' give each item's reason msgs[i], and that the
// worker played none.
func expectRefusals(t *testing.T, e *testEnv, url string, items []queue.Item, msgs []string, stored int, prepare func(context.Context, jetstream.JetStream, queue.Item)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var logs lockedBuffer
	for _, it := range items {
		nc, err := queue.Connect(ctx, url, "test coordinator", time.Second, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		if prepare != nil {
			js, err := jetstream.New(nc)
			if err != nil {
				t.Fatal(err)
			}
			prepare(ctx, js, it)
		}
		co := &queue.Coordinator{Conn: nc, Items: []queue.Item{it}, Stored: make([]bool, stored),
			Store: func(*queue.Game) error { t.Error("a refused item's result arrived"); return nil },
			Flush: func() error { return nil },
			Logf:  func(format string, args ...any) { fmt.Fprintf(&logs, format+"\n", args...) }}
		wg.Add(1)
		go func() { defer wg.Done(); co.Run(ctx) }()
	}
	time.Sleep(500 * time.Millisecond) // the items published
	r := e.run("worker", "--queue", url, "--idle", "2s", "--id", "refuser", "--work-dir", t.TempDir())
	cancel()
	wg.Wait()
	if r.code != 0 {
		t.Fatalf("worker: exit %d\n%s", r.code, r.stderr)
	}
	for _, msg := range msgs {
		if !strings.Contains(r.stderr, msg) {
			t.Errorf("the worker does not say %q:\n%s", msg, r.stderr)
		}
		if !strings.Contains(logs.String(), msg) {
			t.Errorf("the coordinators' logs do not say %q:\n%s", msg, logs.String())
		}
	}
	if strings.Contains(r.stderr, "done item") {
		t.Errorf("the worker played a refused item:\n%s", r.stderr)
	}
}

// nwlSHA is the digest of NWL23's word list, as a run records it.
func nwlSHA(t *testing.T, e *testEnv) string {
	t.Helper()
	run := filepath.Join(e.root, "sha-run")
	e.ok("--lexicon", "NWL23", "selfplay", "--games", "1", "--out", run)
	data, err := os.ReadFile(filepath.Join(run, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), `"lexicon sha256": "`)
	sha, _, ok2 := strings.Cut(rest, `"`)
	if !ok || !ok2 || len(sha) != 64 {
		t.Fatalf("no lexicon sha256 in %s", data)
	}
	return sha
}
