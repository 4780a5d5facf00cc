package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"scrabble/gaddag"
	"scrabble/movegen"
)

// syncBuffer is a bytes.Buffer for a writer and a reader on two goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServe runs scrabble serve on a free port of localhost: it answers
// with the installed lexicon, refuses a lexicon named like a file, and
// stops when its context ends (as on Ctrl-C).
func TestServe(t *testing.T) {
	e := newTestEnv(t)
	e.ok("lexicon", "add", "TINY", e.file("tiny.txt", "AA\nAB\nBA\nQI\nLICENSE\n"), "--default")
	e.file("LICENSE", "not a word list\n")
	var stderr syncBuffer
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, tables: &tablesCache{of: map[*gaddag.GADDAG]*movegen.Tables{}}}
	root := newRootCmd(a)
	root.SetArgs([]string{"--data-dir", e.dataDir, "serve", "--addr", "127.0.0.1:0", "--max-analyses", "1"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	urlRE := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	var url string
	for deadline := time.Now().Add(20 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		url = urlRE.FindString(stderr.String())
	}
	if url == "" {
		cancel()
		t.Fatalf("no address said: %s (%v)", stderr.String(), <-done)
	}
	for _, tc := range []struct {
		body   string
		status int
		want   string
	}{
		{`{"cgp": "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB/ 0/0 0"}`, 200, `"lexicon":"TINY"`},
		{`{"cgp": "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB/ 0/0 0", "lexicon": "LICENSE"}`, 400, "not installed"},
		{`{"cgp": "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB/ 0/0 0", "lexicon": "tiny.txt"}`, 400, "not a lexicon name"},
	} {
		resp, err := http.Post(url+"api/best", "application/json", strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(data), tc.want) || !json.Valid(data) {
			t.Errorf("%s: %d %s; want %d and %q", tc.body, resp.StatusCode, data, tc.status, tc.want)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestServeUsageErrors(t *testing.T) {
	e := newTestEnv(t)
	for _, args := range [][]string{
		{"serve", "--time-limit", "0"},
		{"serve", "--max-analyses", "-1"},
		{"serve", "--threads", "0"},
		{"serve", "extra"},
	} {
		if r := e.run(args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, r.code, r.stderr)
		}
	}
}
