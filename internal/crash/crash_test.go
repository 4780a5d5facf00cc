package crash

import (
	"errors"
	"regexp"
	"testing"
)

func recovered(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = Error(r)
		}
	}()
	f()
	return nil
}

var sink []int

func TestErrorNamesTheSite(t *testing.T) {
	tests := []struct {
		name string
		f    func()
		want string // regexp
	}{
		{"index out of range", func() { sink = make([]int, 3); _ = sink[len(sink)+2] },
			`^internal error: runtime error: index out of range \[5\] with length 3 \(at crash/crash_test.go:\d+\)$`},
		//lint:ignore SA5000 the write to a nil map is the panic under test
		{"nil map write", func() { var m map[string]int; m["x"] = 1 },
			`^internal error: assignment to entry in nil map \(at crash/crash_test.go:\d+\)$`},
		{"explicit panic", func() { panic("bad state") },
			`^internal error: bad state \(at crash/crash_test.go:\d+\)$`},
		{"panic with an error", func() { panic(errors.New("wrapped")) },
			`^internal error: wrapped \(at crash/crash_test.go:\d+\)$`},
	}
	for _, tt := range tests {
		err := recovered(tt.f)
		if err == nil {
			t.Fatalf("%s: no error", tt.name)
		}
		if !regexp.MustCompile(tt.want).MatchString(err.Error()) {
			t.Errorf("%s: %q, want %s", tt.name, err, tt.want)
		}
	}
}

func TestErrorFromAnotherGoroutine(t *testing.T) {
	done := make(chan error)
	go func() { done <- recovered(func() { var p *struct{ x int }; sink = []int{p.x} }) }()
	err := <-done
	if err == nil || !regexp.MustCompile(`nil pointer dereference \(at crash/crash_test.go:\d+\)$`).MatchString(err.Error()) {
		t.Errorf("got %v", err)
	}
}

func TestPanicSiteWithoutPanicFrame(t *testing.T) {
	if s := panicSite([]byte("goroutine 1 [running]:\nmain.main()\n\t/x/y/main.go:3 +0x1\n")); s != "" {
		t.Errorf("site %q from a stack that is not panicking", s)
	}
}

// TestGroupReturnsAWorkersPanic: a panic in a goroutine of a Group reaches
// the waiter as a *Panic naming the site, OnPanic runs once, and the other
// goroutines are waited for.
func TestGroupReturnsAWorkersPanic(t *testing.T) {
	stop := make(chan struct{})
	calls := 0
	g := Group{OnPanic: func() { calls++; close(stop) }}
	finished := false
	g.Go(func() { <-stop; finished = true }) // returns only once told to stop
	g.Go(func() { panic("worker bug") })
	err := g.Wait()
	var p *Panic
	if !errors.As(err, &p) || !regexp.MustCompile(`^internal error: worker bug \(at crash/crash_test.go:\d+\)$`).MatchString(err.Error()) {
		t.Fatalf("Wait: %v, want the worker's panic", err)
	}
	if calls != 1 || !finished {
		t.Errorf("OnPanic called %d times, other worker finished %v; want 1, true", calls, finished)
	}
}

func TestGroupWithoutPanic(t *testing.T) {
	var g Group
	n := make([]int, 4)
	for i := range n {
		g.Go(func() { n[i] = i + 1 })
	}
	if err := g.Wait(); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if n[0]+n[1]+n[2]+n[3] != 10 {
		t.Errorf("goroutines not all run: %v", n)
	}
	g.Rethrow() // nothing to re-raise
}

// TestGroupRethrow: Rethrow re-raises the worker's panic on the waiter,
// where Error describes it with the worker's site, not the waiter's.
func TestGroupRethrow(t *testing.T) {
	var g Group
	g.Go(func() {
		var m map[int]int
		//lint:ignore SA5000 the write to a nil map is the panic under test
		m[1] = 2
	})
	err := recovered(g.Rethrow)
	if err == nil || !regexp.MustCompile(`^internal error: assignment to entry in nil map \(at crash/crash_test.go:\d+\)$`).MatchString(err.Error()) {
		t.Errorf("Rethrow: %v", err)
	}
}
