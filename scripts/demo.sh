#!/usr/bin/env bash
# The main job: replays the seed papers' experiments through continuum's scalers in the simulator,
# prints "paper reports" beside "continuum (simulated)", writes CSV time series and PNG figures.
# Usage: scripts/demo.sh [output-folder]   (default: demo-output)
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache: share hits between clones of the repository (paths under the root are hashed relative).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

bash scripts/deps.sh demo

out="${1:-demo-output}"
jobs="${CONTINUUM_JOBS:-$(nproc)}"
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# scripts/test.sh builds the demo at -O1 in the same build/ (CONTINUUM_PROGRAM_OPTIMIZATION); the demo
# itself runs at the Release optimisation.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=/usr/bin/python3 \
  -DCONTINUUM_PROGRAM_OPTIMIZATION= "${launcher[@]}" >/dev/null
cmake --build build -j "$jobs" --target continuum_demo _core
build/examples/demo/continuum-demo --out "$out"
PYTHONPATH="$PWD/build/python" /usr/bin/python3 tools/plot_demo.py "$out"
echo "Figures and CSV time series are in $out/"
