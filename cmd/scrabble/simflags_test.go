package main

import (
	"testing"

	"github.com/spf13/pflag"

	"scrabble/selfplay"
	"scrabble/sim"
)

// TestSimPlayerIterations: the full player simulates up to
// selfplay.FullIterations a move unless --pN-iterations says otherwise;
// the sim player keeps the simulation's own default. Both play their
// rollouts out as --pN-play-out says.
func TestSimPlayerIterations(t *testing.T) {
	d := sim.DefaultPlayer()
	for _, tc := range []struct {
		player            string
		args              []string
		want, wantPlayOut int
	}{
		{"full", nil, selfplay.FullIterations, d.PlayOut},
		{"sim", nil, d.Iterations, d.PlayOut},
		{"full", []string{"--p1-iterations", "8", "--p1-play-out", "14"}, 8, 14},
		{"sim", []string{"--p1-iterations", "8", "--p1-play-out", "10"}, 8, 10},
		{"full", []string{"--p1-iterations", "64"}, 64, d.PlayOut},
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
		if opts.Iterations != tc.want || opts.PlayOut != tc.wantPlayOut {
			t.Errorf("%s %v: %d iterations, play out from %d; want %d and %d", tc.player, tc.args, opts.Iterations, opts.PlayOut, tc.want, tc.wantPlayOut)
		}
	}
	if selfplay.FullIterations == d.Iterations {
		t.Error("the full player's default is the sim player's: the cases above show nothing")
	}
}
