#!/bin/sh
# queue.sh [GAMES [ITEMS]]: self-play games/s in one process (1 and 2
# threads) against the NATS JetStream queue (selfplay --queue with 1, 2 and
# 4 worker processes of 1 thread each), on this machine, NWL23, equity vs
# score. Needs SCRABBLE_LEXICA_DIR (NWL23.txt) or NWL23 installed. Builds
# scrabble and a NATS server (github.com/nats-io/nats-server/v2, the tests'
# module) into a scratch directory, which is removed at the end; every run's
# directory is in memory (/dev/shm where there is one), so that the disk's
# syncs do not decide the figures. See docs/benchmarks.md.
set -e
GAMES=${1:-2000}
ITEMS=${2:-}
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
for t in 1 2; do
  echo "in-process, --threads $t: $($S $RUN --threads $t --out "$RUNS/local$t" 2>/dev/null | sed -n 2p)"
done
for n in 1 2 4; do
  PIDS=
  for i in $(seq "$n"); do $S worker --queue "$Q" --threads 1 --idle 3s --id "w$i" 2>/dev/null & PIDS="$PIDS $!"; done
  echo "queue, $n workers: $($S $RUN ${ITEMS:+--shards $ITEMS} --queue "$Q" --out "$RUNS/queue$n" 2>/dev/null | sed -n 2p)"
  wait $PIDS
done
