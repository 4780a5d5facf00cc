package sim

import (
	"context"
	"regexp"
	"sync/atomic"
	"testing"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/rules"
)

// panickyLeaves values every leave 0 until its budget of look-ups runs out,
// then panics, as a bug deep in a rollout would.
type panickyLeaves struct{ left atomic.Int64 }

func (p *panickyLeaves) LeaveValue(*rules.Rack) rules.Equity {
	if p.left.Add(-1) < 0 {
		panic("leave table corrupted")
	}
	return 0
}

// A panic inside the rollouts, on one thread or on workers, is an error
// from Simulate, not a crash.
func TestSimulatePanicIsAnError(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	pos := midgame(t)
	for _, threads := range []int{1, 2} {
		leaves := &panickyLeaves{}
		leaves.left.Store(5000) // enough to pick the candidates, not to simulate them
		_, err := NewSimulator(testgen.Tables(lex)).Simulate(context.Background(), pos,
			Options{Leaves: leaves, Candidates: 5, Iterations: 200, Seed: 1, Threads: threads})
		want := regexp.MustCompile(`^.*internal error: leave table corrupted \(at sim/crash_test.go:\d+\)$`)
		if err == nil || !want.MatchString(err.Error()) {
			t.Errorf("%d threads: error %v, want one matching %s", threads, err, want)
		}
	}
}
