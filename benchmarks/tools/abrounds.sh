# Sourced by abbench.sh and abbenchcopy.sh.
#
# abworktree REF: a scratch directory tmp (removed on exit) holding a
# detached worktree of REF in $tmp/old, the build for this machine's
# processor (GOAMD64, as make builds), run from the repository's root.
abworktree() {
	tmp=$(mktemp -d)
	trap 'git -C "$root" worktree remove --force "$tmp/old" 2>/dev/null || true; rm -rf "$tmp"' EXIT
	cd "$root"
	GOAMD64=${GOAMD64:-$(sh scripts/goamd64.sh)}
	export GOAMD64
	git worktree add -q --detach "$tmp/old" "$1"
}

# abrounds runs two Go test
# binaries' benchmark in turn, ROUNDS times (the side going first
# alternating), and prints each round and, at the end, the median of the
# pairwise ratios new/old with their quartiles.
#
# abrounds ROUNDS BENCH BENCHTIME UNIT REF NEW.test NEWDIR OLD.test OLDDIR
abrounds() {
	local rounds=$1 bench=$2 benchtime=$3 unit=$4 ref=$5 newbin=$6 newdir=$7 oldbin=$8 olddir=$9
	local r n o q ratios=()
	run() { # binary dir
		(cd "$2" && "$1" -test.run '^$' -test.bench "$bench" -test.benchtime "$benchtime" |
			awk -v u="$unit" '/^Benchmark/ { for (i = 2; i <= NF; i++) if ($i == u) { print $(i-1); exit } }')
	}
	for ((r = 1; r <= rounds; r++)); do
		if ((r % 2)); then
			n=$(run "$newbin" "$newdir")
			o=$(run "$oldbin" "$olddir")
		else
			o=$(run "$oldbin" "$olddir")
			n=$(run "$newbin" "$newdir")
		fi
		if [[ -z $n || -z $o ]]; then
			echo "round $r: no $unit figure from the benchmark (new '$n', old '$o')" >&2
			return 1
		fi
		q=$(awk -v n="$n" -v o="$o" 'BEGIN { printf "%.4f", n / o }')
		ratios+=("$q")
		echo "round $r: new $n old $o $unit, new/old $q"
	done
	printf '%s\n' "${ratios[@]}" | sort -g | awk -v b="$bench" -v u="$unit" -v ref="$ref" '
		{ v[NR] = $1 }
		function q(p,  i) { i = 1 + p * (NR - 1); return v[int(i)] + (i - int(i)) * (v[int(i) + 1] - v[int(i)]) }
		END { printf "%s (%s), %d rounds: new/old median %.4f (quartiles %.4f-%.4f) against %s\n", b, u, NR, q(0.5), q(0.25), q(0.75), ref }'
}
