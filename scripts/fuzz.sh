#!/usr/bin/env bash
# Fuzzes the schedule loader and the config loader with libFuzzer (clang) for a
# bounded time each, after replaying the saved regression inputs.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     (default 60)
# Seeds: the shipped configs and schedules and the bad-input corpus. Crashing
# inputs are written to build-asan/crashes/; copy them into
# tests/fuzz/regressions/<target>/ so every later run replays them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
# A saved input must replay in well under a second even with the sanitizers;
# one that takes longer is a regression (libFuzzer reports it as a timeout).
replay_timeout=2
# The libraries and the fuzz targets come from the sanitized build that scripts/sanitize.sh tests.
build="$("$root/scripts/sanitized_build.sh" fuzz_schedule_json fuzz_config)"
export ASAN_OPTIONS="detect_leaks=0"
mkdir -p "$build/crashes"

run_target() {
  local target="$1"; shift
  local corpus="$build/corpus/$target" regressions="$root/tests/fuzz/regressions/$target"
  mkdir -p "$corpus"
  echo "fuzz: $target: replaying regression inputs (each within ${replay_timeout}s)" >&2
  "$build/$target" -runs=0 -timeout="$replay_timeout" -rss_limit_mb=2048 "$regressions" >&2
  echo "fuzz: $target: fuzzing for ${seconds}s" >&2
  "$build/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$build/crashes/$target-" "$corpus" "$@" >&2
}

run_target fuzz_schedule_json "$root/configs/schedules" "$root/tests/data/schedules" "$root/tests/bad_inputs/schedules"
run_target fuzz_config "$root/configs" "$root/tests/bad_inputs/configs"
echo "fuzz: no crash in ${seconds}s per target"
