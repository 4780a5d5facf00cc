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
. "$root/benchmarks/tools/abrounds.sh"
abworktree "$ref"
(cd "$tmp/old" && go test -c -o "$tmp/old.test" "$pkg")
go test -c -o "$tmp/new.test" "$pkg"
dir=$(go list -f '{{.Dir}}' "$pkg")
olddir=$tmp/old/${dir#"$root"/}
abrounds "$rounds" "$bench" "$benchtime" "$unit" "$ref" "$tmp/new.test" "$dir" "$tmp/old.test" "$olddir"
