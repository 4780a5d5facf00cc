#!/usr/bin/env bash
# The five speed comparisons of issue 27, each measured in one run against
# a build of REF, interleaved (the side going first alternating), ROUNDS
# rounds, the median of the pairwise ratios printed with its quartiles and
# the target. This machine's speed drifts by 30% and more within an hour:
# only ratios taken side by side like this mean anything.
#
#   1. start-up: `selfplay --games 1`, whole process (new/old time; target
#      at most 0.25);
#   2. one position's best move, whole process: `best --board POS --rack
#      AEINRST` (target at most 0.5);
#   3. every move with equity, sorted, in-process: BenchmarkMovesSorted,
#      the same benchmark source built against both trees (abbenchcopy.sh;
#      positions/s new/old: the speed-up; target at least 1.5);
#   4. self-play on 2 workers against 1, in-process, this tree only
#      (BenchmarkSelfPlayGamesLeaves2Workers and ...Leaves: games/s ratio,
#      each round one side between two runs of the other; target at least
#      1.95);
#   5. best by equity (BenchmarkBestEquity) and self-play on one worker
#      (abselfplay.sh), in-process (old/new time; target at least 1.25).
#
# usage: benchmarks/tools/speedcheck.sh [REF] [ROUNDS] [STEPS]
#   REF: default 21519d3 (the issue's baseline); ROUNDS: default 20;
#   STEPS: which comparisons, e.g. 12 or 5 (default 12345).
# Needs SCRABBLE_LEXICA_DIR (NWL23.txt). Takes about 15 minutes.
set -euo pipefail
ref=${1:-21519d3} rounds=${2:-20} steps=${3:-12345}
: "${SCRABBLE_LEXICA_DIR:?set SCRABBLE_LEXICA_DIR (the shared word lists)}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tools=$root/benchmarks/tools
. "$tools/abrounds.sh"
abworktree "$ref" # REF in $tmp/old; now in the repository's root

# summarize NAME TARGET: the median and quartiles of the ratios on stdin
# (one a line), with the target (e.g. "<= 0.25").
summarize() {
	sort -g | awk -v name="$1" -v target="$2" '
		{ v[NR] = $1 }
		function q(p,  i) { i = 1 + p * (NR - 1); return v[int(i)] + (i - int(i)) * (v[int(i) + 1] - v[int(i)]) }
		END {
			m = q(0.5); split(target, t, " ")
			ok = (t[1] == "<=") ? (m <= t[2]) : (m >= t[2])
			printf "%-48s median %.3f (quartiles %.3f-%.3f), %d rounds; target %s: %s\n", name, m, q(0.25), q(0.75), NR, target, ok ? "met" : "NOT met"
		}'
}

echo "speedcheck against $ref, $rounds rounds, $(date -u '+%Y-%m-%d %H:%M UTC')"
(cd benchmarks/tools/memlat && go run . 2>/dev/null) | sed 's/^/memlat: /' || true

results=$tmp/results
: >"$results"

if [[ $steps == *1* || $steps == *2* ]]; then
	(cd "$tmp/old" && go build -o "$tmp/old.bin" ./cmd/scrabble)
	go build -o "$tmp/new.bin" ./cmd/scrabble
	for side in old new; do
		"$tmp/$side.bin" --data-dir "$tmp/$side-data" lexicon add NWL23 "$SCRABBLE_LEXICA_DIR/NWL23.txt" >/dev/null 2>&1
	done
	# whole SIDE ARGS...: the seconds five runs of the command take.
	whole() {
		local side=$1 s e
		shift
		s=$(date +%s%N)
		for _ in 1 2 3 4 5; do "$tmp/$side.bin" --data-dir "$tmp/$side-data" --lexicon NWL23 "$@" >/dev/null 2>&1; done
		e=$(date +%s%N)
		echo $(((e - s) / 1000))
	}
	# pairs NAME TARGET ARGS...: ROUNDS interleaved rounds, new/old.
	pairs() {
		local name=$1 target=$2 r n o
		shift 2
		whole new "$@" >/dev/null # the page cache warm for both
		whole old "$@" >/dev/null
		for ((r = 1; r <= rounds; r++)); do
			if ((r % 2)); then n=$(whole new "$@"); o=$(whole old "$@"); else o=$(whole old "$@"); n=$(whole new "$@"); fi
			awk -v n="$n" -v o="$o" 'BEGIN { printf "%.4f\n", n / o }'
			echo "  round $r: new $((n / 5)) us, old $((o / 5)) us" >&2
		done | summarize "$name (new/old time)" "$target" | tee -a "$results"
	}
	[[ $steps == *1* ]] && pairs "1. start-up, selfplay --games 1" "<= 0.25" selfplay --games 1 --seed 1
	[[ $steps == *2* ]] && pairs "2. best, whole process" "<= 0.5" best --board "$root/examples/pos.txt" --rack AEINRST
