#!/usr/bin/env bash
# In-process A/B timing of self-play (the equity player with the built-in
# NWL23 leaves against itself, one worker): an older commit's code (every
# package, copied for the run under scrabble/zzold/ by abcopy.sh) against
# the working tree's, in one process, alternating batches of the same games. See
# abtest.sh for why: timings minutes apart drift too much to tell a few
# percent.
#
# usage: benchmarks/tools/abselfplay.sh [REF] [ROUNDS] [GAMES] [MODE]
#   REF: default HEAD; ROUNDS: default 40; GAMES a batch: default 200;
#   MODE: games (default) or rollouts (a batch is GAMES/100 simulations of
#   sim/testdata/midgame.cgp as BenchmarkSimRollouts runs them: 15
#   candidates, 2 plies, 64 iterations, one thread)
# Needs SCRABBLE_LEXICA_DIR. Checks first that both play the same games.
# The old half of the test below is written against REF's API: that of
# 3e4de0f (before the redesign of issue 24) or today's, picked by what REF
# holds; the new half against the working tree's: a rename in the tree is
# made here too.
set -euo pipefail
ref=${1:-HEAD} rounds=${2:-40} games=${3:-200} mode=${4:-games}
: "${SCRABBLE_LEXICA_DIR:?set SCRABBLE_LEXICA_DIR (the shared word lists)}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
old=$root/zzold test=$root/benchmarks/zz_abselfplay_test.go
trap 'rm -rf "$old" "$test"' EXIT
. "$root/benchmarks/tools/abcopy.sh"
abcopy "$ref" "$old"
# REF's API: since the redesign (movegen.NewTables), self-play is package
# selfplay on Tables and positions package position; before it, both were
# in sim and rules.
if git cat-file -e "$ref:movegen/tables.go" 2>/dev/null; then
	oimports='	oldmovegen "scrabble/zzold/movegen"
	oldposition "scrabble/zzold/position"
	oldselfplay "scrabble/zzold/selfplay"'
	ocfg=oldselfplay.Config olexfield='Tables: oldmovegen.NewTables(olex)' orun=oldselfplay.Run
	oparse=oldposition.Parse opos=oldsim.Position osimlex='oldmovegen.NewTables(olex)' oopts=oldsim.Options
else
	oimports='	oldrules "scrabble/zzold/rules"'
	ocfg=oldsim.Config olexfield='Lexicon: olex' orun=oldsim.RunSelfPlay
	oparse=oldrules.ParsePosition opos=oldsim.SimPosition osimlex=olex oopts=oldsim.SimOptions
fi
# The players: a list since issue 28 (2 to 4), two before.
oplayers='[2]string'
if git show "$ref:selfplay/selfplay.go" 2>/dev/null | grep -q 'Players \[\]string'; then
	oplayers='[]string'
fi
cat >"$test" <<EOT
package benchmarks_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"scrabble/eval"
	"scrabble/internal/testlex"
	"scrabble/movegen"
	"scrabble/position"
	"scrabble/selfplay"
	"scrabble/sim"
	oldeval "scrabble/zzold/eval"
	oldgaddag "scrabble/zzold/gaddag"
	oldlexica "scrabble/zzold/lexica"
	oldsim "scrabble/zzold/sim"
$oimports
)

