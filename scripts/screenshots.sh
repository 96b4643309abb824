#!/usr/bin/env bash
# Renders the README's screenshots: the lab (netcube-client --lab) under a 250 ms round trip (125 ms each
# way for both players) with each technique preset, into docs/images/lab-{naive,predicted,full}.png, the
# default lab (player 1 full, player 2 naive) at the default window size, 1280 x 720 (lab-1280x720.png), with
# tags (lab-tagging.png), with a collision (lab-collision.png), with the snapshot encoding switched from full
# to delta mid-run (lab-bandwidth.png), with a crowd and player 1's relevant set (lab-interest.png), with a blackout explained and scrubbed back to (lab-explained.png)
# and forked with more view delay (lab-fork.png), with a collision while
# predicting the others (lab-collision-predict-others.png), the comparison of four builds under the
# cross-continent profile, into docs/images/compare-cross-continent.png, and of the two families
# (compare-families.png), a lab run's saved journal opened read-only (journal-viewer.png), a spectator
# following a bot on a server (client-spectator.png); and at
# both window sizes the default lab, the time machine, a comparison, a fork and the LAN panel.
# No display needed: without one the client renders offscreen. The lab runs on a virtual clock (frame i
# at i/60 s) with scripted keys, so the pictures come out the same on every run.
#
# Usage: scripts/screenshots.sh [NAME...]: only the pictures named (as their file, without .png, e.g.
# `journal-viewer lab-fork`); none: all of them.
# Environment: NETCUBE_BUILD_DIR (default build/release; built with the release preset if it has no client).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build="${NETCUBE_BUILD_DIR:-build/release}"
client="$build/bin/netcube-client"
readonly out=docs/images
# 3.5 s of play: player 1 circles, player 2 drives a rectangle away from it (they never touch, so every
# correction on screen would be the netcode's) and is still moving when the frame is taken.
readonly frames=210
readonly script1=circle
readonly script2="R:800,U:600,L:800,D:600,R:800"
readonly only=("$@")

