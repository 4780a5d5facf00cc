package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"scrabble/internal/natstest"
)

// startServer starts a NATS server in the test's process (natstest.Start).
func startServer(t *testing.T) string { return natstest.Start(t) }

// fakeRun is a run of games games in m items whose game i's result is
// "result i": what a worker plays and the coordinator stores.
type fakeRun struct {
	mu     sync.Mutex
	stored map[int]string
	log    []string
}

func (f *fakeRun) coordinator(t *testing.T, url string, games, m int, stored []bool) *Coordinator {
	nc, err := Connect(context.Background(), url, "test coordinator", time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	items := make([]Item, m)
	for k := range items {
		items[k] = Item{Run: "0123456789abcdef", Build: "b", Games: games, Shard: k + 1, Shards: m}
	}
	if stored == nil {
		stored = make([]bool, games)
	}
	return &Coordinator{Conn: nc, Items: items, Stored: stored, AckWait: time.Second,
		Store: func(g *Game) error {
			if g.Result != fmt.Sprintf("result %d", g.Game) {
				return fmt.Errorf("bad result: %w", ErrBadGame)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if _, dup := f.stored[g.Game]; dup {
				t.Errorf("game %d stored twice", g.Game)
			}
			f.stored[g.Game] = g.Worker
			return nil
		},
		Flush: func() error { return nil },
		Logf: func(format string, args ...any) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.log = append(f.log, fmt.Sprintf(format, args...))
		},
	}
}

func worker(t *testing.T, url, id string, play func(ctx context.Context, it *Item, publish func(*Game) error) error) *Worker {
	nc, err := Connect(context.Background(), url, id, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return &Worker{Conn: nc, ID: id, Play: play, Idle: 1500 * time.Millisecond}
}

// playAll publishes every game of the item, with one bad result first.
func playAll(_ context.Context, it *Item, publish func(*Game) error) error {
	lo, hi := it.Range()
	if it.Shard == 1 {
		if err := publish(&Game{Game: lo, Result: "forged"}); err != nil {
			return err
		}
	}
	for i := lo; i < hi; i++ {
		if err := publish(&Game{Game: i, Result: fmt.Sprintf("result %d", i)}); err != nil {
			return err
		}
	}
	return nil
}

// TestCoordinatorWorkers: two workers, one of which refuses the run and one
// that dies (its context cancelled) in the middle of its first item after
// publishing part of it; every game is stored once, the refusal is logged
// by the coordinator, and a resumed coordinator publishes only what is
// missing.
func TestCoordinatorWorkers(t *testing.T) {
	url := startServer(t)
	for _, c := range []struct {
		name    string
		games   int
		m       int
		stored  []int // stored before the run
		publish int   // items the coordinator should publish
	}{
		{"fresh", 30, 7, nil, 7},
		{"resumed", 30, 6, []int{0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 29}, 4},
		{"one item", 5, 1, nil, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeRun{stored: map[int]string{}}
			stored := make([]bool, c.games)
			for _, i := range c.stored {
				stored[i] = true
			}
			co := f.coordinator(t, url, c.games, c.m, stored)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var (
				st   Stats
				err  error
				done = make(chan struct{})
			)
			go func() { st, err = co.Run(ctx); close(done) }()

			refuser := worker(t, url, "refuser", func(context.Context, *Item, func(*Game) error) error {
				return Refusef("no lexicon XYZ here")
			})
			refuser.Idle = time.Second
			if err := refuser.Run(ctx); err != nil {
				t.Fatal(err)
			}
			dying := worker(t, url, "dying", nil)
			dctx, die := context.WithCancel(ctx)
			dying.Play = func(ctx context.Context, it *Item, publish func(*Game) error) error {
				lo, _ := it.Range()
				publish(&Game{Game: lo, Result: fmt.Sprintf("result %d", lo)})
				die()
				<-ctx.Done()
				return ctx.Err()
			}
			if err := dying.Run(dctx); !errors.Is(err, context.Canceled) {
				t.Fatalf("the dying worker: %v", err)
			}
			if err := worker(t, url, "good", playAll).Run(ctx); err != nil {
				t.Fatal(err)
			}
			<-done
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.games {
				if _, ok := f.stored[i]; ok == contains(c.stored, i) {
					t.Errorf("game %d: stored by this run %v, before it %v", i, ok, !ok)
				}
			}
			if want := c.games - len(c.stored); st.Stored != want || len(f.stored) != want {
				t.Errorf("stored %d (%d), want %d", st.Stored, len(f.stored), want)
			}
			if st.Published != c.publish {
				t.Errorf("published %d items, want %d", st.Published, c.publish)
			}
			if !strings.Contains(strings.Join(f.log, "\n"), "worker refuser refuses item") {
				t.Errorf("the coordinator's log has no refusal:\n%s", strings.Join(f.log, "\n"))
			}
		})
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestConnectUnreachable: a server that is not there is an error naming it,
// after the wait.
func TestConnectUnreachable(t *testing.T) {
	start := time.Now()
	_, err := Connect(context.Background(), "nats://127.0.0.1:1", "test", 700*time.Millisecond, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot reach the NATS server at nats://127.0.0.1:1") {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("gave up after %s", d)
	}
}

// TestCoordinatorStoreFails: a game that cannot be stored (a full disk) ends
// the run with the error, the game unacknowledged; a coordinator started
// again on the run gets it.
func TestCoordinatorStoreFails(t *testing.T) {
	url := startServer(t)
	f := &fakeRun{stored: map[int]string{}}
	co := f.coordinator(t, url, 4, 1, nil)
	co.Store = func(*Game) error { return errors.New("no space left on device") }
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() { _, err := co.Run(ctx); errc <- err }()
	w := worker(t, url, "w", playAll)
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("Run: %v", err)
	}
	co = f.coordinator(t, url, 4, 1, nil)
	st, err := co.Run(ctx)
	if err != nil || st.Stored != 4 || len(f.stored) != 4 || st.Published != 0 {
		t.Errorf("the second coordinator: %+v, %v; stored %v", st, err, f.stored)
	}
}

// TestServerRestart: the server goes away in the middle of a run and comes
// back on the same port with its store; the coordinator and the worker
// reconnect and the run completes, every game stored once.
func TestServerRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: restarts a NATS server")
	}
	store := t.TempDir()
	start := func(port int) *server.Server { return natstest.Serve(t, port, store) }
	ns := start(-1)
	url := ns.ClientURL()
	port := ns.Addr().(*net.TCPAddr).Port
	f := &fakeRun{stored: map[int]string{}}
	co := f.coordinator(t, url, 40, 20, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() { _, err := co.Run(ctx); errc <- err }()
	w := worker(t, url, "w", func(ctx context.Context, it *Item, publish func(*Game) error) error {
		time.Sleep(100 * time.Millisecond)
		return playAll(ctx, it, publish)
	})
	w.Idle = 0
	wctx, stopWorker := context.WithCancel(ctx)
	werr := make(chan error, 1)
	go func() { werr <- w.Run(wctx) }()
	waitStored := func(n int) {
		for {
			f.mu.Lock()
			got := len(f.stored)
			f.mu.Unlock()
			if got >= n {
				return
			}
			if ctx.Err() != nil {
				t.Fatalf("%d games stored, waiting for %d", got, n)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitStored(6)
	ns.Shutdown()
	ns.WaitForShutdown()
	f.mu.Lock()
	before := len(f.stored)
	f.mu.Unlock()
	if before == 40 {
		t.Fatal("the server went away after the run, not during it")
	}
	time.Sleep(time.Second)
	ns = start(port)
	defer ns.Shutdown()
	if err := <-errc; err != nil {
		t.Fatalf("the coordinator: %v", err)
	}
	if len(f.stored) != 40 {
		t.Errorf("stored %d games, want 40", len(f.stored))
	}
	stopWorker()
	if err := <-werr; !errors.Is(err, context.Canceled) {
		t.Errorf("the worker: %v", err)
	}
}

// TestAdopt: the results an earlier run left in its results stream are
// stored as the new run's (a forged one, one beyond the new run's games
// and one already stored are not), and the earlier run's streams are
// deleted; a run with nothing left on the server adopts nothing.
func TestAdopt(t *testing.T) {
	url := startServer(t)
	ctx := context.Background()
	const old = "fedcba9876543210"
	nc, err := Connect(ctx, url, "earlier run", time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{WorkStream(old), ResultsStream(old)} {
		subj := resultsSubject(old)
		if name == WorkStream(old) {
			subj = "scrabble." + old + ".work.*"
		}
		if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{subj}, Retention: jetstream.WorkQueuePolicy}); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range []Game{{Game: 0, Result: "result 0"}, {Game: 1, Result: "forged"}, {Game: 2, Result: "result 2"},
		{Game: 3, Result: "result 3"}, {Game: 9, Result: "result 9"}} {
		data, _ := json.Marshal(g)
		if _, err := js.Publish(ctx, resultsSubject(old), data); err != nil {
			t.Fatal(err)
		}
	}
	f := &fakeRun{stored: map[int]string{}}
	stored := make([]bool, 6)
	stored[3] = true // stored before
	c := f.coordinator(t, url, 6, 2, stored)
	taken, err := c.Adopt(ctx, old)
	if err != nil || taken != 2 {
		t.Fatalf("Adopt: %d games, %v; want 2 (games 0 and 2)", taken, err)
	}
	if _, ok := f.stored[0]; !ok || len(f.stored) != 2 || !stored[0] || !stored[2] || stored[1] {
		t.Errorf("stored %v, %v", f.stored, stored)
	}
	for _, name := range []string{WorkStream(old), ResultsStream(old)} {
		if _, err := js.Stream(ctx, name); !errors.Is(err, jetstream.ErrStreamNotFound) {
			t.Errorf("stream %s: %v; want it deleted", name, err)
		}
	}
	if taken, err := c.Adopt(ctx, old); err != nil || taken != 0 {
		t.Errorf("Adopt again: %d games, %v", taken, err)
	}
}