fi

if [[ $steps == *3* ]]; then
	# The same benchmark source on both trees (copied into REF's).
	"$tools/abbenchcopy.sh" "$ref" ./benchmarks BenchmarkMovesSorted "$rounds" 1s positions/s 2>&1 | tee "$tmp/ms.txt" | sed 's/^/  /' >&2
	awk '/^round/ { print $NF }' "$tmp/ms.txt" | summarize "3. every move with equity, sorted (speed-up)" ">= 1.5" | tee -a "$results"
fi

if [[ $steps == *4* ]]; then
	(cd selfplay && go test -c -o "$tmp/selfplay.test" .)
	rate() { (cd selfplay && "$tmp/selfplay.test" -test.run '^$' -test.bench "^BenchmarkSelfPlayGamesLeaves$1\$" -test.benchtime 600x |
		awk '/^Benchmark/ { for (i = 2; i <= NF; i++) if ($i == "games/s") { print $(i-1); exit } }'); }
	# Each round sandwiches one side between two runs of the other (1-2-1,
	# then 2-1-2), the sandwiching side's mean against the middle run, so
	# that a drift of the machine within the round cancels out.
	for ((r = 1; r <= rounds; r++)); do
		if ((r % 2)); then
			a=$(rate ""); two=$(rate 2Workers); b=$(rate "")
			one=$(awk -v a="$a" -v b="$b" 'BEGIN { print (a + b) / 2 }')
		else
			a=$(rate 2Workers); one=$(rate ""); b=$(rate 2Workers)
			two=$(awk -v a="$a" -v b="$b" 'BEGIN { print (a + b) / 2 }')
		fi
		awk -v a="$two" -v b="$one" 'BEGIN { printf "%.4f\n", a / b }'
		echo "  round $r: 2 workers $two, 1 worker $one games/s" >&2
	done | summarize "4. self-play, 2 workers over 1 (games/s)" ">= 1.95" | tee -a "$results"
fi

if [[ $steps == *5* ]]; then
	"$tools/abbench.sh" "$ref" ./benchmarks '^BenchmarkBestEquity$' "$rounds" 1s ns/op 2>&1 | tee "$tmp/be.txt" | sed 's/^/  /' >&2
	awk '/^round/ { print 1 / $NF }' "$tmp/be.txt" | summarize "5a. best by equity (speed-up)" ">= 1.25" | tee -a "$results"
	"$tools/abselfplay.sh" "$ref" "$rounds" 100 2>&1 | tee "$tmp/sp.txt" | sed 's/^/  /' >&2
	# abselfplay prints one line: "... new/old time mean M, median X, quartiles A-B".
	sed -n 's/.*median \([0-9.]*\), quartiles \([0-9.]*\)-\([0-9.]*\).*/\1 \2 \3/p' "$tmp/sp.txt" |
		awk -v r="$rounds" '{ m = 1 / $1; ok = m >= 1.25 ? "met" : "NOT met"
			printf "%-48s median %.3f (quartiles %.3f-%.3f), %d rounds; target >= 1.25: %s\n", "5b. self-play, one worker (speed-up)", m, 1 / $3, 1 / $2, r, ok }' |
		tee -a "$results"
fi

echo
echo "summary ($ref, $(date -u '+%H:%M UTC')):"
cat "$results"
