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
