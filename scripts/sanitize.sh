#!/usr/bin/env bash
# Builds wormsim with AddressSanitizer + UndefinedBehaviorSanitizer, and with the
# per-cycle invariant checks (WORMSIM_CHECKED), in build-asan/
# and runs the unit, generator, simulation and command-line tests under it.
# Any sanitizer report fails the test that triggered it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WORMSIM_ASAN_DIR:-$root/build-asan}"
"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  # -O1 with line tables: quick to build, readable sanitizer reports.
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" \
    -DWORMSIM_SANITIZE=ON -DWORMSIM_CHECKED=ON >&2
fi
cmake --build "$build" -- -j"$(nproc)" >&2
# SystemC's kernel keeps objects alive to process exit on purpose; leak checking would only report those.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
cd "$build"
# AddressSanitizer reserves terabytes of address space at start-up, so the tests
# that put the binary under an address-space limit (ulimit -v) run only in the
# ordinary build.
with_limits='CliMemory\.(ScheduleCheckRefusesAHugeTopologyBeforeBuildingIt|RunRefusesAScheduleFileNamingAHugeTopology|RunRefusalNamesTheDominatingKey|TightLimitsGiveAnErrorNeverASignal)$'
# Peak resident memory is a property of the ordinary allocator: AddressSanitizer's
# quarantine holds freed blocks back, so a run that reuses its records still grows.
measures_rss='Recycling\.MemoryDoesNotGrowWithRunLength$'
ctest --output-on-failure -j"$(nproc)" -LE 'python|papers' -E "$with_limits|$measures_rss" "$@"
