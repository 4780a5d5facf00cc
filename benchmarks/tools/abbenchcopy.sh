#!/usr/bin/env bash
# abbench.sh for a benchmark that REF does not have: the function FUNC
# (with its doc comment) is copied from the working tree's test files of
# PKG into REF's package before REF's test binary is built, so both sides
# run the same benchmark source, each against its own build (the helpers
# it calls, such as benchPositions, are each side's own). Then the
# interleaved rounds and the median of the pairwise ratios new/old with
# their quartiles, as abbench.sh prints them.
#
# usage: benchmarks/tools/abbenchcopy.sh REF PKG FUNC [ROUNDS] [BENCHTIME] [UNIT]
#   e.g. abbenchcopy.sh 21519d3 ./benchmarks BenchmarkMovesSorted 20 2s positions/s
#   FUNC: the benchmark function's name (run as ^FUNC$); ROUNDS: default
#   20; BENCHTIME: default 1s; UNIT: default ns/op (for a rate the ratio
#   is still new/old of the figure).
# The copy imports what FUNC names of its file's imports. Where REF has
# no package move (before the redesign of issue 24 split it out of
# movegen), a line of the copy makes move.SortByScore, move.ByScore and
# move.Compare movegen's, which is where REF has them.
# Needs SCRABBLE_LEXICA_DIR for benchmarks that load a lexicon.
set -euo pipefail
usage='usage: abbenchcopy.sh REF PKG FUNC [ROUNDS] [BENCHTIME] [UNIT]'
ref=${1:?$usage} pkg=${2:?$usage} fn=${3:?$usage}
rounds=${4:-20} benchtime=${5:-1s} unit=${6:-ns/op}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/benchmarks/tools/abrounds.sh"
abworktree "$ref"
dir=$(go list -f '{{.Dir}}' "$pkg")
rel=${dir#"$root"}
rel=${rel#/}
src=$(grep -l "^func $fn(" "$dir"/*_test.go | head -n 1) || true
if [[ -z $src ]]; then
	echo "abbenchcopy.sh: no func $fn in $pkg's test files" >&2
	exit 1
fi
olddir=$tmp/old/$rel
if grep -q "^func $fn(" "$olddir"/*_test.go 2>/dev/null; then
	echo "abbenchcopy.sh: $ref already has func $fn: use abbench.sh" >&2
	exit 1
fi
# The function: its doc comment, from its line to the first closing brace
# in column 1.
body=$(awk -v f="func $fn(" '
	index($0, f) == 1 { on = 1; printf "%s", doc; doc = "" }
	on { print; if ($0 == "}") exit; next }
	/^\/\// { doc = doc $0 "\n"; next }
	{ doc = "" }' "$src")
copy=$olddir/zz_abbenchcopy_test.go
{
	sed -n '1,/^package /{/^package /p}' "$src"
	echo
	echo 'import ('
	# The imports of the file that the function names (name. in its text).
	awk '/^import \(/ { on = 1; next } on && /^\)/ { exit } on && /"/ { print }' "$src" |
		while read -r line; do
			path=${line//\"/}
			name=${path##*/}
			grep -q "\b$name\." <<<"$body" || continue
			if [[ $path == scrabble/move && ! -d $tmp/old/move ]]; then
				echo '	"scrabble/movegen"'
				continue
			fi
			echo "	$line"
		done | sort -u
	echo ')'
	echo
	if [[ ! -d $tmp/old/move ]] && grep -q '\bmove\.' <<<"$body"; then
		echo '// move is REF'\''s movegen for what moved to package move later.'
		echo 'var move = struct {'
		echo '	SortByScore     func([]movegen.Move)'
		echo '	ByScore, Compare func(a, b *movegen.Move) int'
		echo '}{movegen.SortByScore, movegen.ByScore, movegen.Compare}'
		echo
	fi
	echo "$body"
} >"$copy"
gofmt -w "$copy"
(cd "$tmp/old" && go test -c -o "$tmp/old.test" "$pkg")
go test -c -o "$tmp/new.test" "$pkg"
bench="^$fn\$"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'): $fn, $pkg, working tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ', modified')) against $ref"
abrounds "$rounds" "$bench" "$benchtime" "$unit" "$ref" "$tmp/new.test" "$dir" "$tmp/old.test" "$olddir"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'): done"
