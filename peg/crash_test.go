package peg

import (
	"context"
	"errors"
	"strings"
	"testing"

	"scrabble/internal/crash"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
)

// TestWorkerPanicIsAnError: a panic in one of the solve's worker
// goroutines (here in the Progress callback, which the exact stage's
// workers call with the lock held) is the solve's error, a *crash.Panic,
// not the end of the process, and the other workers do not hang on the
// lock the panicking one held.
func TestWorkerPanicIsAnError(t *testing.T) {
	tables := testgen.Tables(testlex.GADDAG(t, testlex.Name()))
	c := smallPEGs(tables, 1, 26)[0]
	opts, err := Options{Top: 1, Threads: 2, TTMB: 8, Progress: func(p Progress) {
		if p.Stage == "exact" {
			panic("progress bug")
		}
	}}.normalize()
	if err != nil {
		t.Fatal(err)
	}
	_, err = solveBag(context.Background(), tables, c.pos, c.unseen, 1, opts)
	var p *crash.Panic
	if !errors.As(err, &p) || !strings.Contains(err.Error(), "internal error: progress bug (at peg/crash_test.go:") {
		t.Fatalf("solve: %v, want the worker's panic as a *crash.Panic", err)
	}
}
