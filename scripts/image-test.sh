#!/usr/bin/env bash
# Checks the container image (make image) against the same static binary run
# on the host: a lexicon compiled inside the container, a self-play run as two
# shards in two containers merged on the host, and a queue run whose only
# worker is a container. Every output must equal, byte for byte, the host's
# one-machine run of the same settings. Needs SCRABBLE_LEXICA_DIR (NWL23.txt)
# and the image `scrabble` built by `make image` from this tree.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
lexica=${SCRABBLE_LEXICA_DIR:?scripts/image-test.sh: set SCRABBLE_LEXICA_DIR to the directory holding NWL23.txt}
lexica=$(cd "$lexica" && pwd)
host=$root/build/image/scrabble
ctr() { sh "$root/scripts/container.sh" "$@"; }
tmp=$(mktemp -d)
nats_pid=
cleanup() {
	[ -z "$nats_pid" ] || kill "$nats_pid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "image-test: FAIL: $*" >&2; exit 1; }

data=$tmp/data
mkdir -p "$data"
run() { ctr run --rm --network host -v "$data:/data" -v "$lexica:/lexica:ro" scrabble "$@"; }

echo "== the image's build is the host binary's"
want=$("$host" version | sed -n 's/^commit: *//p')
got=$(run version | sed -n 's/^commit: *//p')
[ -n "$want" ] && [ "$want" = "$got" ] || fail "image's commit '$got', host binary's '$want'"

echo "== lexicon add inside the container, into the mounted /data"
run lexicon add NWL23 /lexica/NWL23.txt
SCRABBLE_DATA_DIR=$data "$host" lexicon info NWL23 >/dev/null || fail "the host binary cannot read the lexicon the container compiled"

settings=(--lexicon NWL23 selfplay --games 12 --pairs --p1 equity --p2 score --seed 30)
echo "== two shards in two containers, merged on the host, against one host run"
SCRABBLE_DATA_DIR=$data "$host" "${settings[@]}" --threads 2 --out "$data/one" >/dev/null
run "${settings[@]}" --shard 1/2 --threads 1 --out /data/part1 >/dev/null
run "${settings[@]}" --shard 2/2 --threads 2 --out /data/part2 >/dev/null
# A run writes results.jsonl as games finish; merge puts a run (or its
# shards) in game order, so the one-machine run is merged alone to compare.
merge() { SCRABBLE_DATA_DIR=$data "$host" selfplay merge --json --out "$@"; }
merge "$data/one-merged" "$data/one" >"$tmp/one.json"
merge "$data/merged" "$data/part1" "$data/part2" >"$tmp/merged.json"
diff "$tmp/one.json" "$tmp/merged.json" || fail "the merged shards' summary differs from the one-machine run's"
diff -r "$data/one-merged" "$data/merged" || fail "the merged shards differ from the one-machine run"

echo "== a queue run: NATS server and coordinator on the host, the worker in a container"
(cd "$root" && go build -o "$tmp/nats-server" github.com/nats-io/nats-server/v2)
port=$((20000 + RANDOM % 20000))
"$tmp/nats-server" -js -sd "$tmp/js" -a 127.0.0.1 -p "$port" >"$tmp/nats.log" 2>&1 &
nats_pid=$!
# The coordinator gives up after two minutes: a worker that refuses the
# items (another build) leaves it waiting for ever otherwise.
SCRABBLE_DATA_DIR=$data timeout 120 "$host" "${settings[@]}" --queue "nats://127.0.0.1:$port" --shards 3 \
	--connect-wait 30s --out "$data/queued" >"$tmp/coordinator.log" 2>&1 &
coord=$!
run worker --queue "nats://127.0.0.1:$port" --id container-1 --idle 5s --connect-wait 30s \
	>"$tmp/worker.log" 2>&1 || { cat "$tmp/worker.log" >&2; fail "the worker in the container failed"; }
wait "$coord" || { cat "$tmp/coordinator.log" "$tmp/worker.log" >&2; fail "the coordinator failed"; }
merge "$data/queued-merged" "$data/queued" >"$tmp/queued.json"
diff "$tmp/one.json" "$tmp/queued.json" || fail "the queue run's summary differs from the one-machine run's"
diff -r "$data/one-merged" "$data/queued-merged" || fail "the queue run differs from the one-machine run"
grep -q 'container-1' "$tmp/worker.log" "$tmp/coordinator.log" || fail "no sign of the container's worker in the logs"

echo "image-test: ok (lexicon, shards and merge, queue worker: identical to the host's run)"
