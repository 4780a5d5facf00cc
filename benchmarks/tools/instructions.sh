#!/usr/bin/env bash
# Counts a benchmark's instructions and simulated cache misses per op in the
# engine's own code (valgrind's cachegrind; D1 32 KB, last level 1 MB like
# this machine's L2): the difference of a run of N and of 5N ops, divided by
# 4N, so set-up cancels out. Unlike timings it does not drift with the
# machine; it does not see overlapping misses either, so use both.
#
# usage: benchmarks/tools/instructions.sh X.test [BENCH] [N]
#   X.test: go test -c -o X.test ./benchmarks; BENCH default BestEquity
#   (anchored at the end); N default 278 (the committed set once)
set -euo pipefail
bin=$1 bench=${2:-BestEquity} n=${3:-278}
: "${SCRABBLE_LEXICA_DIR:?set SCRABBLE_LEXICA_DIR (the shared word lists)}"
export GOMAXPROCS=1
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count() {
	local out
	out=$(mktemp)
	valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=1048576,16,64 \
		--cachegrind-out-file="$out" "$bin" -test.run '^$' -test.bench "$bench\$" -test.benchtime "${1}x" >/dev/null 2>&1
	cg_annotate --show-percs=no "$out" 2>/dev/null |
		grep -E 'scrabble/(movegen|eval|rules|gaddag|sim)|runtime\.mapaccess|runtime/maps' |
		grep -E '^ *[0-9,]+ +[0-9,]+' | tr -d ',' |
		awk '{ ir += $1; d1 += $5 + $8; ll += $6 + $9 } END { printf "%.0f %.0f %.0f\n", ir, d1, ll }'
	rm -f "$out"
}
read -r a1 a2 a3 <<<"$(count "$n")"
read -r b1 b2 b3 <<<"$(count $((5 * n)))"
d=$((4 * n))
echo "$bench: $(((b1 - a1) / d)) instructions, $(((b2 - a2) / d)) D1 misses, $(((b3 - a3) / d)) L2 misses per op"
