#!/usr/bin/env bash
# Issue 44's attacks on the wall clock, with honest players beside them: a netcube-server process on one
# core; on the other, 8 honest netcube-bots (127.0.0.1) and the attacker at the lowest priority, so that
# what the players lose is what the server gives the attack, not what the attacker's own process takes.
# Each run twice, without the attack and then with it, and the honest round trip, the ticks skipped and
# the players' sync of both printed. Linux, 2 cores or more; the release build (cmake --preset release).
#
#   scripts/hostile-real-time.sh ATTACK ADDRESSES [SECONDS]
#     churn      ADDRESSES clients joining and leaving in a loop, one an address
#     half-open  a CONNECT from each of ADDRESSES every 10 ms, never acknowledged
#     discovery  discovery queries from ADDRESSES sources, 2.5 a second each; before the honest players
#                join, 8 browsers one after another (netcube-bot --find, a second each) look for the server
#     liars      ADDRESSES players changing keys at every input and telling of the oldest snapshot they may
#     tags       ADDRESSES players (netcube-bots, 127.0.0.2) tagging their nearest cube every 250 ms; without
#                the attack, the same players not tagging
# NETCUBE_CROWD honest netcube-bots more (127.0.0.3) play in both runs, unmeasured: a server of 256
# players beside 48 liars, say. NETCUBE_SERVER_FLAGS adds flags to the server's.
set -euo pipefail

usage() { echo "usage: $0 churn|half-open|discovery|liars|tags ADDRESSES [SECONDS]" >&2; exit 2; }
[[ $# -ge 2 && $# -le 3 ]] || usage
attack=$1
addresses=$2
seconds=${3:-20}
crowd=${NETCUBE_CROWD:-0}
[[ $attack =~ ^(churn|half-open|discovery|liars|tags)$ && $addresses =~ ^[0-9]+$ && $seconds =~ ^[0-9]+$ &&
  $crowd =~ ^[0-9]+$ ]] || usage
[[ $(nproc) -ge 2 ]] || { echo "$0: needs 2 cores (the server alone on one)" >&2; exit 1; }

root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/release/bin
for program in netcube-server netcube-bot; do
  [[ -x $bin/$program ]] || { echo "$0: $bin/$program missing: cmake --preset release && cmake --build --preset release" >&2; exit 1; }
done
load=$root/build/release/tests/hostile/netcube-hostile-load
[[ $attack == tags || -x $load ]] || { echo "$0: $load missing: build the release preset" >&2; exit 1; }
ulimit -n "$(ulimit -Hn)"  # a socket an attacking address
out=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$out"; }
trap cleanup EXIT

honest=8
players=$((honest + crowd))
[[ $attack =~ ^(liars|tags)$ ]] && players=$((players + addresses))
warm=$((players / 100 + 3))  # the attack's head start, seconds; the crowds join 100 a second

# One run: $1 = "without" or "with" the attack. Prints what the honest players and the server measured.
run() {
  local with=$1 port=$((20000 + RANDOM % 20000))
  local dport=$((port + 1))
  local stats=$out/server-$with.json report=$out/honest-$with.json
  pids=()
  taskset -c 0 "$bin/netcube-server" --port "$port" --max-clients "$players" --max-per-address "$players" \
    --discovery on --discovery-port "$dport" --stats-json "$stats" ${NETCUBE_SERVER_FLAGS:-} >"$out/server-$with.log" 2>&1 &
  local server=$!
  pids+=("$server")
  sleep 0.5
  if [[ $crowd -gt 0 ]]; then
    taskset -c 1 "$bin/netcube-bot" --connect "127.0.0.1:$port" --source 127.0.0.3 --count "$crowd" \
      --join-interval-ms 10 --duration $((warm + seconds + 15)) >"$out/crowd.log" 2>&1 &
    pids+=("$!")
  fi
  if [[ $attack == tags ]]; then  # the same crowd in both runs, tagging only in the second
    local tagging=()
    [[ $with == with ]] && tagging=(--tag-interval-ms 250)
    taskset -c 1 "$bin/netcube-bot" --connect "127.0.0.1:$port" --source 127.0.0.2 --count "$addresses" \
      --join-interval-ms 10 "${tagging[@]}" --duration $((warm + seconds + 15)) >"$out/attack.log" 2>&1 &
    pids+=("$!")
  elif [[ $with == with ]]; then
    case $attack in
      churn|half-open|liars)
        taskset -c 1 nice -n 19 "$load" --attack "$attack" --addresses "$addresses" --port "$port" \
          --seconds $((warm + seconds + 15)) >"$out/attack.log" 2>&1 & ;;
      discovery)
        taskset -c 1 nice -n 19 "$load" --attack discovery --addresses "$addresses" --port "$dport" \
          --rate $((addresses * 5 / 2)) --seconds $((warm + seconds + 15)) >"$out/attack.log" 2>&1 & ;;
    esac
    pids+=("$!")
  fi
  sleep "$warm"
  local found=""
  if [[ $attack == discovery ]]; then
    local answered=0 browser
    for browser in 1 2 3 4 5 6 7 8; do  # each a new browser, its first query during the flood
      if taskset -c 1 "$bin/netcube-bot" --find --discovery-port "$dport" --discovery-address 127.0.0.1 \
        --find-seconds 1 2>&1 | grep -q "127.0.0.1"; then answered=$((answered + 1)); fi
    done
    found=", browsers that found the server: $answered of 8"
  fi
  taskset -c 1 "$bin/netcube-bot" --connect "127.0.0.1:$port" --count "$honest" --duration "$seconds" \
    --report "$report" >"$out/honest-$with.log" 2>&1 || true
  kill -INT "$server"
  wait "$server" || true
  python3 - "$with" "$report" "$stats" "$found" <<'PY'
import json, sys
with_, report, stats, found = sys.argv[1:]
try:
    played = json.load(open(report))
    totals, players = played["totals"], played["players"]
    full = sum(p["snapshots_full"] for p in players)
    delta = sum(p["snapshots_delta"] for p in players)
    down = sum(p["bytes_down"] for p in players) / len(players)
    honest = (f"honest round trip {totals['rtt_ms_mean']:.1f} ms, "
              f"{'all' if totals['all_final_match'] else 'NOT all'} in sync, "
              f"{100 * delta / max(full + delta, 1):.0f}% deltas, {down:,.0f} B down a player")
except (OSError, ValueError, KeyError):
    honest = "the honest players did not play (no report)"
server = json.load(open(stats))
print(f"  {with_:7} the attack: {honest}; server players at most {server['clients_peak']}, "
      f"ticks skipped {server['ticks_skipped']}, "
      f"tick p99 {server['tick_us_p99']} us, network p99 {server['network_us_p99']} us{found}"
      + (f", tags judged {server['tags_judged']} ({server['tags_hit']} hits)" if server['tags_judged'] else ""))
PY
  for pid in "${pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ $with == with && $attack != tags ]]; then sed 's/^/          the attacker: /' "$out/attack.log"; fi
  return 0
}

echo "$attack, $addresses addresses, $honest honest players over $seconds s:"
run without
run with
