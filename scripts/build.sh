#!/usr/bin/env bash
# Configures (once) and builds wormsim and its tests in build/ (Release).
# WORMSIM_BUILD_DIR overrides the folder.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${WORMSIM_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
fi
# A build with nothing to do says nothing (scripts/wormsim runs this before every command).
cmake --build "$build" -- -j"$(nproc)" 2>&1 |
  { grep -v -x -e '\[0/2\] Re-checking globbed directories\.\.\.' -e 'ninja: no work to do\.' || true; } >&2
