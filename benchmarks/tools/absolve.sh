#!/usr/bin/env bash
# In-process A/B timing of the solvers: an older commit's endgame or
# pre-endgame solver (every package, copied for the run under
# scrabble/zzold/ by abcopy.sh) against the working tree's, on the shared
# positions, in one process, alternating (each round solves every position
# once with each build, the build going first alternating too). The time
# of a side in a round is the sum of its solves' wall times; the figure is
# the median over the rounds of new/old.
#
# usage: benchmarks/tools/absolve.sh [REF] [ROUNDS] [MODE] [THREADS]
#   REF: the commit to compare with (default HEAD); ROUNDS: default 20;
#   MODE: endgame (default: the 60 endgames of ../shared/endgame/
#   positions.jsonl, MAGPIE's two-pass rule) or peg (the one-tile
#   pre-endgames of peg1.jsonl whose MAGPIE record is proven, each valued
#   for MAGPIE's move) or pegfull (the pre-endgames of peg1.jsonl named in
#   ZZ_IDS, e.g. ZZ_IDS=p009, each solved in full: every candidate, the
#   exact best move); THREADS: default 1.
# Needs SCRABBLE_LEXICA_DIR (the shared data's endgame/ is beside it).
# Both builds must give the same values (checked every round). The old
# half is written against the API of 1d08384's parent; a rename in the
# tree is made here too.
set -euo pipefail
ref=${1:-HEAD} rounds=${2:-20} mode=${3:-endgame} threads=${4:-1}
: "${SCRABBLE_LEXICA_DIR:?set SCRABBLE_LEXICA_DIR (the shared word lists)}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
old=$root/zzold test=$root/benchmarks/zz_absolve_test.go
trap 'rm -rf "$old" "$test"' EXIT
. "$root/benchmarks/tools/abcopy.sh"
abcopy "$ref" "$old"
cat >"$test" <<'EOT'
package benchmarks_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"scrabble/endgame"
	"scrabble/internal/testlex"
	"scrabble/move"
	"scrabble/movegen"
	"scrabble/peg"
	"scrabble/position"
	oldendgame "scrabble/zzold/endgame"
	oldgaddag "scrabble/zzold/gaddag"
	oldlexica "scrabble/zzold/lexica"
	oldmove "scrabble/zzold/move"
	oldmovegen "scrabble/zzold/movegen"
	oldpeg "scrabble/zzold/peg"
	oldposition "scrabble/zzold/position"
)

type zzLine struct {
	ID    string `json:"id"`
	CGP   string `json:"cgp"`
	Value int    `json:"value"`
	Best  struct {
		Move string `json:"move"`
	} `json:"magpie_best"`
	Exact map[string]struct {
		Proven bool `json:"proven"`
	} `json:"exact"`
}

