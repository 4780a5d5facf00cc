#!/usr/bin/env bash
# The measuring loop behind README.md's speed tables: ROUNDS rounds of
# 2-second runs of all plays and best by equity (positions/s), rollouts on
# one and two threads (rollouts/s) and 1,500 self-play games (games/s),
# each round with the machine's memory latency beside it
# (benchmarks/tools/memlat): this VM's speed follows that latency, so
# figures taken at different times compare only within a latency band.
# Prints a line a round (also to OUT) and, at the end, min / median / max
# of each measure for the rounds under 100 ns and for the others.
#
# usage: benchmarks/tools/loop.sh [ROUNDS] [OUT]   (default 40, loop.out)
# Needs SCRABBLE_LEXICA_DIR; about 20 seconds a round.
set -euo pipefail
rounds=${1:-40} out=${2:-loop.out}
: "${SCRABBLE_LEXICA_DIR:?set SCRABBLE_LEXICA_DIR (the shared word lists)}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$(realpath "$out")
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cd "$root"
# Built as make builds (scripts/goamd64.sh: v3 on this machine).
GOAMD64=${GOAMD64:-$(sh scripts/goamd64.sh)}
export GOAMD64
echo "GOAMD64=$GOAMD64"
go test -c -o "$bin/bench.test" ./benchmarks
go test -c -o "$bin/sim.test" ./sim
go build -o "$bin/memlat" ./benchmarks/tools/memlat
measure() { # binary dir bench benchtime unit
	(cd "$2" && "$1" -test.run '^$' -test.bench "$3" -test.benchtime "$4" | grep -o "[0-9.]* $5" | head -1 | cut -d' ' -f1)
}
: >"$out"
echo "round time mem_ns all_pos/s equity_pos/s rollouts/s_1t rollouts/s_2t games/s" | tee -a "$out"
for r in $(seq "$rounds"); do
	ts=$(date +%H:%M:%S)
	mem=$("$bin/memlat" | sed 's/.*mem \([0-9]*\) ns/\1/')
	all=$(measure "$bin/bench.test" benchmarks 'GenerateAll$' 2s positions/s)
	eq=$(measure "$bin/bench.test" benchmarks 'BestEquity$' 2s positions/s)
	r1=$(measure "$bin/sim.test" sim 'SimRollouts/threads=1$' 2s rollouts/s)
	r2=$(measure "$bin/sim.test" sim 'SimRollouts/threads=2$' 2s rollouts/s)
	sp=$(measure "$bin/sim.test" sim 'SelfPlayGamesLeaves$' 1500x games/s)
	echo "$r $ts $mem $all $eq $r1 $r2 $sp" | tee -a "$out"
done
summary() { # label filter
	awk -v label="$1" "NR > 1 && ($2)" "$out" | awk -v label="$1" '
	{ n++; for (c = 4; c <= 8; c++) v[c, n] = $c }
	END {
		if (n == 0) { print label ": no rounds"; exit }
		split("all plays,best by equity,rollouts 1t,rollouts 2t,self-play", name, ",")
		printf "%s, %d rounds (min / median / max):\n", label, n
		for (c = 4; c <= 8; c++) {
			for (i = 1; i <= n; i++) a[i] = v[c, i]
			for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
			med = n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
			printf "  %-16s %s / %s / %s\n", name[c-3], a[1], med, a[n]
		}
	}'
}
summary "memory under 100 ns" '$3 < 100'
summary "memory 100 ns or more" '$3 >= 100'
