// Package crash turns a panic, which would otherwise kill the process with
// a goroutine dump, into an error that says what went wrong and where, so
// a worker goroutine's bug ends a command like any other failure: with a
// one-line message, a non-zero exit, and the results written so far kept.
package crash

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
)

// Error describes a value recovered from a panic as "internal error: VALUE
// (at FILE:LINE)", the site being where the panic was raised. Call it from
// the deferred function that recovered r, so the stack still holds the
// panicking frames.
//
// The error is a *Panic, so that a command can tell a bug from a failure
// (the command-line tool exits with its own status for one).
//
// A *Panic recovered again (a Group's error re-raised by its waiter) is
// returned as it is, naming the first site.
func Error(r any) error {
	if p, ok := r.(*Panic); ok {
		return p
	}
	if site := panicSite(debug.Stack()); site != "" {
		return &Panic{fmt.Sprintf("internal error: %v (at %s)", r, site)}
	}
	return &Panic{fmt.Sprintf("internal error: %v", r)}
}

// Panic is a recovered panic, as Error describes it.
type Panic struct{ msg string }

func (p *Panic) Error() string { return p.msg }

// panicSite finds, in a stack trace taken while panicking, the first frame
// below the panic outside the runtime: the code that raised it (an index
// out of range is raised by a runtime helper called from that code). It
// returns the file's last two path elements and the line, or "".
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "panic(") {
		i++
	}
	for i += 2; i+1 < len(lines); i += 2 { // function line, then its file line
		if strings.HasPrefix(lines[i], "runtime.") {
			continue
		}
		file := strings.TrimSpace(lines[i+1])
		if sp := strings.LastIndexByte(file, ' '); sp >= 0 {
			file = file[:sp] // the " +0x1f" offset
		}
		if parts := strings.Split(file, "/"); len(parts) > 2 {
			file = strings.Join(parts[len(parts)-2:], "/")
		}
		return file
	}
	return ""
}

// Group starts goroutines and waits for them, as a sync.WaitGroup does,
// but a panic in one of them does not kill the process: it is recovered,
// described by Error, and returned by Wait to the goroutine that waits,
// which fails as with any other error (the command-line tool exits 70 on
// a *Panic). Every goroutine of the module is started by a Group
// (internal/archtest checks that no other go statement exists), so that a
// bug in a worker never ends the process with Go's exit status 2, which
// the tool keeps for usage errors.
//
// The zero Group is ready to use; a Group must not be copied after use.
type Group struct {
	// OnPanic, when set, is called once, by the goroutine that panicked
	// first, right after the panic is recovered: it should make the
	// other goroutines stop (cancel their context, set their stop flag),
	// so that Wait returns soon.
	OnPanic func()

	wg    sync.WaitGroup
	mu    sync.Mutex
	first *Panic
}

// Go runs f in a new goroutine of the group.
func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				g.fail(Error(r).(*Panic))
			}
		}()
		f()
	}()
}

func (g *Group) fail(p *Panic) {
	g.mu.Lock()
	first := g.first == nil
	if first {
		g.first = p
	}
	g.mu.Unlock()
	if first && g.OnPanic != nil {
		g.OnPanic()
	}
}

// Wait waits until every goroutine started by Go has returned, and
// returns the first panic among them as a *Panic, or nil.
func (g *Group) Wait() error {
	g.wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.first == nil {
		return nil
	}
	return g.first
}

// Rethrow waits as Wait does, and re-raises a goroutine's panic on the
// calling goroutine, for a caller with no error to return: the *Panic
// goes on to the caller's own recover (Error returns it unchanged).
func (g *Group) Rethrow() {
	if err := g.Wait(); err != nil {
		panic(err)
	}
}
