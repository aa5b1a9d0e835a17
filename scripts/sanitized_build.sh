#!/usr/bin/env bash
# Configures and builds the sanitized build that scripts/sanitize.sh tests and scripts/fuzz.sh
# fuzzes, in build-asan/ ($WORMSIM_ASAN_DIR overrides the folder): clang with AddressSanitizer and
# UndefinedBehaviorSanitizer, the per-cycle invariant checks (WORMSIM_CHECKED), and libFuzzer's
# coverage instrumentation, so that the tests and the two fuzz targets share one compilation.
# -O1 with line tables: quicker to build than -O2, readable sanitizer reports. A unity build
# (eight files to a compile; the test binaries set their own batches): clang with the sanitizers
# spends longer per parsed header than per line of code (docs/performance.md, "Build and CI time").
#   scripts/sanitized_build.sh [TARGET ...]      (default: every target)
# Prints the build folder on stdout.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WORMSIM_ASAN_DIR:-$root/build-asan}"
"$root/scripts/setup.sh"
# Configured every time (a second or two) so that a change of these settings reaches an old folder
# (a folder configured with another compiler is configured anew by CMake).
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=Release -DWORMSIM_RELEASE_FLAGS="-O1 -g1" \
  -DWORMSIM_SANITIZE=ON -DWORMSIM_CHECKED=ON -DWORMSIM_FUZZ=ON \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 >&2
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" "${targets[@]}" -- -j"$(nproc)" >&2
echo "$build"
