#!/usr/bin/env bash
# Runs every continuum test on a fresh Debian 12 machine: installs missing packages, configures and
# builds into build/, then runs the C++ tests (ctest) and the Python tests (pytest under
# /usr/bin/python3, against the extension built into build/python). Only what the tests run is built:
# the benchmarks and the header self-containment check are compiled in CI (.ci/run), and tests,
# examples and the Python module compile at -O1 (CONTINUUM_TEST_OPTIMIZATION,
# CONTINUUM_PYTHON_OPTIMIZATION; figures in docs/CONTRIBUTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache: share hits between clones of the repository (paths under the root are hashed relative).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

bash scripts/deps.sh test

jobs="${CONTINUUM_JOBS:-$(nproc)}"
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# Ninja for a new build folder (it starts the longest units first, see the top CMakeLists.txt); an
# existing folder keeps the generator it was configured with.
generator=()
if [ ! -f build/CMakeCache.txt ] && command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
# The Python module at -O1 (CONTINUUM_PYTHON_OPTIMIZATION): it is built here to be tested; pip and
# wheel builds keep the release flags.
cmake "${generator[@]}" -S . -B build -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=/usr/bin/python3 \
  -DCONTINUUM_BUILD_TESTS=ON -DCONTINUUM_BUILD_EXAMPLES=ON -DCONTINUUM_BUILD_PYTHON=ON \
  -DCONTINUUM_BUILD_BENCHMARKS=OFF -DCONTINUUM_HEADER_CHECK=OFF -DCONTINUUM_PYTHON_OPTIMIZATION=-O1 "${launcher[@]}"
cmake --build build -j "$jobs"

ctest --test-dir build --output-on-failure -j "$jobs"
PYTHONPATH="$PWD/build/python" /usr/bin/python3 -m pytest -q tests/python
