#!/usr/bin/env bash
# Time per instruction of each function in self-play (the equity player
# with the built-in NWL23 leaves against itself): instructions a turn from
# cachegrind (the difference of a run of 400 and of 1,600 games) beside
# time a turn from a CPU profile of 6,000 games. About 100 ns per 1,000
# instructions is this machine running freely; functions well above it
# wait (mispredicted branches, cache misses, store forwarding), which
# instruction counts alone do not show: that is where the eighth session's
# gains were. Inlined functions appear under their callers (cachegrind) or
# on their own (pprof), so some rows have one side only and are left out.
#
# usage: benchmarks/tools/cpi.sh   (needs SCRABBLE_LEXICA_DIR; about 3 minutes)
set -euo pipefail
export LC_ALL=C # one collation for sort and join
: "${SCRABBLE_LEXICA_DIR:?set SCRABBLE_LEXICA_DIR (the shared word lists)}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
GOAMD64=${GOAMD64:-$(sh scripts/goamd64.sh)} go test -c -o "$tmp/sim.test" ./sim
cd sim
bench='SelfPlayGamesLeaves$'
for games in 400 1600; do
	GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$tmp/cg.$games" \
		"$tmp/sim.test" -test.run '^$' -test.bench "$bench" -test.benchtime "${games}x" >/dev/null 2>&1
	cg_annotate --show-percs=no --auto=no "$tmp/cg.$games" 2>/dev/null |
		grep -E '^ *[0-9,]+ +\S+:\S+' | tr -d ',' |
		awk '{ split($2, a, ":"); n[a[2]] += $1 } END { for (f in n) print f, n[f] }' | sort >"$tmp/ir.$games"
done
out=$("$tmp/sim.test" -test.run '^$' -test.bench "$bench" -test.benchtime 6000x -test.cpuprofile "$tmp/cpu.prof")
turns=$(echo "$out" | grep -o '[0-9.]* turns/game' | cut -d' ' -f1)
go tool pprof -top -nodecount 400 -unit ms "$tmp/sim.test" "$tmp/cpu.prof" 2>/dev/null |
	awk '$1 ~ /ms$/ && NF == 6 { v = $1; sub("ms", "", v); print $6, v }' | sort >"$tmp/flat"
join "$tmp/ir.400" "$tmp/ir.1600" >"$tmp/ir"
join "$tmp/ir" "$tmp/flat" | awk -v turns="$turns" '
	{ ir = ($3 - $2) / (1200 * turns); ns = $4 * 1e6 / (6001 * turns) }
	ir > 500 { printf "%-60s %8.0f instr %7.0f ns %7.1f ns/Kinstr\n", $1, ir, ns, ns * 1000 / ir }' |
	sort -k6 -n -r
