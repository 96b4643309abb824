#!/usr/bin/env bash
# The demo (README): installs the dependencies, builds the release preset, then runs an authoritative
# server and two headless bot players against it under simulated lag (125 ms each way, ±10 ms jitter, 2 %
# loss) for a bounded time, printing what happens. Until the graphical client exists this is the whole
# demo: watch the server's status lines and the bots' reports (reconciliations, corrections, round trip).
#
# Environment: NETCUBE_DEMO_SECONDS (default 20) how long the bots play, NETCUBE_DEMO_PORT (default 7777).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds="${NETCUBE_DEMO_SECONDS:-20}"
port="${NETCUBE_DEMO_PORT:-7777}"
readonly bin=build/release/bin
readonly out=build/release/demo

scripts/setup-deps.sh
cmake --preset release
cmake --build --preset release -j "$(nproc)" --target netcube-server netcube-bot

mkdir -p "$out"
rm -f "$out/server-stats.json" "$out/bots-report.json"

# Every process this script starts, so the trap can stop exactly those (by id) on any exit.
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2> /dev/null; then
      kill -TERM "$pid" 2> /dev/null || true
      wait "$pid" 2> /dev/null || true
    fi
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo
echo "==== netcube demo: a server on UDP ${port} and 2 bots at 125 ms ±10 ms, 2 % loss, for ${seconds} s"
# The server outlives the bots by a margin (they settle and say goodbye first); it is stopped below.
"$bin/netcube-server" --port "$port" --duration $((seconds + 60)) --stats-json "$out/server-stats.json" \
  > >(sed -u 's/^/[server] /') 2>&1 &
server_pid=$!
pids+=("$server_pid")
sleep 1
if ! kill -0 "$server_pid" 2> /dev/null; then
  echo "demo: the server did not start (is UDP port ${port} in use? set NETCUBE_DEMO_PORT)" >&2
  exit 1
fi

bot_status=0
"$bin/netcube-bot" --connect "127.0.0.1:${port}" --count 2 --duration "$seconds" --preset full \
  --latency-ms 125 --jitter-ms 10 --loss 0.02 --script random --report "$out/bots-report.json" \
  > >(sed -u 's/^/[bots]   /') 2>&1 &
bot_pid=$!
pids+=("$bot_pid")
wait "$bot_pid" || bot_status=$?

# A clean stop: the server says goodbye to everyone and writes its statistics.
kill -INT "$server_pid" 2> /dev/null || true
server_status=0
wait "$server_pid" || server_status=$?

echo
echo "==== server statistics (${out}/server-stats.json)"
cat "$out/server-stats.json" 2> /dev/null || echo "(none written)"
echo "==== the bots' full report: ${out}/bots-report.json"
if [[ $bot_status -ne 0 || $server_status -ne 0 ]]; then
  echo "demo: FAILED (bots exit ${bot_status}, server exit ${server_status})" >&2
  exit 1
fi
echo "demo: done"
