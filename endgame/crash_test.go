package endgame

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"scrabble/internal/crash"
	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
)

// TestHelperPanicIsAnError: a panic in a helper thread is the solve's
// error, a *crash.Panic, not the end of the process, and the first thread
// stops soon after it rather than finishing the search alone.
func TestHelperPanicIsAnError(t *testing.T) {
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	_, pos := sharedByID(t, "e045")
	testHelperStart = func() { time.Sleep(50 * time.Millisecond); panic("helper bug") }
	defer func() { testHelperStart = nil }()
	start := time.Now()
	_, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: 2, TTMB: 16, Threads: 2})
	var p *crash.Panic
	if !errors.As(err, &p) || !strings.Contains(err.Error(), "internal error: helper bug (at endgame/crash_test.go:") {
		t.Fatalf("solve: %v, want the helper's panic as a *crash.Panic", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("took %v: the first thread did not stop", el)
	}
}
