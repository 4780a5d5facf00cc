#!/usr/bin/env bash
# In-process A/B timing of the best-move search: an older commit's code
# (every package, copied for the run under scrabble/zzold/ by abcopy.sh)
# against the working tree's,
# in one process, alternating batches of the committed positions (each
# batch every position once, a fresh search each). Timings taken minutes
# apart, or even side by side on the two cores, drift by 5 to 30% on this
# VM; alternating batches in one process see the same machine, so a
# difference of 1-2% shows. Two copies of the same code read 0.99 to 1.01.
#
# usage: benchmarks/tools/abtest.sh [REF] [ROUNDS] [MODE]
#   REF: the commit to compare with (default HEAD); ROUNDS: default 300;
#   MODE: best (default: best by equity) or all (every play, a counter)
# Needs SCRABBLE_LEXICA_DIR. Prints both means and new/old (mean, median,
# quartiles); it checks first that both find the same best moves.
# The old half of the test below is written against REF's API: that of
# 3e4de0f (before the redesign of issue 24) or today's (REF has
# movegen.NewTables), picked by what REF holds; the new half against the
# working tree's: a rename in the tree is made here too.
set -euo pipefail
ref=${1:-HEAD} rounds=${2:-300} mode=${3:-best}
: "${SCRABBLE_LEXICA_DIR:?set SCRABBLE_LEXICA_DIR (the shared word lists)}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
old=$root/zzold test=$root/benchmarks/zz_abtest_test.go
trap 'rm -rf "$old" "$test"' EXIT
. "$root/benchmarks/tools/abcopy.sh"
abcopy "$ref" "$old"
# REF's API: since the redesign, movegen.NewTables, package move and the
# positions in internal/benchset (which a package outside zzold may not
# import: the new positions are converted to REF's types instead).
if git cat-file -e "$ref:movegen/tables.go" 2>/dev/null; then
	oldimports='	oldmove "scrabble/zzold/move"
	oldrules "scrabble/zzold/rules"'
	oldmove=oldmove.Move
	oldsetup='	otables := old.NewTables(olex)
	og := make([]*old.Generator, len(ps))
	oracks := make([]oldrules.Rack, len(ps))
	for i, p := range ps {
		var b oldrules.Board
		for k, l := range p.Board.Squares {
			b.Squares[k] = oldrules.Letter(l)
		}
		oracks[i] = oldrules.Rack(p.Racks[0])
		og[i] = old.New(otables)
		og[i].SetBoard(&b)
		og[i].SetLeaves(oleaves)
	}
	otables.Prepare()'
else
	oldimports='	oldbenchmarks "scrabble/zzold/benchmarks"
	oldrules "scrabble/zzold/rules"'
	oldmove=old.Move
	oldsetup='	ops, err := oldbenchmarks.Positions()
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != len(ps) {
		t.Fatalf("new %d positions, old %d", len(ps), len(ops))
	}
	og := make([]*old.Generator, len(ops))
	oracks := make([]oldrules.Rack, len(ops))
	for i, p := range ops {
		oracks[i] = p.Racks[0]
		og[i] = old.New(olex)
		og[i].SetBoard(&p.Board)
		og[i].SetLeaves(oleaves)
	}
	old.Prepare(olex)'
fi
cat >"$test" <<EOT
package benchmarks_test

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"scrabble/internal/benchset"
	"scrabble/eval"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	oldeval "scrabble/zzold/eval"
	oldgaddag "scrabble/zzold/gaddag"
	oldlexica "scrabble/zzold/lexica"
	old "scrabble/zzold/movegen"
$oldimports
)

type zzCounter int

func (c *zzCounter) Record(*move.Move) { *c++ }

type zzOldCounter int

func (c *zzOldCounter) Record(*$oldmove) { *c++ }

func TestZZABTest(t *testing.T) {
	// The new build.
	lex := testlex.GADDAG(t, "NWL23")
	ps, err := benchset.Positions()
	if err != nil {
		t.Fatal(err)
	}
	leaves, err := eval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
	tables := movegen.NewTables(lex)
	ng := make([]*movegen.Generator, len(ps))
	for i, p := range ps {
		ng[i] = movegen.New(tables)
		ng[i].SetBoard(&p.Board)
		ng[i].SetLeaves(leaves)
	}
	tables.Prepare()
	nopts := movegen.Options{Exchanges: true, Pass: true}
	// The old build, on its own lexicon, positions and leaves.
	wl, err := oldlexica.ReadWordList(testlex.Path(t, "NWL23"))
	if err != nil {
		t.Fatal(err)
	}
	olex, err := oldgaddag.Build("NWL23", wl.Words, wl.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	oleaves, err := oldeval.DefaultLeaves("NWL23")
	if err != nil {
		t.Fatal(err)
	}
$oldsetup
	oopts := old.Options{Exchanges: true, Pass: true}
	for i := range ps {
		a, _ := ng[i].Best(&ps[i].Racks[0], 50, nopts)
		b, _ := og[i].Best(&oracks[i], 50, oopts)
		if int64(a.Equity) != int64(b.Equity) || a.Score != b.Score {
			t.Fatalf("position %d: new %+v, old %+v", i, a, b)
		}
	}
	// One batch: every position searched once, afresh; ns a position.
	batch := func(search func(i int)) float64 {
		st := time.Now()
		for i := range ps {
			search(i)
		}
		return float64(time.Since(st).Nanoseconds()) / float64(len(ps))
	}
	runNew := func() float64 {
		return batch(func(i int) { ng[i].ForgetRacks(); ng[i].Best(&ps[i].Racks[0], 50, nopts) })
	}
	runOld := func() float64 {
		return batch(func(i int) { og[i].ForgetRacks(); og[i].Best(&oracks[i], 50, oopts) })
	}
	if "$mode" == "all" {
		var nc zzCounter
		var oc zzOldCounter
		runNew = func() float64 { return batch(func(i int) { ng[i].GeneratePlays(&ps[i].Racks[0], &nc) }) }
		runOld = func() float64 { return batch(func(i int) { og[i].GeneratePlays(&oracks[i], &oc) }) }
		runNew()
		runOld()
		if int(nc) != int(oc) {
			t.Fatalf("new lists %d plays, old %d", nc, oc)
		}
	}
	for range 5 {
		runOld()
		runNew()
	}
	const rounds = $rounds
	var ratios []float64
	var so, sn float64
	for r := range rounds {
		var a, b float64
		if r%2 == 0 {
			a = runOld()
			b = runNew()
		} else {
			b = runNew()
			a = runOld()
		}
		so += a
		sn += b
		ratios = append(ratios, b/a)
	}
	sort.Float64s(ratios)
	fmt.Printf("old %.0f ns, new %.0f ns a position; new/old mean %.4f, median %.4f, quartiles %.4f-%.4f\n",
		so/rounds, sn/rounds, sn/so, ratios[rounds/2], ratios[rounds/4], ratios[3*rounds/4])
}
EOT
cd benchmarks
GOMAXPROCS=1 taskset -c 1 go test -run ZZABTest -count=1 -v . | grep -E "new/old|FAIL|Error|position [0-9]+:" || true
