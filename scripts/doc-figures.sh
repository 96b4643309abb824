#!/usr/bin/env bash
# The figures the docs quote from the comparison, and a check of the docs against them. The comparison
# (netcube-client --lab --compare under cross-continent, docs/COMPARE.md) runs on the lab's virtual clock,
# so it prints the same figures on every run and machine, in about 4 s. (The bench's profiles, also on a
# virtual clock, take over a minute: docs/BENCHMARKS.md quotes them with their command, unchecked.)
#   scripts/doc-figures.sh [--plot FILE.png] [--csv FILE.csv]   prints "key value" lines (and draws the run)
#   scripts/doc-figures.sh --check [FILE...]                    fails when a tagged figure in FILE differs
#                                                               (by default README.md and docs/*.md)
# A figure in the docs is tagged by an HTML comment right after it, which Markdown does not show:
#   naive trails them by 1.99<!-- fig compare.naive.keys_error.mean --> units
# Keys: compare.ENTRY.FIGURE.{mean,p99,min,max,count} for FIGURE own_error, remote_error, press_delay_ms,
# keys_error, drift; compare.ENTRY.{remote_jumps_per_s,remote_frozen_pct,own_snaps_per_s}.
# Environment: NETCUBE_BUILD_DIR (default build/release).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${NETCUBE_BUILD_DIR:-$repo/build/release}
client=$build/bin/netcube-client

# The comparison: naive, prediction alone, prediction with reconciliation, and every technique, with the
# same hands behind the same network: a move, then a pause long enough for every drawn cube to stop.
readonly entries=naive,p,predicted,full
readonly script="R:700,-:900,D:500,-:900,L:900,-:900,U:500,-:900,DR:600,-:900,L:700,-:900,UR:500,-:900"

# A run prints its figures when it records them: with --plot or --csv (a throwaway one if neither is given).
figures() {
  local record=("$@")
  if [[ $# -eq 0 ]]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    record=(--csv "$work/compare.csv")
  fi
  SDL_VIDEODRIVER=offscreen "$client" --lab --compare "$entries" --profile cross-continent --script "$script" \
    --frames 720 --width 1600 --height 900 "${record[@]}" 2>/dev/null |
    sed -nE \
      -e 's/^([^ ]+) \([^)]*\): own error mean ([0-9.]+) p99 ([0-9.]+) min ([0-9.]+) max ([0-9.]+) [a-z]+ \(([0-9]+) .*/own_error \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): remote error mean ([0-9.]+) p99 ([0-9.]+) min ([0-9.]+) max ([0-9.]+) [a-z]+ \(([0-9]+) .*/remote_error \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): key press to motion mean ([0-9.]+) p99 ([0-9.]+) min ([0-9.]+) max ([0-9.]+) [a-z]+ \(([0-9]+) .*/press_delay_ms \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): behind the keys mean ([0-9.]+) p99 ([0-9.]+) min ([0-9.]+) max ([0-9.]+) [a-z]+ \(([0-9]+) .*/keys_error \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): prediction drift mean ([0-9.]+) p99 ([0-9.]+) min ([0-9.]+) max ([0-9.]+) [a-z]+ \(([0-9]+) .*/drift \1 \2 \3 \4 \5 \6/p' \
      -e 's/^([^ ]+) \([^)]*\): remote jumps ([0-9.]+) per cube and second, frozen mid-motion ([0-9.]+)% .*own snaps ([0-9.]+) per second$/smooth \1 \2 \3 \4/p' |
    while read -r figure entry a b c d e; do
      if [[ $figure == smooth ]]; then
        printf 'compare.%s.remote_jumps_per_s %s\ncompare.%s.remote_frozen_pct %s\ncompare.%s.own_snaps_per_s %s\n' \
          "$entry" "$a" "$entry" "$b" "$entry" "$c"
      else
        printf 'compare.%s.%s.mean %s\ncompare.%s.%s.p99 %s\ncompare.%s.%s.min %s\ncompare.%s.%s.max %s\ncompare.%s.%s.count %s\n' \
          "$entry" "$figure" "$a" "$entry" "$figure" "$b" "$entry" "$figure" "$c" "$entry" "$figure" "$d" \
          "$entry" "$figure" "$e"
      fi
    done
}

if [[ ${1:-} != --check ]]; then
  figures "$@"
  exit 0
fi
shift
[[ $# -gt 0 ]] || set -- "$repo/README.md" "$repo"/docs/*.md
declare -A value
while read -r key figure; do value[$key]=$figure; done < <(figures)
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
  done < <(grep -noE '[0-9.]*<!-- fig [^ ]+ -->' "$file")
done
[[ $checked -gt 0 ]] || { echo "doc-figures.sh: no tagged figure in $*" >&2; exit 1; }
echo "doc-figures.sh: $checked figures checked against the comparison"
exit "$failed"
