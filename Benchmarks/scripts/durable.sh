#!/usr/bin/env bash
# Durable writes to one todo list, for one or more `bindery` builds side by side:
# C keep-alive connections (BenchLoad), each with a session of the list "default",
# rename its one item in a closed loop for 5 s, three rounds, builds alternating.
#   Benchmarks/scripts/durable.sh BINDERY [BINDERY…]   (CONNECTIONS=8 by default;
#   KEYED=1: each rename with an Idempotency-Key of its own, as the browser sends them)
# Loopback only; every run stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
load=.build/release/BenchLoad
[ -x "$load" ] || swift build -c release --product BenchLoad >/dev/null
connections=${CONNECTIONS:-8}
port=18792
run() {
  local binary=$1 dir
  dir=$(mktemp -d)
  "$binary" serve --port $port --database "$dir/b.sqlite" --log-level error \
    --max-sessions-per-client 100000 --session-burst 100000 --session-rate 100000 >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 1 50); do curl -s -o /dev/null 127.0.0.1:$port/ && break; sleep 0.1; done
  local sid
  sid=$(curl -s -X POST 127.0.0.1:$port/api/todos | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
  curl -s -o /dev/null --json '"one"' "127.0.0.1:$port/api/todos/$sid/inputs/add"
  local before after result
  before=$(awk '{ print $14 + $15 }' /proc/$pid/stat)
  result=$("$load" post --port $port --connections "$connections" --seconds 5 --warmup-seconds 1 --create /api/todos \
    --input-path '/api/todos/{sid}/inputs/rename' --body '{"id":1,"title":"renamed"}' ${KEYED:+--keyed} 2>/dev/null)
  after=$(awk '{ print $14 + $15 }' /proc/$pid/stat)
  kill -TERM $pid; wait $pid 2>/dev/null || true; rm -rf "$dir"
  echo "$result" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print("%-40s %6d/s  p50 %6.2f ms  p99 %6.2f ms  errors %d  server CPU %s ticks" % (sys.argv[1][-40:], d["requestsPerSecond"], d["p50Ms"], d["p99Ms"], d["errors"], sys.argv[2]))' "$binary" $((after - before))
}
for _ in 1 2 3; do
  for binary in "$@"; do run "$binary"; done
done
