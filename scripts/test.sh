#!/usr/bin/env bash
# Runs every continuum test on a fresh Debian 12 machine: installs missing packages, configures and
# builds into build/, then runs the C++ tests (ctest) and the Python tests (pytest under
# /usr/bin/python3, against the extension built into build/python). Only what the tests run is built:
# the benchmarks and the header self-containment check are compiled in CI (.ci/run), and tests and
# examples compile at -O1 (CONTINUUM_TEST_OPTIMIZATION; figures in docs/CONTRIBUTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache: share hits between clones of the repository (paths under the root are hashed relative).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

bash scripts/deps.sh test

jobs="${CONTINUUM_JOBS:-$(nproc)}"
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=/usr/bin/python3 \
  -DCONTINUUM_BUILD_TESTS=ON -DCONTINUUM_BUILD_EXAMPLES=ON -DCONTINUUM_BUILD_PYTHON=ON \
  -DCONTINUUM_BUILD_BENCHMARKS=OFF -DCONTINUUM_HEADER_CHECK=OFF "${launcher[@]}"
cmake --build build -j "$jobs"

ctest --test-dir build --output-on-failure -j "$jobs"
PYTHONPATH="$PWD/build/python" /usr/bin/python3 -m pytest -q tests/python