func zzLines(t *testing.T, file string) []zzLine {
	f, err := os.Open(filepath.Join(os.Getenv(testlex.EnvVar), "..", "endgame", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []zzLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l zzLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

func TestZZABSolve(t *testing.T) {
	mode := os.Getenv("ZZ_MODE")
	rounds, _ := strconv.Atoi(os.Getenv("ZZ_ROUNDS"))
	threads, _ := strconv.Atoi(os.Getenv("ZZ_THREADS"))
	lex := testlex.GADDAG(t, "NWL23")
	tables := movegen.NewTables(lex)
	tables.Prepare()
	wl, err := oldlexica.ReadWordList(testlex.Path(t, "NWL23"))
	if err != nil {
		t.Fatal(err)
	}
	olex, err := oldgaddag.Build("NWL23", wl.Words, wl.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	otables := oldmovegen.NewTables(olex)
	otables.Prepare()

	// Each side is a list of solves returning a value to compare.
	var news, olds []func() float64
	var names []string
	switch mode {
	case "endgame":
		for _, l := range zzLines(t, "positions.jsonl") {
			p, err := position.ParseCGP(l.ID, l.CGP)
			if err != nil {
				t.Fatal(err)
			}
			op, err := oldposition.ParseCGP(l.ID, l.CGP)
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, l.ID)
			news = append(news, func() float64 {
				r, err := endgame.Solve(context.Background(), tables, p, endgame.Options{ScorelessTurns: 2, Threads: threads})
				if err != nil || !r.Proven {
					t.Fatal(l.ID, err)
				}
				return float64(r.Value)
			})
			olds = append(olds, func() float64 {
				r, err := oldendgame.Solve(context.Background(), otables, op, oldendgame.Options{ScorelessTurns: 2, Threads: threads})
				if err != nil || !r.Proven {
					t.Fatal(l.ID, err)
				}
				return float64(r.Value)
			})
		}
	case "peg":
		for _, l := range zzLines(t, "peg1.jsonl") {
			if !l.Exact[l.Best.Move].Proven {
				continue
			}
			p, err := position.ParseCGP(l.ID, l.CGP)
			if err != nil {
				t.Fatal(err)
			}
			op, err := oldposition.ParseCGP(l.ID, l.CGP)
			if err != nil {
				t.Fatal(err)
			}
			m, err := move.Parse(l.Best.Move, &p.Board)
			if err != nil {
				t.Fatal(err)
			}
			om, err := oldmove.Parse(l.Best.Move, &op.Board)
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, l.ID)
			news = append(news, func() float64 {
				r, err := peg.Solve(context.Background(), tables, p, peg.Options{ScorelessTurns: 2, Threads: threads, Only: []move.Move{m}})
				if err != nil || !r.Proven {
					t.Fatal(l.ID, err)
				}
				c := r.Candidates[0]
				return float64(2*c.Wins+c.Ties)*1e6 + c.MeanSpread
			})
			olds = append(olds, func() float64 {
				r, err := oldpeg.Solve(context.Background(), otables, op, oldpeg.Options{ScorelessTurns: 2, Threads: threads, Only: []oldmove.Move{om}})
				if err != nil || !r.Proven {
					t.Fatal(l.ID, err)
				}
				c := r.Candidates[0]
				return float64(2*c.Wins+c.Ties)*1e6 + c.MeanSpread
			})
		}
	case "pegfull":
		ids := strings.Split(os.Getenv("ZZ_IDS"), ",")
		for _, l := range zzLines(t, "peg1.jsonl") {
			if !slices.Contains(ids, l.ID) {
				continue
			}
			p, err := position.ParseCGP(l.ID, l.CGP)
			if err != nil {
				t.Fatal(err)
			}
			op, err := oldposition.ParseCGP(l.ID, l.CGP)
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, l.ID)
			news = append(news, func() float64 {
				r, err := peg.Solve(context.Background(), tables, p, peg.Options{ScorelessTurns: 2, Threads: threads, Top: 1})
				if err != nil || !r.Proven {
					t.Fatal(l.ID, err)
				}
				c := r.Candidates[0]
				return float64(2*c.Wins+c.Ties)*1e6 + c.MeanSpread
			})
			olds = append(olds, func() float64 {
				r, err := oldpeg.Solve(context.Background(), otables, op, oldpeg.Options{ScorelessTurns: 2, Threads: threads, Top: 1})
				if err != nil || !r.Proven {
					t.Fatal(l.ID, err)
				}
				c := r.Candidates[0]
				return float64(2*c.Wins+c.Ties)*1e6 + c.MeanSpread
			})
		}
	default:
		t.Fatalf("mode %q: endgame, peg or pegfull", mode)
	}
	run := func(side []func() float64, per []time.Duration) (time.Duration, []float64) {
		var total time.Duration
		vals := make([]float64, len(side))
		for i, f := range side {
			start := time.Now()
			vals[i] = f()
			d := time.Since(start)
			per[i] += d
			total += d
		}
		return total, vals
	}
	perNew := make([]time.Duration, len(news))
	perOld := make([]time.Duration, len(olds))
	var ratios []float64
	var sumNew, sumOld time.Duration
	for r := 0; r < rounds; r++ {
		var tn, to time.Duration
		var vn, vo []float64
		if r%2 == 0 {
			tn, vn = run(news, perNew)
			to, vo = run(olds, perOld)
		} else {
			to, vo = run(olds, perOld)
			tn, vn = run(news, perNew)
		}
		if !slices.Equal(vn, vo) {
			t.Fatalf("round %d: the builds' values differ:\nnew %v\nold %v", r, vn, vo)
		}
		sumNew += tn
		sumOld += to
		ratios = append(ratios, tn.Seconds()/to.Seconds())
		t.Logf("round %2d: new %7.3f s  old %7.3f s  new/old %.4f", r, tn.Seconds(), to.Seconds(), tn.Seconds()/to.Seconds())
	}
	for i, n := range names {
		t.Logf("%s: new %8.4f s  old %8.4f s a solve (means)", n, perNew[i].Seconds()/float64(rounds), perOld[i].Seconds()/float64(rounds))
	}
	s := slices.Clone(ratios)
	slices.Sort(s)
	q := func(f float64) float64 { return s[int(f*float64(len(s)-1)+0.5)] }
	t.Logf("%s, %d threads, %d rounds: mean a round new %.3f s old %.3f s; time new/old median %.4f (quartiles %.4f-%.4f)",
		mode, threads, rounds, sumNew.Seconds()/float64(rounds), sumOld.Seconds()/float64(rounds), q(0.5), q(0.25), q(0.75))
}
EOT
ZZ_MODE=$mode ZZ_ROUNDS=$rounds ZZ_THREADS=$threads go test ./benchmarks/ -run TestZZABSolve -count 1 -timeout 0 -v