func TestZZABSelfPlay(t *testing.T) {
	lex := testlex.GADDAG(t, "NWL23")
	nl, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	ol, err := oldeval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	// The old build plays on its own copy of the lexicon.
	wl, err := oldlexica.ReadWordList(testlex.Path(t, "NWL23"))
	if err != nil {
		t.Fatal(err)
	}
	olex, err := oldgaddag.Build("NWL23", wl.Words, wl.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	ncfg := selfplay.Config{Tables: movegen.NewTables(lex), Players: []string{"equity", "equity"}, Games: $games, Seed: 1, Workers: 1}
	ncfg.Options[0].Leaves, ncfg.Options[1].Leaves = nl, nl
	ocfg := $ocfg{$olexfield, Players: $oplayers{"equity", "equity"}, Games: $games, Seed: 1, Workers: 1}
	ocfg.Options[0].Leaves, ocfg.Options[1].Leaves = ol, ol
	var nturns, oturns float64
	runNew := func(seed uint64) float64 {
		ncfg.Seed = seed
		st := time.Now()
		s, err := selfplay.Run(context.Background(), ncfg)
		if err != nil {
			t.Fatal(err)
		}
		nturns = s.TurnsPerGame
		return float64(time.Since(st).Nanoseconds()) / $games
	}
	runOld := func(seed uint64) float64 {
		ocfg.Seed = seed
		st := time.Now()
		s, err := $orun(context.Background(), ocfg)
		if err != nil {
			t.Fatal(err)
		}
		oturns = s.TurnsPerGame
		return float64(time.Since(st).Nanoseconds()) / $games
	}
	if "$mode" == "rollouts" {
		data, err := os.ReadFile("../sim/testdata/midgame.cgp")
		if err != nil {
			t.Fatal(err)
		}
		p, err := position.Parse("midgame.cgp", data)
		if err != nil {
			t.Fatal(err)
		}
		op, err := $oparse("midgame.cgp", data)
		if err != nil {
			t.Fatal(err)
		}
		npos := &sim.Position{Board: p.Board, Rack: p.Racks[0], Scores: p.Scores, Scoreless: p.ZeroTurns}
		opos := &$opos{Board: op.Board, Rack: op.Racks[0], Scores: op.Scores, Scoreless: op.ZeroTurns}
		ns, os := sim.NewSimulator(movegen.NewTables(lex)), oldsim.NewSimulator($osimlex)
		nopts := sim.Options{Leaves: nl, Candidates: 15, Plies: 2, Iterations: 64, Threads: 1}
		oopts := $oopts{Leaves: ol, Candidates: 15, Plies: 2, Iterations: 64, Threads: 1}
		sims := max(1, $games/100)
		runNew = func(seed uint64) float64 {
			st := time.Now()
			for i := range sims {
				nopts.Seed = seed*1000 + uint64(i)
				res, err := ns.Simulate(context.Background(), npos, nopts)
				if err != nil {
					t.Fatal(err)
				}
				nturns = float64(res.Rollouts)
			}
			return float64(time.Since(st).Nanoseconds()) / float64(sims)
		}
		runOld = func(seed uint64) float64 {
			st := time.Now()
			for i := range sims {
				oopts.Seed = seed*1000 + uint64(i)
				res, err := os.Simulate(context.Background(), opos, oopts)
				if err != nil {
					t.Fatal(err)
				}
				oturns = float64(res.Rollouts)
			}
			return float64(time.Since(st).Nanoseconds()) / float64(sims)
		}
	}
	for s := range 3 {
		runNew(uint64(s + 1))
		runOld(uint64(s + 1))
		if nturns != oturns {
			t.Logf("warning: the builds play different games (seed %d: %.3f and %.3f turns a game)", s+1, nturns, oturns)
		}
	}
	const rounds = $rounds
	var ratios []float64
	var so, sn float64
	for r := range rounds {
		seed := uint64(100 + r)
		var a, b float64
		if r%2 == 0 {
			a = runOld(seed)
			b = runNew(seed)
		} else {
			b = runNew(seed)
			a = runOld(seed)
		}
		so += a
		sn += b
		ratios = append(ratios, b/a)
	}
	sort.Float64s(ratios)
	unit := "games/s"
	if "$mode" == "rollouts" {
		unit = "simulations/s"
	}
	fmt.Printf("old %.0f, new %.0f %s; new/old time mean %.4f, median %.4f, quartiles %.4f-%.4f\n",
		1e9*rounds/so, 1e9*rounds/sn, unit, sn/so, ratios[rounds/2], ratios[rounds/4], ratios[3*rounds/4])
}
EOT
GOMAXPROCS=1 go test -count=1 -run '^TestZZABSelfPlay$' -v ./benchmarks | grep -E 'new/old|warning|FAIL|ok'
