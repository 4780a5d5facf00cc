package protocol

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeEngine answers go with "8D.<CGP's first word>" at once, except in
// sim mode, where it thinks until stopped (sending an info line first), and
// endgame mode, where it fails.
type fakeEngine struct {
	mu       sync.Mutex
	pos      string
	options  map[string]string
	newGames int
	started  chan struct{} // a sim go has begun
}

func newFake() *fakeEngine {
	return &fakeEngine{options: map[string]string{}, started: make(chan struct{}, 16)}
}

func (e *fakeEngine) ID() (string, string) { return "fake 1", "tests" }
func (e *fakeEngine) Options() []string {
	return []string{"name Threads type spin default 1 min 1 max 4"}
}

func (e *fakeEngine) SetOption(name, value string) error {
	if name != "Threads" {
		return errors.New("no such option")
	}
	e.options[name] = value
	return nil
}

func (e *fakeEngine) NewGame() { e.newGames++ }

func (e *fakeEngine) SetPosition(p *Position) error {
	if p.CGP == "bad" {
		e.pos = ""
		return errors.New("bad position")
	}
	e.mu.Lock()
	e.pos = p.CGP
	e.mu.Unlock()
	return nil
}

func (e *fakeEngine) Go(ctx context.Context, g *Go, info func(string)) (string, error) {
	e.mu.Lock()
	pos := e.pos
	e.mu.Unlock()
	if pos == "" {
		return "", errors.New("no position")
	}
	switch g.Mode {
	case ModeSim:
		info("iterations 1 currmove 8D." + pos)
		e.started <- struct{}{}
		<-ctx.Done()
		return "8D.STOPPED" + pos, nil
	case ModeEndgame:
		return "", errors.New("cannot\nsolve")
	}
	return "8D." + pos, nil
}

// session runs Serve over pipes: send writes a line, expect reads lines up
// to one starting with prefix and returns them.
type session struct {
	t    *testing.T
	in   *io.PipeWriter
	out  chan string // the engine's lines, read as they come (a pipe has no buffer)
	done chan error
}

func startSession(t *testing.T, e Engine) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, out: make(chan string, 1000), done: make(chan error, 1)}
	go func() {
		defer close(s.out)
		r := bufio.NewReader(outR)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				return
			}
			s.out <- strings.TrimSuffix(l, "\n")
		}
	}()
	go func() {
		err := Serve(context.Background(), inR, outW, e)
		outW.Close()
		s.done <- err
	}()
	t.Cleanup(func() { inW.Close() })
	return s
}

func (s *session) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatalf("sending %q: %v", l, err)
		}
	}
}

