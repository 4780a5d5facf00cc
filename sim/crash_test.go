package sim

import (
	"context"
	"regexp"
	"sync/atomic"
	"testing"

	"scrabble/internal/testlex"
	"scrabble/movegen"
	"scrabble/rules"
)

// panicky is a player with a bug: it panics once the game reaches its
// fifth turn.
type panicky struct{ staticPlayer }

func (p *panicky) Choose(ctx context.Context, v *View) (movegen.Move, error) {
	if v.Turn >= 4 {
		var moves []movegen.Move
		return moves[v.Turn], nil // index out of range
	}
	return p.staticPlayer.Choose(ctx, v)
}

// A player's panic, in any worker, ends the tournament with an error naming
// the game and where the panic was raised; the games finished before it are
// kept.
func TestSelfPlayPanicIsAnError(t *testing.T) {
	lex := testlex.GADDAG(t, testlex.Name())
	saved := registry
	t.Cleanup(func() { registry = saved })
	registry = append(registry[:len(registry):len(registry)], playerEntry{PlayerInfo{"panicky", "a bug"},
		func(PlayerOptions) (Player, error) { return &panicky{staticPlayer{name: "panicky"}}, nil }})
	for _, workers := range []int{1, 2} {
		dir := t.TempDir()
		cfg := Config{Lexicon: lex, Players: [2]string{"equity", "panicky"}, Games: 6, Seed: 5, Workers: workers, Dir: dir}
		s, err := RunSelfPlay(context.Background(), cfg)
		want := regexp.MustCompile(`^game \d+: internal error: runtime error: index out of range \[\d+\] with length 0 \(at sim/crash_test.go:\d+\)$`)
		if err == nil || !want.MatchString(err.Error()) {
			t.Fatalf("%d workers: error %v, want one matching %s", workers, err, want)
		}
		if s == nil || s.Played != 0 || len(readResults(t, dir)) != 0 {
			t.Errorf("%d workers: summary %+v after a panic in every game's fourth turn", workers, s)
		}
	}
}

// panickyLeaves values every leave 0 until its budget of look-ups runs out,
// then panics, as a bug deep in a rollout would.
type panickyLeaves struct{ left atomic.Int64 }

func (p *panickyLeaves) LeaveValue(*rules.Rack) int32 {
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
		_, err := NewSimulator(lex).Simulate(context.Background(), pos,
			SimOptions{Leaves: leaves, Candidates: 5, Iterations: 200, Seed: 1, Threads: threads})
		want := regexp.MustCompile(`^.*internal error: leave table corrupted \(at sim/crash_test.go:\d+\)$`)
		if err == nil || !want.MatchString(err.Error()) {
			t.Errorf("%d threads: error %v, want one matching %s", threads, err, want)
		}
	}
}
