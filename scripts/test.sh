#!/usr/bin/env bash
# Runs every continuum test on a fresh Debian 12 machine: installs missing packages, configures and
# builds into build/, then runs the C++ tests (ctest) and the Python tests (pytest under
# /usr/bin/python3, against the extension built into build/python).
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
  -DCONTINUUM_BUILD_BENCHMARKS=ON "${launcher[@]}"
cmake --build build -j "$jobs"

ctest --test-dir build --output-on-failure -j "$jobs"
PYTHONPATH="$PWD/build/python" /usr/bin/python3 -m pytest -q tests/python
