#!/usr/bin/env bash
# The full test run (README, CI): installs the dependencies, then configures, builds and runs every test
# with the `release` preset and again with the `asan` preset (AddressSanitizer + UBSan), then builds the
# browser lab (scripts/web.sh, which installs emscripten and chromium) and runs the browser tests (ctest
# label `web`, once, in the release build). Every stage always runs; the summary at the end lists each
# one, and the exit status is non-zero if anything failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

readonly PRESETS=(release asan)
readonly TEST_TIMEOUT_S=300  # per test; the slowest tests take seconds, far longer means a hang
jobs="$(nproc)"

scripts/setup-deps.sh

summary=()
total_passed=0
total_failed=0
failures=0

# Appends how long the stage begun at `start` (bash's SECONDS) took to its summary line: CI stops a run
# at 90 minutes, and the log then says where they went.
note_time() {
  local start=$1
  summary[${#summary[@]} - 1]+=" ($(((SECONDS - start + 30) / 60)) min)"
}

# Configures, builds and tests one preset; its result line goes into `summary`.
run_preset() {
  local preset=$1
  local log="build/${preset}/ctest.log"
  echo
  echo "==== ${preset}: configure"
  if ! cmake --preset "$preset"; then
    summary+=("${preset}: FAILED to configure")
    return 1
  fi
  echo "==== ${preset}: build (-j${jobs})"
  if ! cmake --build --preset "$preset" -j "$jobs"; then
    summary+=("${preset}: FAILED to build")
    return 1
  fi
  echo "==== ${preset}: test"
  # The browser tests run once, in their own stage below.
  run_ctest "$preset" "$log" --preset "$preset" -j "$jobs" -LE web
}

# Runs ctest with the given arguments into `log` and puts stage `name`'s result line into `summary`.
run_ctest() {
  local name=$1 log=$2 status=0
  shift 2
  ctest "$@" --output-on-failure --timeout "$TEST_TIMEOUT_S" 2>&1 | tee "$log" || status=$?
  # ctest's closing line: "100% tests passed, 0 tests failed out of 67".
  local line
  line="$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1 || true)"
  if [[ -z "$line" ]]; then
    summary+=("${name}: FAILED, no test results (ctest exit ${status})")
    return 1
  fi
  local failed total
  failed="$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<< "$line")"
  total="$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<< "$line")"
  total_passed=$((total_passed + total - failed))
  total_failed=$((total_failed + failed))
  if [[ $status -ne 0 || $failed -ne 0 || $total -eq 0 ]]; then
    summary+=("${name}: FAILED, $((total - failed)) of ${total} tests passed (ctest exit ${status})")
    return 1
  fi
  summary+=("${name}: ok, ${total} tests passed")
}

for preset in "${PRESETS[@]}"; do
  start=$SECONDS
  run_preset "$preset" || failures=$((failures + 1))
  note_time "$start"
done

# libFuzzer smoke runs: every fuzz target briefly from its seed corpus (tests/fuzz/run.sh), when clang++ is
# there to build them. docs/FUZZING.md says how to run them for long.
readonly FUZZ_SECONDS_PER_TARGET=10
run_fuzzers() {
  echo
  echo "==== fuzz: configure and build"
  if ! cmake --preset fuzz || ! cmake --build --preset fuzz -j "$jobs" --target fuzzers; then
    summary+=("fuzz: FAILED to build")
    return 1
  fi
  echo "==== fuzz: ${FUZZ_SECONDS_PER_TARGET} s per target"
  if ! tests/fuzz/run.sh build/fuzz "$FUZZ_SECONDS_PER_TARGET"; then
    summary+=("fuzz: FAILED (a finding; see above)")
    return 1
  fi
  summary+=("fuzz: ok, no finding")
}
fuzz_runs=0
if command -v clang++ > /dev/null; then
  fuzz_runs=1
  start=$SECONDS
  run_fuzzers || failures=$((failures + 1))
  note_time "$start"
else
  summary+=("fuzz: skipped (no clang++)")
fi

# The lab in a browser: the page (SDL2 and Dear ImGui for wasm are built once and cached in build/web-deps),
# then the browser tests against it in headless Chromium.
run_web() {
  echo
  echo "==== web: build the page"
  if ! scripts/web.sh --build-only; then
    summary+=("web: FAILED to build the page")
    return 1
  fi
  echo "==== web: browser tests"
  run_ctest web build/release/ctest-web.log --preset release -L web
}
start=$SECONDS
run_web || failures=$((failures + 1))
note_time "$start"

echo
echo "==== summary"
for line in "${summary[@]}"; do echo "  ${line}"; done
if [[ $failures -ne 0 ]]; then
  echo "test.sh: FAILED (${failures} of $((${#PRESETS[@]} + fuzz_runs + 1)) runs)"
else
  echo "test.sh: all presets passed"
fi
echo "total: ${total_passed} passed, ${total_failed} failed, in $(((SECONDS + 30) / 60)) min"
exit $((failures == 0 ? 0 : 1))
