#!/usr/bin/env bash
# Interleaved A/B of one Go benchmark: the test binary of PKG built at REF
# against the one built from the working tree, run in turn ROUNDS times
# (the side going first alternating), each run's figure for UNIT taken
# from the benchmark's line. Prints each round and, at the end, the median
# of the pairwise ratios new/old with their quartiles: this machine's speed
# drifts too much for figures from different minutes to compare.
#
# usage: benchmarks/tools/abbench.sh REF PKG BENCH [ROUNDS] [BENCHTIME] [UNIT]
#   e.g. abbench.sh HEAD~1 ./benchmarks '^BenchmarkGenerateAll$' 20 2s ns/op
#   ROUNDS: default 20; BENCHTIME: default 1s; UNIT: default ns/op (any
#   unit the benchmark reports, e.g. positions/s; for a rate the ratio is
#   still new/old of the figure).
# Needs SCRABBLE_LEXICA_DIR for benchmarks that load a lexicon.
set -euo pipefail
ref=${1:?usage: abbench.sh REF PKG BENCH [ROUNDS] [BENCHTIME] [UNIT]}
pkg=${2:?package} bench=${3:?benchmark regexp}
rounds=${4:-20} benchtime=${5:-1s} unit=${6:-ns/op}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d)
cleanup() {
	git -C "$root" worktree remove --force "$tmp/old" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$root"
GOAMD64=${GOAMD64:-$(sh scripts/goamd64.sh)}
export GOAMD64
git worktree add -q --detach "$tmp/old" "$ref"
(cd "$tmp/old" && go test -c -o "$tmp/old.test" "$pkg")
go test -c -o "$tmp/new.test" "$pkg"
dir=$(go list -f '{{.Dir}}' "$pkg")
olddir=$tmp/old/${dir#"$root"/}
run() { # binary dir
	(cd "$2" && "$1" -test.run '^$' -test.bench "$bench" -test.benchtime "$benchtime" |
		awk -v u="$unit" '/^Benchmark/ { for (i = 2; i <= NF; i++) if ($i == u) { print $(i-1); exit } }')
}
ratios=()
for ((r = 1; r <= rounds; r++)); do
	if ((r % 2)); then
		n=$(run "$tmp/new.test" "$dir")
		o=$(run "$tmp/old.test" "$olddir")
	else
		o=$(run "$tmp/old.test" "$olddir")
		n=$(run "$tmp/new.test" "$dir")
	fi
	if [[ -z $n || -z $o ]]; then
		echo "round $r: no $unit figure from the benchmark (new '$n', old '$o')" >&2
		exit 1
	fi
	q=$(awk -v n="$n" -v o="$o" 'BEGIN { printf "%.4f", n / o }')
	ratios+=("$q")
	echo "round $r: new $n old $o $unit, new/old $q"
done
printf '%s\n' "${ratios[@]}" | sort -g | awk -v b="$bench" -v u="$unit" -v ref="$ref" '
	{ v[NR] = $1 }
	function q(p,  i) { i = 1 + p * (NR - 1); return v[int(i)] + (i - int(i)) * (v[int(i) + 1] - v[int(i)]) }
	END { printf "%s (%s), %d rounds: new/old median %.4f (quartiles %.4f-%.4f) against %s\n", b, u, NR, q(0.5), q(0.25), q(0.75), ref }'
