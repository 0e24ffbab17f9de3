#!/usr/bin/env bash
# Installs the Debian 12 packages continuum's build, tests and demo need (idempotent).
# Usage: scripts/deps.sh [test|demo|ci] [build]   (it exits non-zero when it cannot install)
#
# The packages come in two parts: what compiling needs (compilers, CMake, the libraries' headers, gRPC's
# code generators) and what only running needs (numpy, pytest, mypy, Prometheus, the reference
# implementations statsmodels and PyTorch, mkdocs, matplotlib). `deps.sh PROFILE build` installs the
# first part only, so that a build can start while `deps.sh PROFILE` installs the rest beside it
# (scripts/test.sh and .ci/run do: on a fresh machine the second part is most of the install's time,
# PyTorch and SciPy's packages above all). Concurrent runs take turns (a lock file): the second waits
# for the first, then installs what is still missing, usually nothing.
set -euo pipefail

profile="${1:-test}"
part="${2:-all}"
build=(cmake make ninja-build g++ pkg-config ccache
       libeigen3-dev libfmt-dev doctest-dev nlohmann-json3-dev libbenchmark-dev pybind11-dev python3-dev
       # examples/hosts (gRPC host programs): libraries and code generators (protoc, its gRPC plugins)
       libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler libyaml-cpp-dev libre2-dev)
run=(python3-numpy python3-pytest python3-mypy
     # the hosts' tests: Python gRPC clients, a real Prometheus, TLS certificates
     python3-grpcio python3-protobuf prometheus openssl)
case "$profile" in
  test) ;;
  demo) run+=(python3-matplotlib) ;;
  ci)   build+=(clang libclang-rt-14-dev)
        run+=(python3-matplotlib mkdocs python3-pymdownx
              python3-statsmodels python3-torch) ;;  # reference implementations for the parity tests
  *) echo "deps.sh: unknown profile '$profile' (test, demo, ci)" >&2; exit 2 ;;
esac
case "$part" in
  build) packages=("${build[@]}") ;;
  all) packages=("${build[@]}" "${run[@]}") ;;
  *) echo "deps.sh: unknown part '$part' (build, or nothing for all)" >&2; exit 2 ;;
esac

missing_packages() {
  missing=()
  for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
}
missing_packages
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "continuum: missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "Run as root, or install them first:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
# One install at a time (apt and dpkg would refuse a second one): wait for another deps.sh, then look
# again at what is missing.
exec 9> /tmp/continuum-deps.lock
flock 9
missing_packages
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# The package lists once: not again within the hour (after the build part's install, moments ago).
stamp=/tmp/continuum-deps.apt-updated
if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
  apt-get update -qq
  touch "$stamp"
fi
apt-get install -y -qq --no-install-recommends "${missing[@]}"
