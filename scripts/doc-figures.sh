#!/usr/bin/env bash
# The figures the docs quote from deterministic runs, and a check of the docs against them: the comparison
# (netcube-client --lab --compare under cross-continent, docs/COMPARE.md) and the bench's profiles scenario
# with delta snapshots, the input buffer on and off, under every profile (`netcube-bench --scenario
# profiles --snapshot-encodings delta --input-buffers on,off`: half of the sixteen combinations the
# scenario runs by default). Both run on a virtual clock, so they print the same figures on every run and
# machine, in about 20 s of CPU together.
#   scripts/doc-figures.sh [--plot FILE.png] [--csv FILE.csv] [--families-plot FILE.png]
#                                                               prints "key value" lines (and draws the runs)
#   scripts/doc-figures.sh --check [FILE...]                    fails when a tagged figure in FILE differs,
#                                                               or a figure of docs/BENCHMARKS.md is neither
#                                                               tagged nor measured (by default README.md and
#                                                               docs/*.md)
# A figure in the docs is tagged by an HTML comment right after it, which Markdown does not show:
#   naive trails them by 1.99<!-- fig compare.naive.keys_error.mean --> units
# A figure no script here can repeat in reasonable time (minutes of bots on real time, CPU times that depend
# on the machine) is quoted with the command that measured it and the date, in a comment under the
# section's heading, before its figures:
#   <!-- measured 2026-11-27: netcube-bench --scenario scale --scale-time virtual --clients 128 ... -->
# docs/BENCHMARKS.md is the reference of measured figures: in each of its sections (from one heading to the
# next) a table cell holding a number must have the number tagged, unless the section has such a note.
# Keys: compare.ENTRY.FIGURE.{mean,p99,min,max,count} for FIGURE own_error, remote_error, remote_error_drawn,
# view_delay_ms, press_delay_ms, keys_error, drift; compare.ENTRY.{remote_jumps_per_s,remote_frozen_pct,
# own_snaps_per_s,corrections,correction_max}; the same as families.ENTRY.* for the two families' comparison
# (full against predict-others, on the same hands and network);
# profiles.PROFILE.GROUP.{inputs,corrections,lost,dry_ticks,dry_pct,underruns,underruns_late,
# extrapolation_ms,interp_ms,view_delay_mean,view_delay_max,remote_error_mean,remote_error_p99,remote_step,
# loss_seen,loss_real,down_bytes_per_s,snapshot_rate} with the input buffer on, and the same under
# profiles.PROFILE.buffer-off.GROUP.* with it off; profiles.PROFILE.key_press_with_max and
# profiles.PROFILE.key_press_without_mean (buffer on) (integers with thousands commas, as the tables write
# them).
# Environment: NETCUBE_BUILD_DIR (default build/release).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${NETCUBE_BUILD_DIR:-$repo/build/release}
client=$build/bin/netcube-client

# The comparison: naive, prediction alone, prediction with reconciliation, and every technique, with the
# same hands behind the same network: a move, then a pause long enough for every drawn cube to stop.
readonly entries=naive,p,predicted,full
# The two families: interpolation (full) against the other cubes predicted to the present.
readonly families=full,predict-others
readonly script="R:700,-:900,D:500,-:900,L:900,-:900,U:500,-:900,DR:600,-:900,L:700,-:900,UR:500,-:900"

