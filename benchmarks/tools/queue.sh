#!/bin/sh
# queue.sh [GAMES [ROUNDS [ITEMS]]]: what the NATS JetStream queue costs,
# as ratios measured in one run: ROUNDS interleaved rounds (default 20), each
# playing GAMES games (default 2000) of equity against score, NWL23, in one
# process on 1 and 2 threads and with selfplay --queue and 1, 2 and 4 worker
# processes of 1 thread each (the order alternating from round to round).
# Prints each round's games/s and ratios, then the median of the pairwise
# ratios (queue, 1 worker / in-process, 1 thread; 2 and 4 workers / in-process,
# 2 threads) with their quartiles. Needs SCRABBLE_LEXICA_DIR (NWL23.txt) or
# NWL23 installed. Builds scrabble and a NATS server
# (github.com/nats-io/nats-server/v2, the tests' module) into a scratch
# directory, removed at the end; every run's directory is in memory
# (/dev/shm where there is one), so that the disk's syncs do not decide the
# figures. See docs/benchmarks.md.
set -e
GAMES=${1:-2000}
ROUNDS=${2:-20}
ITEMS=${3:-}
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'kill $NATS 2>/dev/null; rm -rf "$T"' EXIT
go build -o "$T/scrabble" ./cmd/scrabble
go build -o "$T/nats-server" github.com/nats-io/nats-server/v2
RUNS=$T/runs
if [ -d /dev/shm ] && [ -w /dev/shm ]; then RUNS=$(mktemp -d /dev/shm/scrabble-queue-bench.XXXXXX); trap 'kill $NATS 2>/dev/null; rm -rf "$T" "$RUNS"' EXIT; fi
PORT=${PORT:-14299}
"$T/nats-server" -js -sd "$T/js" -a 127.0.0.1 -p "$PORT" >"$T/nats.log" 2>&1 &
NATS=$!
sleep 1
Q=nats://127.0.0.1:$PORT
S="$T/scrabble --data-dir $T/data"
RUN="--lexicon NWL23 selfplay --games $GAMES --seed 11 --p1 equity --p2 score"
$S $RUN --games 10 --out "$RUNS/warm" >/dev/null 2>&1 # compiles the lexicon's tables
# rate RUN...: the games/s of a self-play run, from its summary.
rate() { "$@" 2>/dev/null | sed -n 2p | grep -o '[0-9.,]* games/s' | tr -d , | cut -d' ' -f1; }
local_run() { rm -rf "$RUNS/local"; rate $S $RUN --threads "$1" --out "$RUNS/local"; }
queue_run() {
  PIDS=
  for i in $(seq "$1"); do $S worker --queue "$Q" --threads 1 --idle 3s --id "w$i" 2>/dev/null & PIDS="$PIDS $!"; done
  rm -rf "$RUNS/queue"
  rate $S $RUN ${ITEMS:+--shards $ITEMS} --queue "$Q" --out "$RUNS/queue"
  wait $PIDS
}
: >"$T/ratios"
for r in $(seq "$ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then
    l1=$(local_run 1); l2=$(local_run 2); q1=$(queue_run 1); q2=$(queue_run 2); q4=$(queue_run 4)
  else
    q4=$(queue_run 4); q2=$(queue_run 2); q1=$(queue_run 1); l2=$(local_run 2); l1=$(local_run 1)
  fi
  line=$(awk -v l1="$l1" -v l2="$l2" -v q1="$q1" -v q2="$q2" -v q4="$q4" 'BEGIN { printf "%.4f %.4f %.4f %.4f", q1/l1, q2/l2, q4/l2, l2/l1 }')
  echo "$line" >>"$T/ratios"
  echo "round $r: games/s in-process $l1 (1 thread) $l2 (2); queue $q1 (1 worker) $q2 (2) $q4 (4); ratios q1/l1 q2/l2 q4/l2 l2/l1: $line"
done
for c in 1 2 3 4; do
  name=$(echo "queue-1-worker/in-process-1-thread queue-2-workers/in-process-2-threads queue-4-workers/in-process-2-threads in-process-2-threads/1-thread" | cut -d' ' -f$c)
  cut -d' ' -f$c "$T/ratios" | sort -g | awk -v name="$name" '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%s: median %.3f (quartiles %.3f-%.3f), %d rounds\n", name, m, v[int((NR + 3) / 4)], v[int((3 * NR + 3) / 4)], NR }'
done