func (s *session) expect(prefix string) []string {
	s.t.Helper()
	var got []string
	for {
		select {
		case l, ok := <-s.out:
			if !ok {
				s.t.Fatalf("waiting for %q: the output ended after %q", prefix, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-time.After(20 * time.Second):
			s.t.Fatalf("waiting for %q: nothing after %q", prefix, got)
		}
	}
}

// rest reads every line left once Serve has returned.
func (s *session) rest() []string {
	s.t.Helper()
	var got []string
	for l := range s.out {
		got = append(got, l)
	}
	return got
}

func TestServeHandshakeAndOptions(t *testing.T) {
	e := newFake()
	s := startSession(t, e)
	s.send("ucgi")
	want := []string{"id name fake 1", "id author tests", "option name Threads type spin default 1 min 1 max 4", "ucgiok"}
	if got := s.expect("ucgiok"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after ucgi: %q, want %q", got, want)
	}
	s.send("setoption name Threads value 3", "setoption name Colour value red", "ucginewgame", "isready")
	got := s.expect("readyok")
	if len(got) != 2 || !strings.HasPrefix(got[0], "info string error: line 3: setoption Colour: no such option") {
		t.Fatalf("after setoption: %q", got)
	}
	if e.options["Threads"] != "3" || e.newGames != 1 {
		t.Fatalf("options %v, new games %d", e.options, e.newGames)
	}
	s.send("quit")
	if err := <-s.done; err != nil {
		t.Fatal(err)
	}
}

// Every go gets exactly one bestmove, whatever happens to it.
func TestServeGo(t *testing.T) {
	e := newFake()
	s := startSession(t, e)
	s.send("go")
	got := s.expect("bestmove")
	if want := []string{"info string error: go: no position", "bestmove (none)"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("go without a position: %q, want %q", got, want)
	}
	s.send("position cgp A", "go static")
	if got := s.expect("bestmove"); fmt.Sprint(got) != "[bestmove 8D.A]" {
		t.Fatalf("go static: %q", got)
	}
	s.send("go endgame")
	got = s.expect("bestmove")
	if want := []string{"info string error: go: cannot solve", "bestmove (none)"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("a failing go: %q, want %q (the error on one line)", got, want)
	}
	s.send("position cgp bad", "go")
	got = s.expect("bestmove")
	if len(got) != 3 || got[0] != "info string error: line 5: position: bad position" || got[2] != "bestmove (none)" {
		t.Fatalf("go after a bad position: %q", got)
	}
	s.send("bogus words", "go frobnicate 3")
	got = s.expect("info string error: line 8")
	if len(got) != 2 || !strings.Contains(got[0], `line 7: unknown command "bogus"`) || !strings.Contains(got[1], `unknown word "frobnicate"`) {
		t.Fatalf("bad lines: %q", got)
	}
	s.in.Close()
	if err := <-s.done; err != nil {
		t.Fatal(err)
	}
}

// While thinking: isready is answered at once, other commands wait, stop
// ends the search with its answer, and the queue then runs in order.
func TestServeWhileThinking(t *testing.T) {
	e := newFake()
	s := startSession(t, e)
	s.send("position cgp A", "go sim")
	<-e.started
	s.send("position cgp B", "go static", "isready")
	got := s.expect("readyok")
	if want := []string{"info iterations 1 currmove 8D.A", "readyok"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("isready while thinking: %q, want %q", got, want)
	}
	s.send("stop")
	got = s.expect("bestmove 8D.B")
	if want := []string{"bestmove 8D.STOPPEDA", "bestmove 8D.B"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("stop, then the queued position and go: %q, want %q", got, want)
	}
	s.send("stop", "isready") // stop while idle is ignored
	if got := s.expect("readyok"); len(got) != 1 {
		t.Fatalf("stop while idle: %q", got)
	}
	// quit while thinking ends the search, answers it and returns.
	s.send("go sim")
	<-e.started
	s.send("quit")
	if err := <-s.done; err != nil {
		t.Fatal(err)
	}
	if got := s.rest(); fmt.Sprint(got) != "[info iterations 1 currmove 8D.B bestmove 8D.STOPPEDB]" {
		t.Fatalf("quit while thinking: %q", got)
	}
}

// The end of input lets the search under way and the queued commands
// finish: "echo 'position ...\ngo' | scrabble engine" answers.
func TestServeEndOfInput(t *testing.T) {
	var out strings.Builder
	e := newFake()
	in := "position cgp A\ngo\nposition cgp B\r\ngo static\n"
	if err := Serve(context.Background(), strings.NewReader(in), &out, e); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "bestmove 8D.A\nbestmove 8D.B\n"; got != want {
		t.Fatalf("output %q, want %q", got, want)
	}
}

func TestServeLongLine(t *testing.T) {
	var out strings.Builder
	in := "position cgp " + strings.Repeat("x", 2*MaxLine) + "\nposition cgp A\ngo\n"
	if err := Serve(context.Background(), strings.NewReader(in), &out, newFake()); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("info string error: line 1: line longer than %d bytes, skipped\nbestmove 8D.A\n", MaxLine)
	if out.String() != want {
		t.Fatalf("output %q, want %q", out.String(), want)
	}
}

func TestServeContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	defer inW.Close()
	e := newFake()
	done := make(chan error, 1)
	var out syncBuffer
	go func() { done <- Serve(ctx, inR, &out, e) }()
	io.WriteString(inW, "position cgp A\ngo sim\n")
	<-e.started
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Serve: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context was cancelled")
	}
	if !strings.HasSuffix(out.String(), "bestmove 8D.STOPPEDA\n") {
		t.Fatalf("output %q: the search was not answered", out.String())
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// FuzzServe: any input gets a bestmove for each go started, and never a
// panic or a hang.
func FuzzServe(f *testing.F) {
	for _, s := range []string{"position cgp A\ngo\n", "go\ngo\nstop\n", "ucgi\nisready\nquit\ngo\n",
		"position cgp A\ngo sim\nposition cgp B\ngo\nstop\n", "setoption name Threads value 2\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		e := newFake()
		var out syncBuffer
		// A sim go thinks until stopped: count on stop, quit or the
		// end of input to end it. Serve must return either way.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		gos := 0
		quit := false
		for _, l := range strings.Split(in, "\n") {
			c, err := ParseCommand(strings.TrimRight(l, "\r"))
			if err != nil || len(l) >= MaxLine {
				continue
			}
			if c.Name == "quit" {
				quit = true
				break
			}
			if c.Name == "go" {
				gos++
			}
		}
		in = strings.ReplaceAll(in, "go sim", "go static") // nothing waits for a stop that never comes
		if err := Serve(ctx, strings.NewReader(in), &out, e); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		n := strings.Count("\n"+out.String(), "\nbestmove ")
		if n > gos || (!quit && n != gos) {
			t.Fatalf("%d go commands (quit %v), %d bestmove lines:\n%s", gos, quit, n, out.String())
		}
	})
}

// A panic in the engine's search is that go's error: the go is answered,
// and the engine goes on.
func TestServeSearchPanics(t *testing.T) {
	var out strings.Builder
	e := &panicky{fakeEngine: newFake()}
	if err := Serve(context.Background(), strings.NewReader("position cgp A\ngo\ngo static\n"), &out, e); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "info string error: go: internal error: the search broke") ||
		lines[1] != "bestmove (none)" || lines[2] != "bestmove 8D.A" {
		t.Fatalf("output %q", lines)
	}
}

// panicky panics in a go of no mode.
type panicky struct{ *fakeEngine }

func (p *panicky) Go(ctx context.Context, g *Go, info func(string)) (string, error) {
	if g.Mode == ModeAuto {
		panic("the search broke")
	}
	return p.fakeEngine.Go(ctx, g, info)
}