# A run prints its figures when it records them: with --plot or --csv (a throwaway one if neither is given).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# compare_figures KEY ENTRIES [--plot FILE] [--csv FILE]
compare_figures() {
  local key=$1 compared=$2
  shift 2
  local record=("$@")
  [[ $# -gt 0 ]] || record=(--csv "$work/$key.csv")
  SDL_VIDEODRIVER=offscreen "$client" --lab --compare "$compared" --profile cross-continent --script "$script" \
    --frames 720 --width 1600 --height 900 "${record[@]}" 2>/dev/null |
    sed -nE \
      -e 's/^([^ ]+) \([^)]*\): own error mean ([0-9.]+) p99 ([0-9.]+) min ([0-9.]+) max ([0-9.]+) [a-z]+ \(([0-9]+) .*/own_error \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): remote error mean ([0-9.]+) p99 ([0-9.]+) min ([0-9.]+) max ([0-9.]+) [a-z]+ \(([0-9]+) .*/remote_error \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): remote error at the moment drawn mean ([0-9.]+) p99 ([0-9.]+) min ([0-9.]+) max ([0-9.]+) [a-z]+ \(([0-9]+) .*/remote_error_drawn \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): remote view delay mean (-?[0-9.]+) p99 (-?[0-9.]+) min (-?[0-9.]+) max (-?[0-9.]+) [a-z]+ \(([0-9]+) .*/view_delay_ms \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): own corrections ([0-9]+), mean ([0-9.]+) units, the largest ([0-9.]+) units$/corrections \1 \2 \3 \4/p' \
      -e 's/^([^ ]+) \([^)]*\): key press to motion mean ([0-9.]+) p99 ([0-9.]+) min ([0-9.]+) max ([0-9.]+) [a-z]+ \(([0-9]+) .*/press_delay_ms \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): behind the keys mean ([0-9.]+) p99 ([0-9.]+) min ([0-9.]+) max ([0-9.]+) [a-z]+ \(([0-9]+) .*/keys_error \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): prediction drift mean ([0-9.]+) p99 ([0-9.]+) min ([0-9.]+) max ([0-9.]+) [a-z]+ \(([0-9]+) .*/drift \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): remote jumps ([0-9.]+) per cube and second, frozen mid-motion ([0-9.]+)% .*own snaps ([0-9.]+) per second$/smooth \1 \2 \3 \4/p' |
    while read -r figure entry a b c d e; do
      if [[ $figure == smooth ]]; then
        printf '%s.%s.remote_jumps_per_s %s\n%s.%s.remote_frozen_pct %s\n%s.%s.own_snaps_per_s %s\n' \
          "$key" "$entry" "$a" "$key" "$entry" "$b" "$key" "$entry" "$c"
      elif [[ $figure == corrections ]]; then
        printf '%s.%s.corrections %s\n%s.%s.correction_mean %s\n%s.%s.correction_max %s\n' \
          "$key" "$entry" "$a" "$key" "$entry" "$b" "$key" "$entry" "$c"
      else
        printf '%s.%s.%s.mean %s\n%s.%s.%s.p99 %s\n%s.%s.%s.min %s\n%s.%s.%s.max %s\n%s.%s.%s.count %s\n' \
          "$key" "$entry" "$figure" "$a" "$key" "$entry" "$figure" "$b" "$key" "$entry" "$figure" "$c" \
          "$key" "$entry" "$figure" "$d" "$key" "$entry" "$figure" "$e"
      fi
    done
}
# figures [--plot FILE] [--csv FILE] [--families-plot FILE]: both comparisons.
figures() {
  local main=() families_record=()
  while [[ $# -gt 0 ]]; do
    if [[ $1 == --families-plot ]]; then
      families_record=(--plot "$2")
    else
      main+=("$1" "$2")
    fi
    shift 2
  done
  compare_figures compare "$entries" "${main[@]}"
  compare_figures families "$families" "${families_record[@]}"
}

# The bench's rows for each group, under a "== profile NAME: ..." heading whose third line says whether the
# input buffer is on, e.g.
#   default  4584 0 0.000 | 0 0 7 0.2% | 0 (0) 483 | 81.3 191.3 242.9 | 0.009 0.115 0.263 | ... | 3879 - 60/s | yes yes
# and the key presses' line, "with prediction: 0 0 0 0 0 (max 0); without: 20 20 20 20 19 (mean 19.8)".
profile_figures() {
  "$build/bin/netcube-bench" --scenario profiles --profiles lan,cross-continent,lossy,harsh \
    --snapshot-encodings delta --input-buffers on,off 2>/dev/null |
    awk '
      /^== profile / { profile = $3; sub(/:$/, "", profile); next }
      /input buffer (on|off)/ { off = $0 ~ /input buffer off/; next }
      $5 == "|" && $10 == "|" && $14 == "|" && $2 ~ /^[0-9]+$/ {
        key = "profiles." profile "." (off ? "buffer-off." : "") $1 "."
        after = $12; gsub(/[()]/, "", after); pct = $9; sub(/%$/, "", pct)
        seen = $23; sub(/%$/, "", seen); real = $24; sub(/%$/, "", real); rate = $29; sub(/\/s$/, "", rate)
        print key "inputs " $2; print key "corrections " $3; print key "lost " $6; print key "dry_ticks " $8
        print key "dry_pct " pct; print key "underruns " $11; print key "underruns_late " after
        print key "extrapolation_ms " $13; print key "interp_ms " $15; print key "view_delay_mean " $16
        print key "view_delay_max " $17; print key "remote_error_mean " $19; print key "remote_error_p99 " $20
        print key "remote_step " $21; print key "loss_seen " seen; print key "loss_real " real
        print key "down_bytes_per_s " $27; print key "snapshot_rate " rate
        next
      }
      /with prediction: .*without: / && !off {
        match($0, /\(max [0-9]+\)/); with_max = substr($0, RSTART + 5, RLENGTH - 6)
        match($0, /\(mean [0-9.]+\)/); without_mean = substr($0, RSTART + 6, RLENGTH - 7)
        print "profiles." profile ".key_press_with_max " with_max
        print "profiles." profile ".key_press_without_mean " without_mean
      }' |
    sed -E ':a;s/ ([0-9]+)([0-9]{3})$/ \1,\2/;ta'
}

# check_reference FILE: every table cell of FILE with a number has it tagged, unless its section says how
# it was measured (a dated <!-- measured DATE: COMMAND --> note). A word with a digit in it (p99,
# redundancy-1) is a name, not a figure; a table's header row is not checked.
check_reference() {
  awk -v file="$1" '
    function check(row, at) {
      gsub(/-?[0-9.,]*<!-- fig [^ ]+ -->/, "", row)
      gsub(/[A-Za-z_`-]+[0-9][A-Za-z0-9_`-]*|[0-9]+[A-Za-z_-][A-Za-z0-9_-]*/, "", row)
      if (row ~ /[0-9]/) { print file ":" at ": a figure neither tagged nor under a measured note"; bad = 1 }
    }
    /^```/ { code = !code }
    code { next }
    /^#/ { measured = 0; pending = ""; next }
    /<!-- measured [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]: [^ ].* -->/ { measured = 1 }
    /^\|/ {
      if ($0 ~ /^\| *:?-+/) { pending = ""; next }  # the row before a separator is the header
      if (pending != "" && !measured) check(pending, pending_at)
      pending = $0; pending_at = NR; next
    }
    { if (pending != "" && !measured) check(pending, pending_at); pending = "" }
    END { if (pending != "" && !measured) check(pending, pending_at); exit bad }' "$1"
}

if [[ ${1:-} != --check ]]; then
  figures "$@"
  profile_figures
  exit 0
fi
shift
[[ $# -gt 0 ]] || set -- "$repo/README.md" "$repo"/docs/*.md
declare -A value
while read -r key figure; do value[$key]=$figure; done < <(figures; profile_figures)
[[ ${#value[@]} -gt 0 ]] || { echo "doc-figures.sh: $client printed no figures" >&2; exit 1; }
checked=0
failed=0
for file in "$@"; do
  # Every tag with the number written right before it, sign included (none: a mismatch), as "line:number<!-- fig key -->".
  while IFS=: read -r line text; do
    quoted=${text%%<!--*}
    key=$(sed -E 's/.*<!-- fig ([^ ]+) -->.*/\1/' <<<"$text")
    checked=$((checked + 1))
    if [[ -z ${value[$key]+set} ]]; then
      echo "$file:$line: no figure named $key"
      failed=1
    elif [[ $quoted != "${value[$key]}" ]]; then
      echo "$file:$line: $key is ${value[$key]}, the text says $quoted"
      failed=1
    fi
  done < <(grep -noE -- '-?[0-9.,]*<!-- fig [^ ]+ -->' "$file")
done
[[ $checked -gt 0 ]] || { echo "doc-figures.sh: no tagged figure in $*" >&2; exit 1; }
for file in "$@"; do
  [[ $(basename "$file") == BENCHMARKS.md ]] || continue
  check_reference "$file" || failed=1
done
echo "doc-figures.sh: $checked figures checked against the comparison and the profiles scenario"
exit "$failed"
