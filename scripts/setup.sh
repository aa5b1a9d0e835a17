#!/usr/bin/env bash
# Installs wormsim's build and test dependencies from Debian 12 packages.
# Idempotent: installs only what is missing, and runs apt-get update only then.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config python3
  python3-yaml python3-numpy python3-pandas python3-matplotlib python3-seaborn python3-tqdm
  python3-dask python3-distributed python3-cloudpickle python3-pytest
  libsystemc-dev libboost-graph-dev libspdlog-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev googletest libbenchmark-dev zlib1g-dev clang libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
