#!/usr/bin/env bash
# Two threads against one on the pre-endgame solver, in one process: the
# one-tile pre-endgames of ../shared/endgame/peg1.jsonl named in IDS solved
# in full (every candidate, Top 1, MAGPIE's two-pass rule) on 1 and on 2
# threads, alternating in each of 20 rounds (the side going first
# alternating too), the answers checked equal every round. Prints each
# round and the median of the pairwise ratios (2 threads / 1) with their
# quartiles. Run it on a quiet machine: a busy neighbour core takes the
# second thread's gain back.
#
# usage: benchmarks/tools/pegthreads.sh [IDS]   (default p009,p004)
# Needs SCRABBLE_LEXICA_DIR (the shared data's endgame/ is beside it).
set -euo pipefail
ids=${1:-p009,p004}
: "${SCRABBLE_LEXICA_DIR:?set SCRABBLE_LEXICA_DIR (the shared word lists)}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
test=$root/peg/zz_pegthreads_test.go
trap 'rm -f "$test"' EXIT
cat >"$test" <<'EOT'
package peg

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"scrabble/internal/testgen"
	"scrabble/internal/testlex"
	"scrabble/position"
)

func TestZZPEGThreads(t *testing.T) {
	ids := os.Getenv("ZZ_IDS")
	if ids == "" {
		t.Skip()
	}
	ps := loadPEG(t)
	lex := testgen.Tables(testlex.GADDAG(t, "NWL23"))
	var poss []*position.Position
	for _, p := range ps {
		if strings.Contains(ids, p.ID) {
			pos, _ := position.ParseCGP(p.ID, p.CGP)
			poss = append(poss, pos)
		}
	}
	run := func(threads int) (time.Duration, []string) {
		var total time.Duration
		var out []string
		for _, pos := range poss {
			res, err := Solve(context.Background(), lex, pos, Options{ScorelessTurns: 2, Top: 1, Threads: threads})
			if err != nil || !res.Proven {
				t.Fatal(err)
			}
			total += res.Elapsed
			b := res.Candidates[0]
			out = append(out, fmt.Sprintf("%s %d-%d-%d %.3f", b.Notation, b.Wins, b.Ties, b.Losses, b.MeanSpread))
		}
		return total, out
	}
	var ratios []float64
	for r := 0; r < 20; r++ {
		var t1, t2 time.Duration
		var a1, a2 []string
		if r%2 == 0 {
			t1, a1 = run(1)
			t2, a2 = run(2)
		} else {
			t2, a2 = run(2)
			t1, a1 = run(1)
		}
		if strings.Join(a1, ",") != strings.Join(a2, ",") {
			t.Fatalf("answers differ: %v %v", a1, a2)
		}
		ratios = append(ratios, t2.Seconds()/t1.Seconds())
		t.Logf("round %2d: 1 thread %.3f s, 2 threads %.3f s, 2/1 %.4f", r, t1.Seconds(), t2.Seconds(), t2.Seconds()/t1.Seconds())
	}
	slices.Sort(ratios)
	t.Logf("2 threads / 1 thread: median %.4f (quartiles %.4f-%.4f)", ratios[10], ratios[5], ratios[15])
}
EOT
GOAMD64=${GOAMD64:-$(sh scripts/goamd64.sh)} ZZ_IDS=$ids go test ./peg/ -run '^TestZZPEGThreads$' -count 1 -timeout 0 -v