# Whether picture $1 is to be made.
wanted() {
  [[ ${#only[@]} -eq 0 ]] && return 0
  local name
  for name in "${only[@]}"; do [[ "$name" == "$1" ]] && return 0; done
  return 1
}

if [[ ! -x "$client" ]]; then
  if [[ -n "${NETCUBE_BUILD_DIR:-}" ]]; then
    echo "screenshots: no $client: build the netcube-client target there first" >&2
    exit 1
  fi
  cmake --preset release
  cmake --build --preset release -j "$(nproc)" --target netcube-client
fi

mkdir -p "$out"
for preset in naive predicted full; do
  wanted "lab-$preset" || continue
  "$client" --lab --preset "$preset" --latency-ms 125 --width 1600 --height 900 \
    --script "$script1" --script2 "$script2" --frames "$frames" --screenshot "$out/lab-$preset.png"
done
# The lab as it first opens, at its default 1280 x 720: every readout and table header whole.
wanted lab-1280x720 && "$client" --lab --latency-ms 125 --script "$script1" --script2 "$script2" \
  --frames "$frames" --screenshot "$out/lab-1280x720.png"
# Tagging: both players tag the nearest cube as they draw it every 400 ms.
wanted lab-tagging && "$client" --lab --preset full --latency-ms 125 --width 1600 --height 900 \
  --script "$script1" --script2 "$script2" --tag-interval-ms 400 --frames "$frames" --screenshot "$out/lab-tagging.png"
# A collision, on purpose: player 1 drives into player 2, who stands still; the frame is taken while
# player 1's prediction still runs into the cube the server has pushed back (the panels on their plots).
wanted lab-collision && "$client" --lab --preset full --latency-ms 125 --width 1600 --height 900 \
  --script "R:1600,-:1000" --script2 "-:3000" --frames 130 --panel-tab plots --screenshot "$out/lab-collision.png"
# Snapshot encodings: full for the first 4.5 s, then delta (as the server panel's toggle does): each player
# panel's "down" plot (its last 5 s, on the Plots tab) shows the drop. Both players keep moving at random.
wanted lab-bandwidth && "$client" --lab --preset full --latency-ms 125 --width 1600 --height 900 \
  --script random --script2 random --snapshot-encoding full --switch-encoding-frame 270 --frames 480 \
  --panel-tab plots --screenshot "$out/lab-bandwidth.png"
# A glitch made on purpose and explained: player 1's link blacks out for 400 ms at 2 s while player 2
# drives; the run goes on to 5 s, then is paused and scrubbed back to frame 140 (2.33 s), in the blackout:
# the timeline under the server's panel marks it, and the newest explanation names the snapshots lost.
wanted lab-explained && "$client" --lab --latency-ms 125 --width 1600 --height 900 --script "-:5000" \
  --script2 "$script2" --link-script "2s blackout 400ms client 1" --journal --frames 300 --seek 140 \
  --screenshot "$out/lab-explained.png"
# A larger arena (--arena 256x144, four times the standard's sides): each player's view follows its cube at
# the standard arena's scale, a minimap in its corner; the server's column shows the whole arena. Player 1
# drives right and down, away from the spawn, so that its view has moved.
wanted lab-large-arena && "$client" --lab --arena 256x144 --preset full --latency-ms 125 --width 1600 \
  --height 900 --script "R:2500,D:1200,-:300" --script2 "$script2" --frames 240 --screenshot "$out/lab-large-arena.png"
# The crowd lab (--crowd 120: 120 wandering players in a 256x144 arena, interest radius 24): the server's
# column draws player 1's relevant set, its circles, each member's importance and the cubes left out; each
# player's view has only its set's cubes (the others are the server's outlines). Player 1 drives as in
# lab-large-arena. The players take the server's 20 snapshots a second (no adaptive rate), so that the frame,
# two ticks after player 1's last snapshot, shows the importance its members have gained since.
wanted lab-interest && "$client" --lab --crowd 120 --preset full --adaptive-snapshot-rate off --latency-ms 125 \
  --width 1600 --height 900 --script "R:2500,D:1200,-:300" --script2 "$script2" --frames 240 \
  --screenshot "$out/lab-interest.png"
# A blackout of every link at 6 s in a comparison forked at 1 s: each entry beside a copy that draws the
# others 500 ms in the past from there (the same keys and network luck until the fork); scrubbed back to
# 6.5 s, the fork of "full" has snapshots left where the original ran out (its explanation names the loss).
wanted lab-fork && "$client" --lab --compare full,predicted --width 1600 --height 900 \
  --script "R:800,D:600,L:800,U:600,R:800,D:600,L:800,U:600,R:800" --link-script "6s blackout 400ms" \
  --fork-at 60 --fork-delay-ms 500 --journal --frames 480 --seek 390 --screenshot "$out/lab-fork.png"
# Both window sizes, 1280 x 720 (the default) and 1600 x 900, of what a newcomer opens, nothing cut (the test
# LabLayoutTest checks ImGui's rectangles; these show them): the default lab at 1600 x 900 (at 1280 x 720 it
# is lab-1280x720), the time machine at 1280 x 720 (at 1600 x 900 it is lab-explained), a comparison of
# three presets under cross-continent, the comparison forked at 1280 x 720 (at 1600 x 900 it is lab-fork),
# and the client's LAN panel before any server answers.
dims() { echo "--width ${1%x*} --height ${1#*x}"; }
wanted lab-default-1600x900 && "$client" --lab --latency-ms 125 $(dims 1600x900) --script "$script1" \
  --script2 "$script2" --frames "$frames" --screenshot "$out/lab-default-1600x900.png"
wanted lab-time-machine-1280x720 && "$client" --lab --latency-ms 125 $(dims 1280x720) --script "-:5000" \
  --script2 "$script2" --link-script "2s blackout 400ms client 1" --journal --frames 300 --seek 140 \
  --screenshot "$out/lab-time-machine-1280x720.png"
wanted lab-fork-1280x720 && "$client" --lab --compare full,predicted $(dims 1280x720) \
  --script "R:800,D:600,L:800,U:600,R:800,D:600,L:800,U:600,R:800" --link-script "6s blackout 400ms" \
  --fork-at 60 --fork-delay-ms 500 --journal --frames 480 --seek 390 --screenshot "$out/lab-fork-1280x720.png"
for size in 1280x720 1600x900; do
  wanted "lab-compare-$size" && "$client" --lab --compare naive,predicted,full $(dims $size) \
    --script "$script2" --profile cross-continent --frames "$frames" --screenshot "$out/lab-compare-$size.png"
  wanted "lan-$size" && "$client" $(dims $size) --frames 2 --screenshot "$out/lan-$size.png"
done
# The comparison under cross-continent (docs/COMPARE.md): the command and its figures are doc-figures.sh's,
# which the test Docs.figures checks the docs against.
# The two families under cross-continent (README, "Two families"), the same way.
if wanted compare-cross-continent || wanted compare-families; then
  NETCUBE_BUILD_DIR="$build" scripts/doc-figures.sh --plot "$out/compare-cross-continent.png" \
    --families-plot "$out/compare-families.png" >/dev/null
fi
# The collision above with the other cubes predicted: player 1's prediction meets player 2 where the server
# does.
wanted lab-collision-predict-others && "$client" --lab --preset predict-others --latency-ms 125 \
  --width 1600 --height 900 --script "R:1600,-:1000" --script2 "-:3000" --frames 130 \
  --screenshot "$out/lab-collision-predict-others.png"
# A journal shared (docs/LAB.md, "Sharing a run"): a lab run saves its journal (--journal-out): player 1's
# link blacks out at 1.5 s, player 2's clock steps at 3.5 s, both links' latency rises at 4.5 s; then
# --open-journal shows the file, read-only, with its lanes and every explanation. Both run in a scratch
# folder, named plainly (argv[0] and the file are in the picture), so it comes out the same anywhere.
if wanted journal-viewer; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  client_path=$(realpath "$client")
  picture=$(realpath "$out")/journal-viewer.png
  (cd "$scratch" && SDL_VIDEODRIVER=offscreen exec -a netcube-client "$client_path" --lab --width 1280 \
    --height 720 --script "$script1" --script2 "$script2" --frames 360 --journal-out run.ncj \
    --link-script "1.5s blackout 400ms client 1; 3.5s clock +300ms client 2; 4.5s latency 150ms for 1s")
  (cd "$scratch" && SDL_VIDEODRIVER=offscreen exec -a netcube-client "$client_path" --open-journal run.ncj \
    --width 1280 --height 720 --frames 2 --screenshot "$picture")
fi
# A spectator (netcube-client --spectate 1) on a real server: 8 bots wander a 128x72 arena with interest
# management on; the camera follows bot 1 (ids from 0), the others around it as the server sends them, a
# minimap in the corner. Unlike the lab's pictures it runs on the real clock, so no two runs are the same.
if wanted client-spectator; then
  for tool in netcube-server netcube-bot; do
    [[ -x "$build/bin/$tool" ]] || cmake --build "$build" -j "$(nproc)" --target "$tool"
  done
  log=$(mktemp)
  "$build/bin/netcube-server" --bind 127.0.0.1 --port 0 --arena 128x72 --max-per-address 16 --interest on \
    --interest-radius 40 --discovery off --duration 12 >"$log" 2>&1 &
  server_pid=$!
  port=""
  for _ in $(seq 50); do
    port=$(sed -n 's/^netcube-server listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log")
    [[ -n "$port" ]] && break
    sleep 0.1
  done
  [[ -n "$port" ]] || { echo "screenshots: the server did not start: $(cat "$log")" >&2; exit 1; }
  "$build/bin/netcube-bot" --connect "127.0.0.1:$port" --count 8 --duration 10 --script random >/dev/null &
  bots_pid=$!
  sleep 1.5
  "$client" --connect "127.0.0.1:$port" --spectate 1 --width 1280 --height 720 --frames 240 \
    --screenshot "$out/client-spectator.png"
  wait "$bots_pid" "$server_pid"
  rm -f "$log"
fi
ls -l "$out"/lab-*.png "$out"/compare-*.png "$out"/journal-*.png "$out"/lan-*.png "$out"/client-*.png
