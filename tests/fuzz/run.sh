#!/usr/bin/env bash
# Runs every libFuzzer target of a fuzz build for a short while, starting from the checked-in seed corpus
# (tests/fuzz/corpus/<target>/). New inputs go to a temporary directory, so the seeds stay as they are;
# a crashing input is kept in <build>/fuzz-artifacts/<target>/. Exits non-zero on any finding.
#
#   tests/fuzz/run.sh [BUILD_DIR] [SECONDS_PER_TARGET]     defaults: build/fuzz, 10
#   NETCUBE_FUZZ_TARGETS="fuzz_decode_input ..."           run only these targets
#   NETCUBE_FUZZ_FLAGS="-runs=100000"                      extra libFuzzer flags
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$repo/build/fuzz}
seconds=${2:-10}
corpus_root=$repo/tests/fuzz/corpus

targets=${NETCUBE_FUZZ_TARGETS:-}
if [[ -z $targets ]]; then
  targets=$(cd "$build/bin" 2>/dev/null && ls fuzz_* 2>/dev/null || true)
fi
if [[ -z $targets ]]; then
  echo "run.sh: no fuzz targets in $build/bin (configure with --preset fuzz and build the 'fuzzers' target)" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for target in $targets; do
  artifacts=$build/fuzz-artifacts/$target
  mkdir -p "$work/$target" "$artifacts"
  seeds=()
  [[ -d $corpus_root/$target ]] && seeds=("$corpus_root/$target")
  log=$work/$target.log
  # shellcheck disable=SC2086  # NETCUBE_FUZZ_FLAGS is a list of flags
  if "$build/bin/$target" -max_total_time="$seconds" -max_len=4200 -print_final_stats=1 \
       -artifact_prefix="$artifacts/" ${NETCUBE_FUZZ_FLAGS:-} "$work/$target" "${seeds[@]}" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "$target: ${runs:-?} runs in ${seconds} s, no finding"
  else
    echo "$target: FAILED (log below; crashing input in $artifacts/)"
    tail -40 "$log"
    failed=1
  fi
done
exit $failed
