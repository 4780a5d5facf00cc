package protocol

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"scrabble/internal/crash"
)

// Engine is what Serve drives. Its methods are called from one goroutine,
// never two at once, except that Go runs on a goroutine of its own while
// Serve keeps reading (stop cancels its context).
type Engine interface {
	// ID is the engine's name and author, sent after ucgi.
	ID() (name, author string)
	// Options are the option lines sent after ucgi, without the leading
	// "option " ("name Threads type spin default 1 min 1 max 64").
	Options() []string
	// SetOption sets an option by name (case does not matter).
	SetOption(name, value string) error
	// NewGame forgets what belongs to the last game.
	NewGame()
	// SetPosition sets the position the next go searches.
	SetPosition(p *Position) error
	// Go searches the position and returns the best move as FormatMove
	// writes it. info sends an info line ("depth 3 score eq 12.5 pv ...")
	// while it thinks; it may be called from any goroutine until Go
	// returns. A cancelled context asks for the best move found so far.
	Go(ctx context.Context, g *Go, info func(string)) (string, error)
}

// NoMove is what bestmove says when a go failed (after an info string
// error line saying why), so a program waiting for bestmove never hangs.
const NoMove = "(none)"

// Serve reads commands from in and answers on out until quit, the end of
// in (after the search under way, if any, finishes) or ctx's end. Every go is answered by one bestmove line. A bad line
// is answered by "info string error: line N: ..." and the engine goes on.
// While a go runs, isready is answered at once, stop ends the search (its
// best move so far is sent) and quit ends it and returns; other commands
// wait for the search's end and are then carried out in order.
func Serve(ctx context.Context, in io.Reader, out io.Writer, e Engine) error {
	w := &lineWriter{w: bufio.NewWriter(out)}
	lines := make(chan lineOrErr)
	readCtx, stopReading := context.WithCancel(ctx)
	defer stopReading()
	// The reader is not waited for: it may sit in a Read of a terminal.
	var reader crash.Group
	reader.Go(func() { readLines(readCtx, in, lines) })

	var search *running // the go being searched, nil when idle
	// wait ends the running search, if any, and sends its bestmove.
	wait := func(cancel bool) {
		if search == nil {
			return
		}
		if cancel {
			search.cancel()
		}
		<-search.done
		// A panic in the search (a bug) is its error: its go is
		// answered, and the engine goes on.
		if err := search.group.Wait(); err != nil {
			search.err = err
		}
		w.bestmove(search)
		search = nil
	}
	defer wait(true)
	// handle carries out one command; it reports false for quit.
	handle := func(n int, c Command) bool {
		switch c.Name {
		case "ucgi":
			name, author := e.ID()
			w.line("id name %s", name)
			w.line("id author %s", author)
			for _, o := range e.Options() {
				w.line("option %s", o)
			}
			w.line("ucgiok")
		case "isready":
			w.line("readyok")
		case "setoption":
			if err := e.SetOption(c.Option.Name, c.Option.Value); err != nil {
				w.line("info string error: line %d: setoption %s: %v", n, c.Option.Name, err)
			}
		case "ucginewgame":
			e.NewGame()
		case "position":
			if err := e.SetPosition(c.Position); err != nil {
				w.line("info string error: line %d: position: %v", n, err)
			}
		case "go":
			sctx, cancel := context.WithCancel(ctx)
			search = &running{cancel: cancel, done: make(chan struct{})}
			r, g := search, c.Go
			r.group.Go(func() {
				defer close(r.done)
				defer cancel()
				r.best, r.err = e.Go(sctx, g, func(s string) { w.line("info %s", oneLine(s)) })
			})
		case "stop":
			wait(true)
		case "quit":
			return false
		}
		return true
	}
	// Commands that come while a search runs wait for its end, in order
	// (a script may send "position, go, position, go" at once), except
	// those that act at once: isready, stop, quit, debug.
	type queued struct {
		n int
		c Command
	}
	var pending []queued
	drain := func() bool {
		for search == nil && len(pending) > 0 {
			q := pending[0]
			pending = pending[1:]
			if !handle(q.n, q.c) {
				return false
			}
		}
		return true
	}
	n := 0
	for {
		var l lineOrErr
		var ok bool
		var finished <-chan struct{} // nil (never ready) when idle
		if search != nil {
			finished = search.done
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-finished:
			wait(false)
			if !drain() {
				return nil
			}
			continue
		case l, ok = <-lines:
		}
		if !ok {
			// The end of input: the search under way and the commands
			// waiting for it are carried out first, so that
			// "echo 'position ...\ngo' | scrabble engine" answers.
			for {
				wait(false)
				if !drain() || search == nil {
					return nil
				}
			}
		}
		n++
		if l.err != nil {
			if errors.Is(l.err, errLineTooLong) {
				w.line("info string error: line %d: %v", n, l.err)
				continue
			}
			return fmt.Errorf("reading commands: %w", l.err)
		}
		c, err := ParseCommand(l.text)
		if err != nil {
			w.line("info string error: line %d: %v", n, err)
			continue
		}
		switch {
		case c.Name == "" || c.Name == "debug":
		case search != nil && c.Name != "isready" && c.Name != "stop" && c.Name != "quit":
			pending = append(pending, queued{n, c})
		default:
			if !handle(n, c) {
				return nil
			}
			if !drain() {
				return nil
			}
		}
	}
}

// running is a go being searched.
type running struct {
	group  crash.Group
	cancel context.CancelFunc
	done   chan struct{}
	best   string
	err    error
}

// lineWriter writes whole lines from any goroutine.
type lineWriter struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (w *lineWriter) line(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fmt.Fprintf(w.w, format, args...)
	w.w.WriteByte('\n')
	w.w.Flush()
}

// bestmove sends a finished search's answer.
func (w *lineWriter) bestmove(r *running) {
	best := r.best
	if r.err != nil || best == "" {
		if r.err == nil {
			r.err = errors.New("no move was found")
		}
		w.line("info string error: go: %s", oneLine(r.err.Error()))
		best = NoMove
	}
	w.line("bestmove %s", best)
}

// oneLine keeps a message on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var errLineTooLong = fmt.Errorf("line longer than %d bytes, skipped", MaxLine)

type lineOrErr struct {
	text string
	err  error
}

// readLines sends in's lines (without their line ends, CR LF or LF) until
// its end, then closes lines. A line too long is skipped with an error.
func readLines(ctx context.Context, in io.Reader, lines chan<- lineOrErr) {
	defer close(lines)
	r := bufio.NewReaderSize(in, MaxLine)
	send := func(l lineOrErr) bool {
		select {
		case lines <- l:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for {
		b, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if !send(lineOrErr{err: errLineTooLong}) {
				return
			}
			if err != nil {
				return
			}
			continue
		}
		if len(b) > 0 {
			if !send(lineOrErr{text: strings.TrimRight(string(b), "\r\n")}) {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				send(lineOrErr{err: err})
			}
			return
		}
	}
}
