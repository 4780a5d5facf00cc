package main

import (
	"testing"

	"github.com/spf13/pflag"

	"scrabble/selfplay"
	"scrabble/sim"
)

// TestSimPlayerIterations: the full player simulates up to
// selfplay.FullIterations a move unless --pN-iterations says otherwise;
// the sim player keeps the simulation's own default.
func TestSimPlayerIterations(t *testing.T) {
	for _, tc := range []struct {
		player string
		args   []string
		want   int
	}{
		{"full", nil, selfplay.FullIterations},
		{"sim", nil, sim.DefaultPlayer().Iterations},
		{"full", []string{"--p1-iterations", "8"}, 8},
		{"sim", []string{"--p1-iterations", "8"}, 8},
		{"full", []string{"--p1-iterations", "64"}, 64},
	} {
		f := pflag.NewFlagSet("selfplay", pflag.ContinueOnError)
		flags := addSimPlayerFlags(f, 1)
		if err := f.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		opts, err := flags.options(f, tc.player)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.player, tc.args, err)
		}
		if opts.Iterations != tc.want {
			t.Errorf("%s %v: %d iterations, want %d", tc.player, tc.args, opts.Iterations, tc.want)
		}
	}
	if selfplay.FullIterations == sim.DefaultPlayer().Iterations {
		t.Error("the full player's default is the sim player's: the cases above show nothing")
	}
}
