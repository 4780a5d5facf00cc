package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// loadDurationEnv sets the load test's length (a Go duration, at most
// maxLoadDuration); default 30s.
const loadDurationEnv = "SCRABBLE_LOAD_DURATION"

const (
	loadClients     = 50
	maxLoadDuration = 30 * time.Second
)

// TestLoad starts a server on localhost and has 50 clients ask it for best
// moves for 30 s: every answer must be right (200, a best move), and once
// the server is shut down its goroutines and heap must be back near where
// they started. It reports the latency's p50 and p99 (docs/benchmarks.md).
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("the load test takes 30s; skipped with -short")
	}
	duration := maxLoadDuration
	if v := os.Getenv(loadDurationEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("%s=%q: not a positive duration", loadDurationEnv, v)
		}
		duration = min(d, maxLoadDuration)
	}
	lex := testLexicon(t)
	s, err := New(Config{Lexicon: func(string) (*Lexicon, error) { return lex, nil }})
	if err != nil {
		t.Fatal(err)
	}
	positions := testPositions(t)
	bodies := make([]string, len(positions))
	for i, p := range positions {
		bodies[i] = body(p.cgp, p.rack, `"top":5`)
	}
	// The baseline is taken with everything loaded that stays loaded: the
	// lexicon's tables and leaves, the JSON encoders' caches.
	for _, b := range bodies {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("POST", "/api/best", strings.NewReader(b)))
		if rec.Code != http.StatusOK {
			t.Fatalf("warming up: %d %s", rec.Code, rec.Body)
		}
	}
	startGoroutines, startHeap := settle()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := s.HTTPServer(ln.Addr().String())
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/api/best"
	transport := &http.Transport{MaxIdleConnsPerHost: loadClients}
	client := &http.Client{Transport: transport, Timeout: 20 * time.Second}

	var (
		mu        sync.Mutex
		latencies []time.Duration
		failures  []string
		wg        sync.WaitGroup
	)
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	start := time.Now()
	for c := range loadClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for i := c; ctx.Err() == nil; i++ {
				t0 := time.Now()
				err := askBest(client, url, bodies[i%len(bodies)])
				mine = append(mine, time.Since(t0))
				if err != nil {
					mu.Lock()
					failures = append(failures, err.Error())
					mu.Unlock()
				}
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(failures) > 0 {
		t.Errorf("%d of %d requests failed; the first: %s", len(failures), len(latencies), failures[0])
	}
	slices.Sort(latencies)
	q := func(p float64) time.Duration { return latencies[min(len(latencies)-1, int(p*float64(len(latencies))))] }
	t.Logf("%d clients for %v: %d requests (%.0f/s), latency p50 %v, p99 %v, max %v (GOMAXPROCS %d, %d analyses at once)",
		loadClients, elapsed.Round(time.Millisecond), len(latencies), float64(len(latencies))/elapsed.Seconds(),
		q(0.50).Round(10*time.Microsecond), q(0.99).Round(10*time.Microsecond), latencies[len(latencies)-1].Round(10*time.Microsecond),
		runtime.GOMAXPROCS(0), cap(s.sem))

	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	if err := hs.Shutdown(sctx); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("serve: %v", err)
	}
	transport.CloseIdleConnections()

	// Goroutines: back to the start, give or take a few of the runtime's,
	// once the connections' have ended.
	const slack = 3
	var endGoroutines int
	var endHeap uint64
	for deadline := time.Now().Add(10 * time.Second); ; {
		endGoroutines, endHeap = settle()
		if endGoroutines <= startGoroutines+slack || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("goroutines %d at the start, %d at the end; heap in use %.1f MB at the start, %.1f MB at the end",
		startGoroutines, endGoroutines, mb(startHeap), mb(endHeap))
	if endGoroutines > startGoroutines+slack {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines leaked: %d at the start, %d at the end\n%s", startGoroutines, endGoroutines, buf[:runtime.Stack(buf, true)])
	}
	// Memory: the heap back within 16 MB of the start (the answers of the
	// last requests, the runtime's own pools).
	if endHeap > startHeap+16<<20 {
		t.Errorf("heap in use grew from %.1f MB to %.1f MB", mb(startHeap), mb(endHeap))
	}
}

// askBest asks for a position's best move and checks the answer.
func askBest(client *http.Client, url, body string) error {
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %s", resp.StatusCode, data)
	}
	var out MovesResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return err
	}
	if out.Best == nil || len(out.Moves) == 0 {
		return fmt.Errorf("no best move: %s", data)
	}
	return nil
}

// settle collects garbage and returns the goroutines and the heap in use.
func settle() (int, uint64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return runtime.NumGoroutine(), ms.HeapInuse
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }
