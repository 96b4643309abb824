#!/usr/bin/env bash
# The figures the docs quote from deterministic runs, and a check of the docs against them: the comparison
# (netcube-client --lab --compare under cross-continent, docs/COMPARE.md) and the bench's cross-continent
# profile with its defaults (delta snapshots, the input buffer on: one of the sixteen combinations
# `netcube-bench --scenario profiles` runs, which take over a minute). Both run on a virtual clock, so they
# print the same figures on every run and machine, in a few seconds together. The other profiles' figures
# in docs/BENCHMARKS.md are quoted with their command, not checked.
#   scripts/doc-figures.sh [--plot FILE.png] [--csv FILE.csv] [--families-plot FILE.png]
#                                                               prints "key value" lines (and draws the runs)
#   scripts/doc-figures.sh --check [FILE...]                    fails when a tagged figure in FILE differs
#                                                               (by default README.md and docs/*.md)
# A figure in the docs is tagged by an HTML comment right after it, which Markdown does not show:
#   naive trails them by 1.99<!-- fig compare.naive.keys_error.mean --> units
# Keys: compare.ENTRY.FIGURE.{mean,p99,min,max,count} for FIGURE own_error, remote_error, remote_error_drawn,
# view_delay_ms, press_delay_ms, keys_error, drift; compare.ENTRY.{remote_jumps_per_s,remote_frozen_pct,
# own_snaps_per_s,corrections,correction_max}; the same as families.ENTRY.* for the two families' comparison
# (full against predict-others, on the same hands and network);
# profiles.cross-continent.GROUP.{inputs,corrections,lost,dry_ticks,interp_ms,view_delay_mean,
# view_delay_max,remote_error_mean,remote_error_p99,down_bytes_per_s} (integers with thousands commas, as
# the tables write them).
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

# The bench's rows for each group, e.g.
#   default  4584 0 0.000 | 0 0 7 0.2% | 0 (0) 483 | 81.3 191.3 242.9 | 0.009 0.115 0.263 | ... | 3879 4753 60/s | yes yes
profile_figures() {
  "$build/bin/netcube-bench" --scenario profiles --profiles cross-continent --snapshot-encodings delta \
    --input-buffers on 2>/dev/null |
    awk '$5 == "|" && $10 == "|" && $14 == "|" && $2 ~ /^[0-9]+$/ {
      key = "profiles.cross-continent." $1 "."
      print key "inputs " $2; print key "corrections " $3; print key "lost " $6; print key "dry_ticks " $8
      print key "interp_ms " $15; print key "view_delay_mean " $16; print key "view_delay_max " $17
      print key "remote_error_mean " $19; print key "remote_error_p99 " $20; print key "down_bytes_per_s " $27
    }' |
    sed -E ':a;s/ ([0-9]+)([0-9]{3})$/ \1,\2/;ta'
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
  # Every tag with the number written right before it (none: a mismatch), as "line:number<!-- fig key -->".
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
  done < <(grep -noE '[0-9.,]*<!-- fig [^ ]+ -->' "$file")
done
[[ $checked -gt 0 ]] || { echo "doc-figures.sh: no tagged figure in $*" >&2; exit 1; }
echo "doc-figures.sh: $checked figures checked against the comparison and the cross-continent profile"
exit "$failed"
