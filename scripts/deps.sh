#!/usr/bin/env bash
# Installs the Debian 12 packages continuum's build, tests and demo need (idempotent).
# Usage: scripts/deps.sh [test|demo|ci]   (source it or run it; it exits non-zero when it cannot install)
set -euo pipefail

profile="${1:-test}"
packages=(cmake make ninja-build g++ pkg-config ccache
          libeigen3-dev libfmt-dev doctest-dev nlohmann-json3-dev libbenchmark-dev
          pybind11-dev python3-dev python3-numpy python3-pytest python3-mypy
          # examples/hosts (gRPC host programs) and their tests (ctest label hosts)
          libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler libyaml-cpp-dev libre2-dev
          python3-grpcio python3-protobuf prometheus openssl)
case "$profile" in
  test) ;;
  demo) packages+=(python3-matplotlib) ;;
  ci)   packages+=(clang libclang-rt-14-dev python3-matplotlib mkdocs python3-pymdownx
               python3-statsmodels python3-torch) ;;  # reference implementations for the parity tests
  *) echo "deps.sh: unknown profile '$profile' (test, demo, ci)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "continuum: missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "Run as root, or install them first:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
