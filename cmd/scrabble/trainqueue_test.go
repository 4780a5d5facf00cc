package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"scrabble/queue"
)

// TestQueueTrain trains leave values (two generations) and the win table
// over the queue with an in-process NATS server, the coordinator and three
// worker processes of the built binary: the first worker is killed
// (SIGKILL) in its first item, holding it, its part played and put in the
// object store but not published (so another worker plays the item
// again, and puts the same part again); the
// coordinator is killed too (for leaves once the first generation is
// merged, for the win table once a part is stored) and restarted with
// --resume; the third worker starts late. The table written, and every
// file of the run's work directory, are byte for byte those of the same
// run on one machine.
func TestQueueTrain(t *testing.T) {
	e, bin, url, dir := queueTest(t)
	base := []string{"--data-dir", e.dataDir}
	worker := startWorkers(t, e, bin, url, dir("work"))
	exists := func(path string) bool { _, err := os.Stat(path); return err == nil }
	partsStored := func(out string) int {
		n := 0
		dirs, _ := filepath.Glob(out + ".train/queue/*parts-of-*")
		for _, d := range dirs {
			entries, _ := os.ReadDir(d)
			for _, en := range entries {
				if !strings.HasPrefix(en.Name(), ".") {
					n++
				}
			}
		}
		return n
	}
	for _, c := range []struct {
		name, file string
		run        []string
		hang       string // the first worker's testWorkerHangEnv
		// killAfter says when the coordinator is killed.
		killAfter func(out string) bool
		resumed   func(said string) bool // what the restarted coordinator says
	}{
		{"leaves", "leaves.leaves", []string{"--lexicon", "NWL23", "leaves", "train", "--games", "12", "--generations", "2", "--seed", "5", "--prior", "20", "--chunk", "2"},
			"before", func(out string) bool { return exists(out + ".train/gen-1.leaves") }, func(said string) bool { return strings.Contains(said, "Generation 1: done earlier") }},
		{"winpct", "winpct.csv", []string{"--lexicon", "NWL23", "winpct", "train", "--games", "12", "--seed", "3", "--chunk", "2"},
			"before", func(out string) bool { return partsStored(out) >= 1 }, func(said string) bool {
				return strings.Contains(said, " of 6 parts stored") && !strings.Contains(said, "0 of 6 parts stored")
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			single := dir("single-" + c.file)
			e.ok(append(append([]string{}, c.run...), "--out", single, "--threads", "2")...)
			out := dir("queue-" + c.file)
			coordArgs := append(append(append([]string{}, base...), c.run...), "--queue", url, "--out", out, "--items", "6", "--ack-wait", "2s")
			coord := startProc(t, "coordinator", bin, nil, coordArgs...)
			w1 := worker(c.name+"-w1", testWorkerHangEnv+"="+c.hang)
			waitFor(t, 30*time.Second, "worker 1 to hang in its first item", func() bool { return strings.Contains(w1.stderr.String(), "hanging") })
			w2 := worker(c.name + "-w2")
			w1.kill()
			waitFor(t, 30*time.Second, "the coordinator's progress", func() bool { return c.killAfter(out) })
			coord.kill()
			if exists(out) {
				t.Fatal("the coordinator was killed after the run, not during it")
			}
			coord = startProc(t, "coordinator restarted", bin, nil, append(coordArgs, "--resume")...)
			time.Sleep(300 * time.Millisecond)
			w3 := worker(c.name + "-w3")
			coord.finish(t)
			w2.kill()
			w3.kill()
			if !strings.Contains(w2.stderr.String()+w3.stderr.String(), "delivery 2") {
				t.Errorf("no worker played a redelivered item:\n%s\n%s", w2.stderr, w3.stderr)
			}
			if !c.resumed(coord.stdout.String() + coord.stderr.String()) {
				t.Errorf("the restarted coordinator does not say it kept the work done:\n%s\n%s", coord.stdout, coord.stderr)
			}
			sameFile(t, single, out)
			files, err := os.ReadDir(single + ".train")
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, f := range files {
				if !strings.HasPrefix(f.Name(), ".") {
					sameFile(t, filepath.Join(single+".train", f.Name()), filepath.Join(out+".train", f.Name()))
					n++
				}
			}
			if want := map[string]int{"leaves": 5, "winpct": 2}[c.name]; n != want {
				t.Errorf("the single run's work directory has %d files, want %d", n, want)
			}
			if exists(out + ".train/queue") {
				t.Error("the parts were left in the work directory of the finished run")
			}
			// The run's streams and object stores are gone.
			nc, err := queue.Connect(context.Background(), url, "test", time.Second, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			js, _ := jetstream.New(nc)
			names := js.StreamNames(context.Background())
			for n := range names.Name() {
				t.Errorf("stream %s left on the server", n)
			}
			// A resume with other settings is refused.
			other := append(append([]string{}, c.run...), "--seed", "99", "--queue", url, "--out", out, "--resume")
			if r := e.run(other...); r.code != 1 || !strings.Contains(r.stderr, "cannot resume: seed was") {
				t.Errorf("resumed with another seed: exit %d, stderr:\n%s", r.code, r.stderr)
			}
		})
	}
}

// sameFile fails the test unless the files a and b are equal and not empty.
func sameFile(t *testing.T, a, b string) {
	t.Helper()
	da, err1 := os.ReadFile(a)
	db, err2 := os.ReadFile(b)
	if err1 != nil || err2 != nil || len(da) == 0 || !bytes.Equal(da, db) {
		t.Errorf("%s differs from the single run's %s (%v, %v)", b, a, err1, err2)
	}
}

// TestQueueTrainUsage: a training coordinator's bad flags are refused
// before anything is written.
func TestQueueTrainUsage(t *testing.T) {
	e := nwlEnv(t)
	const url = "nats://127.0.0.1:1"
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--lexicon", "NWL23", "leaves", "train", "--queue", url, "--out", "x", "--shard", "1/2", "--generation", "1"}, "it takes no --shard or --generation"},
		{[]string{"--lexicon", "NWL23", "leaves", "train", "--queue", url, "--out", "x", "--items", "0"}, "--items must be at least 1"},
		{[]string{"--lexicon", "NWL23", "winpct", "train", "--queue", url, "--out", "x", "--shard", "1/2"}, "it takes no --shard"},
		{[]string{"--lexicon", "NWL23", "winpct", "train", "--queue", url, "--out", "x", "--ack-wait", "10ms"}, "--ack-wait must be at least 1s"},
	} {
		if r := e.run(c.args...); r.code != 2 || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%q: exit %d, stderr:\n%s", c.args, r.code, r.stderr)
		}
	}
	r := e.run("--lexicon", "NWL23", "winpct", "train", "--games", "4", "--queue", url, "--connect-wait", "300ms", "--out", filepath.Join(e.root, "w.csv"))
	if r.code != 1 || !strings.Contains(r.stderr, "cannot reach the NATS server at "+url) {
		t.Errorf("an unreachable server: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// TestWorkerRefusesTraining: a worker refuses, saying why, training items
// of a kind it does not know, of another build, whose settings are not
// those its own shard records, or whose flags make no run here.
func TestWorkerRefusesTraining(t *testing.T) {
	e := nwlEnv(t)
	url := startNATS(t)
	sha := nwlSHA(t, e)
	leaves := []string{"--games=4", "--seed=1", "--prior=20", "--observe=rack", "--chunk=2"}
	cases := []struct {
		item queue.Item
		msg  string
	}{
		{queue.Item{Kind: "nosuch train", Build: buildID()}, `it is a "nosuch train" item, which this build does not play`},
		{queue.Item{Kind: "leaves train", Generation: 1, Build: "scrabble of another commit", Args: leaves}, "it is of another build (scrabble of another commit"},
		{queue.Item{Kind: "leaves train", Generation: 1, Build: buildID(), Args: leaves}, "its settings are not the run's here"},
		{queue.Item{Kind: "winpct train", Build: buildID(), Args: []string{"--games=4", "--nosuch=1"}}, "its settings do not make a run here"},
	}
	var items []queue.Item
	var msgs []string
	for i, c := range cases {
		it := c.item
		it.Lexicon, it.LexiconSHA256 = "NWL23", sha
		it.Settings = []byte("{\n  \"command\": \"" + it.Kind + "\",\n  \"seed\": \"999\"\n}\n")
		it.Games, it.Shard, it.Shards = 4, 1, 1
		it.Run = queue.RunID(fmt.Appendf(nil, "training refusal %d", i))
		it.Bucket = queue.PartsBucket(it.Run)
		items, msgs = append(items, it), append(msgs, c.msg)
	}
	expectRefusals(t, e, url, items, msgs, 1, func(ctx context.Context, js jetstream.JetStream, it queue.Item) {
		if _, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: it.Bucket}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestQueueSelfplayMoreGames: a self-play run over the queue resumed with
// more games is another run to the queue; the resumed coordinator takes
// the games the earlier run's workers left in its results stream, removes
// that run's streams, and the collected run is the single machine's run of
// the new game count, byte for byte.
func TestQueueSelfplayMoreGames(t *testing.T) {
	e, bin, url, dir := queueTest(t)
	run := []string{"--lexicon", "NWL23", "selfplay", "--pairs", "--seed", "9", "--p1", "equity", "--p2", "score"}
	e.ok(append(run, "--games", "12", "--out", dir("single"), "--threads", "2")...)
	whole := e.ok("selfplay", "merge", "--json", "--out", dir("whole"), dir("single"))

	base := []string{"--data-dir", e.dataDir}
	out := dir("queue")
	coord := append(append([]string{}, base...), run...)
	// The earlier run, of 8 games: its coordinator killed as soon as it
	// has published its items, then a worker plays them all.
	first := startProc(t, "first coordinator", bin, nil, append(coord, "--games", "8", "--shards", "2", "--queue", url, "--out", out)...)
	nc, err := queue.Connect(context.Background(), url, "test", time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	waitFor(t, 30*time.Second, "the first coordinator to publish its 2 items", func() bool {
		run, err := os.ReadFile(filepath.Join(out, queueRunFile))
		if err != nil {
			return false
		}
		s, err := js.Stream(context.Background(), queue.WorkStream(strings.TrimSpace(string(run))))
		if err != nil {
			return false
		}
		info, err := s.Info(context.Background())
		return err == nil && info.State.Msgs == 2
	})
	first.kill()
	w := startProc(t, "first worker", bin, nil, append(base, "worker", "--queue", url, "--idle", "2s", "--threads", "2", "--work-dir", t.TempDir())...)
	<-w.done
	if w.err != nil || strings.Count(w.stderr.String(), "done item") != 2 {
		t.Fatalf("worker: %v\n%s", w.err, w.stderr)
	}
	if n := resultLines(out); n != 0 {
		t.Fatalf("the killed coordinator stored %d games", n)
	}
	// Resumed with 12 games: the 8 are taken from the earlier run's
	// results stream; only the item of games 8 to 11 is published.
	second := startProc(t, "second coordinator", bin, nil, append(coord, "--games", "12", "--shards", "3", "--queue", url, "--out", out, "--resume")...)
	waitFor(t, 30*time.Second, "the second coordinator to take the earlier run's games", func() bool { return strings.Contains(second.stderr.String(), "took 8 games it left") })
	worker := startProc(t, "worker", bin, nil, append(base, "worker", "--queue", url, "--threads", "2", "--work-dir", t.TempDir())...)
	second.finish(t)
	worker.kill()
	if n := strings.Count(worker.stderr.String(), "done item"); n != 1 {
		t.Errorf("the worker played %d items, want 1 (games 8 to 11):\n%s", n, worker.stderr)
	}
	merged := e.ok("selfplay", "merge", "--json", "--out", dir("merged"), out)
	if merged != whole {
		t.Errorf("merged summary:\n%s\nthe single run's:\n%s", merged, whole)
	}
	for i := range 12 {
		sameFile(t, filepath.Join(dir("whole"), fmt.Sprintf("game-%06d.gcg", i)), filepath.Join(dir("merged"), fmt.Sprintf("game-%06d.gcg", i)))
	}
	sameFile(t, filepath.Join(dir("whole"), "results.jsonl"), filepath.Join(dir("merged"), "results.jsonl"))
	for n := range js.StreamNames(context.Background()).Name() {
		t.Errorf("stream %s left on the server", n)
	}
}
