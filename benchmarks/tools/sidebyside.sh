#!/usr/bin/env bash
# Times two builds of a benchmark side by side: both run at the same time,
# one per core (taskset), swapping cores each round, so both see the same
# machine. This VM's speed drifts by 30% and more over an hour, which makes
# timings taken minutes apart meaningless for changes of a few percent.
#
# usage: benchmarks/tools/sidebyside.sh OLD.test NEW.test [ROUNDS] [BENCH] [BENCHTIME] [DIR]
#   OLD.test, NEW.test: test binaries (go test -c -o X.test ./benchmarks)
#   BENCH: a -test.bench pattern, anchored at the end (default BestEquity)
#   BENCHTIME: default 8000x; DIR: where to run (default: this script's package)
# Prints each build's ns/op per round, their means and NEW/OLD.
set -euo pipefail
old=$1 new=$2 rounds=${3:-4} bench=${4:-BestEquity} benchtime=${5:-8000x}
dir=${6:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
: "${SCRABBLE_LEXICA_DIR:?set SCRABBLE_LEXICA_DIR (the shared word lists)}"
export GOMAXPROCS=1
cd "$dir"
run() { taskset -c "$2" "$1" -test.run '^$' -test.bench "$bench\$" -test.benchtime "$benchtime" | awk '/^Benchmark/ {print $3; exit}'; }
for i in $(seq "$rounds"); do
	a=$((i % 2)) b=$(((i + 1) % 2))
	run "$old" $a >"/tmp/sbs.old.$$" &
	run "$new" $b >"/tmp/sbs.new.$$" &
	wait
	echo "old $(cat /tmp/sbs.old.$$)"
	echo "new $(cat /tmp/sbs.new.$$)"
done | awk '{ s[$1] = s[$1] " " $2; t[$1] += $2; c[$1]++ }
	END { for (k in s) printf "%s ns/op:%s (mean %.0f)\n", k, s[k], t[k] / c[k]
	      printf "new/old: %.3f\n", (t["new"] / c["new"]) / (t["old"] / c["old"]) }'
rm -f "/tmp/sbs.old.$$" "/tmp/sbs.new.$$"
