#!/usr/bin/env bash
# The demo (README): installs the dependencies, builds the release preset, then opens the lab
# (netcube-client --lab): an in-process server and two players talking ENet over loopback, drawn side by
# side. Player 1 (arrow keys) has every technique on, player 2 (W A S D) none, both behind a 250 ms round
# trip; every technique, the link conditions and the server's rates can be changed live in the window.
# Extra arguments go to netcube-client (e.g. --preset predicted, --latency-ms 250).
#
# Without a display (no DISPLAY or WAYLAND_DISPLAY) the lab is rendered offscreen with scripted players
# and the last frame is written to build/release/demo/lab.png instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

readonly bin=build/release/bin
readonly out=build/release/demo

scripts/setup-deps.sh
cmake --preset release
cmake --build --preset release -j "$(nproc)" --target netcube-client netcube-server netcube-bot

if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  echo "==== netcube lab: player 1 = arrow keys (preset full), player 2 = W A S D (preset naive), 250 ms round trip"
  exec "$bin/netcube-client" --lab "$@"
fi

mkdir -p "$out"
echo "==== no display: rendering 4 s of the lab with scripted players offscreen"
"$bin/netcube-client" --lab --script circle --script2 "L:800,U:600,R:800,D:600,L:800" \
  --width 1600 --height 900 --frames 240 --screenshot "$out/lab.png" "$@"
echo "demo: look at $out/lab.png, or run scripts/demo.sh on a desktop for the live window"
