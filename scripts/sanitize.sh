#!/usr/bin/env bash
# Runs the unit, generator, simulation and command-line tests under AddressSanitizer + UBSan with
# the per-cycle invariant checks (WORMSIM_CHECKED), in the build of scripts/sanitized_build.sh
# (build-asan/). Any sanitizer report fails the test that triggered it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$("$root/scripts/sanitized_build.sh")"
# SystemC's kernel keeps objects alive to process exit on purpose; leak checking would only report those.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
cd "$build"
# AddressSanitizer reserves terabytes of address space at start-up, so the tests
# that put the binary under an address-space limit (ulimit -v) run only in the
# ordinary build.
with_limits='CliMemory\.(ScheduleCheckRefusesAHugeTopologyBeforeBuildingIt|RunRefusesAScheduleFileNamingAHugeTopology|RunRefusalNamesTheDominatingKey|TightLimitsGiveAnErrorNeverASignal|RunUnderAnyLimitCompletesTheSameOrSaysOutOfMemory)$'
# Peak resident memory is a property of the ordinary allocator: AddressSanitizer's
# quarantine holds freed blocks back, so a run that reuses its records still grows.
measures_rss='Recycling\.(MemoryDoesNotGrowWith(RunLength|Repetitions)|MemoryHoldsNoFiguresOfEndedRepetitions|RepetitionsAStoppedRunNeverBeganAreNotHeld|MemoryOfOneScheduleGrowsByItsMessagesNotTheirRecords)$'
ctest --output-on-failure -j"$(nproc)" -LE 'python|papers' -E "$with_limits|$measures_rss" "$@"
