#!/usr/bin/env bash
# Installs a build into a temporary prefix, moves the installed tree elsewhere (so only a lookup relative
# to the executable can find the data), and runs the installed programs: --version of each, a bench
# scenario that reads the link profiles, a bot against an installed server, the server's SIGUSR1 and
# --stats-interval; and `systemd-analyze verify` on the installed unit where systemd-analyze exists.
#   install_test.sh BUILD_DIR
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'kill "${server_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
unset NETCUBE_ASSETS_DIR

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
mv "$work/prefix" "$work/moved"
root=$work/moved
for file in bin/netcube-server bin/netcube-bot bin/netcube-bench share/netcube/link_profiles.json \
            share/doc/netcube/README.md share/doc/netcube/docs/PROTOCOL.md share/doc/netcube/copyright \
            lib/systemd/system/netcube-server.service \
            etc/default/netcube-server; do
  [[ -e $root/$file ]] || { echo "not installed: $file"; exit 1; }
done

# The copyright file in Debian's machine-readable format: the format line, netcube's own stanza under the
# MIT (Expat) licence, and every License named in a stanza given its text in a standalone paragraph.
copyright=$root/share/doc/netcube/copyright
head -1 "$copyright" | grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
  { echo "copyright: not in the machine-readable format"; exit 1; }
grep -Pzq 'Files: \*\nCopyright: 2026 the netcube authors\nLicense: Expat\n' "$copyright" ||
  { echo "copyright: no stanza for netcube's own files under Expat"; exit 1; }
for license in $(sed -n 's/^License: //p' "$copyright" | sort -u); do
  grep -Pzq "\n\nLicense: $license\n [^\n]" "$copyright" || { echo "copyright: no text for License: $license"; exit 1; }
done
echo "copyright: $(grep -c '^Files:' "$copyright") stanzas, licences $(sed -n 's/^License: //p' "$copyright" | sort -u | xargs)"

version=$(sed -n 's/^project(netcube VERSION \([0-9.]*\).*/\1/p' "$(dirname "$0")/../../CMakeLists.txt")
for program in netcube-server netcube-bot netcube-bench $([[ -e $root/bin/netcube-client ]] && echo netcube-client); do
  line=$("$root/bin/$program" --version)
  [[ $line =~ ^$program\ $version\ \(protocol\ [0-9]+\)$ ]] || { echo "bad --version of $program: '$line'"; exit 1; }
  echo "$line"
done

# The link profiles, found beside the moved executable: one short run of one profile shows it.
"$root/bin/netcube-bench" --scenario profiles --profiles cross-continent --seconds 1 --key-trials 1 \
  --input-buffers on --snapshot-encodings delta >"$work/bench.log" 2>&1 || { cat "$work/bench.log"; exit 1; }
grep -q "== profile cross-continent: " "$work/bench.log" ||
  { echo "the bench did not run the profiles"; cat "$work/bench.log"; exit 1; }

# The unit, its ExecStart pointed at the installed server (the prefix it names is not this one).
if command -v systemd-analyze >/dev/null; then
  sed "s|^ExecStart=[^ ]*|ExecStart=$root/bin/netcube-server|" "$root/lib/systemd/system/netcube-server.service" \
    >"$work/netcube-server.service"
  systemd-analyze verify "$work/netcube-server.service"
  echo "systemd-analyze verify: the unit passes"
else
  echo "systemd-analyze is not installed (Debian package systemd): the unit was not verified"
fi

# A bot against an installed server, on a port of this run's own, below Linux's ephemeral ports (32768
# and up: a socket bound to port 0 elsewhere cannot hold it).
port=$((20000 + ($$ * 7) % 12000))
"$root/bin/netcube-server" --port "$port" --discovery off --duration 20 --stats-json "$work/stats.json" \
  --stats-interval 0.2 >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q listening "$work/server.log" && break; sleep 0.1; done
"$root/bin/netcube-bot" --connect "127.0.0.1:$port" --count 2 --duration 1 >"$work/bot.log" 2>&1 ||
  { cat "$work/server.log" "$work/bot.log"; exit 1; }
grep -c "final state matches the server" "$work/bot.log" | grep -qx 2 || { cat "$work/bot.log"; exit 1; }
# --stats-interval rewrites the file while the server runs (within 10 s, however loaded the machine); SIGUSR1
# logs the statistics.
for _ in $(seq 100); do grep -q '"clients_peak": 2' "$work/stats.json" 2>/dev/null && break; sleep 0.1; done
grep -q '"clients_peak": 2' "$work/stats.json" || { echo "stats file not rewritten"; cat "$work/stats.json"; exit 1; }
kill -USR1 "$server_pid"
for _ in $(seq 100); do grep -q '^stats {' "$work/server.log" && break; sleep 0.1; done
grep -q '^stats {.*"clients_peak":2' "$work/server.log" || { echo "no stats line on SIGUSR1"; cat "$work/server.log"; exit 1; }
kill -TERM "$server_pid"
wait "$server_pid"
echo "installed tree works: $(cat "$work/bot.log" | wc -l) bots settled against the installed server"
