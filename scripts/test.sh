#!/usr/bin/env bash
# Runs every continuum test on a fresh Debian 12 machine: installs missing packages, configures and
# builds into build/, then runs the C++ tests (ctest) and the Python tests (pytest under
# /usr/bin/python3, against the extension built into build/python). Only what the tests run is built:
# the benchmarks and the header self-containment check are compiled in CI (.ci/run); tests and
# examples and the Python module compile at -O0 (packing's and federation's tests at -O1), the gRPC hosts
# and the demo at -O1 (CONTINUUM_TEST_OPTIMIZATION, CONTINUUM_PYTHON_OPTIMIZATION, CONTINUUM_PROGRAM_OPTIMIZATION; figures
# in docs/CONTRIBUTING.md).
#
# CONTINUUM_SANITIZE=1 (what CI runs): the C++ side (tests, examples, docs' examples, gRPC hosts,
# demo) is built with clang at -O0 under AddressSanitizer + UndefinedBehaviorSanitizer into
# build-asan/ and run there, while the Python module is built into build/ (the interpreter is not
# instrumented; g++, or clang with CONTINUUM_PYTHON_CMAKE_ARGS=-DCMAKE_CXX_COMPILER=clang++ as in CI): every test runs once, sanitized, and the C++ tests are compiled once.
# Needs clang and libclang-rt-14-dev (scripts/deps.sh ci). Extra configure arguments:
# CONTINUUM_CMAKE_ARGS for the C++ build, CONTINUUM_PYTHON_CMAKE_ARGS for the Python module's build
# (the same build/ unless CONTINUUM_SANITIZE=1).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache: share hits between clones of the repository (paths under the root are hashed relative).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
sanitize="${CONTINUUM_SANITIZE:-0}"

deps_profile=test
if [ "$sanitize" = 1 ]; then deps_profile=ci; fi
# What compiling needs first; what only the tests' runs need (numpy, pytest, Prometheus, statsmodels,
# PyTorch, ...) installs beside the build (scripts/deps.sh: most of a fresh machine's install time),
# and ctest and pytest wait for it (wait_for_deps, from any subshell: it polls the status file).
bash scripts/deps.sh "$deps_profile" build
deps_log="$(mktemp)"; deps_status="$(mktemp -u)"
{ status=0; bash scripts/deps.sh "$deps_profile" > "$deps_log" 2>&1 || status=$?
  echo "$status" > "$deps_status.part"; mv "$deps_status.part" "$deps_status"; } &
wait_for_deps() {
  while [ ! -f "$deps_status" ]; do sleep 1; done
  if [ "$(cat "$deps_status")" != 0 ]; then
    cat "$deps_log"; echo "scripts/test.sh: installing the packages the tests run with failed" >&2; return 1
  fi
  grep -m1 '^continuum: missing' "$deps_log" || true
}

jobs="${CONTINUUM_JOBS:-$(nproc)}"
launcher=()
if [ -n "${CONTINUUM_CPU_LOG:-}" ]; then
  # CONTINUUM_CPU_LOG=FILE: log every compile and link's CPU seconds and peak memory instead of using
  # ccache (a new build folder only); `tools/build_profile.sh --summary FILE` sums them per target.
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER="$PWD/tools/cpu_time_launcher.sh" -DCMAKE_CXX_LINKER_LAUNCHER="$PWD/tools/cpu_time_launcher.sh")
elif command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# configure DIR ARGS...: Ninja for a new build folder (it starts the longest units first, see the top
# CMakeLists.txt); an existing folder keeps the generator it was configured with.
configure() {
  local dir="$1" generator=(); shift
  if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
  cmake "${generator[@]}" -S . -B "$dir" -DPython_EXECUTABLE=/usr/bin/python3 "${launcher[@]}" "$@"
}
read -r -a cpp_args <<< "${CONTINUUM_CMAKE_ARGS:-}"
read -r -a python_args <<< "${CONTINUUM_PYTHON_CMAKE_ARGS:-}"
# The Python module at -O0 (CONTINUUM_PYTHON_OPTIMIZATION): it is built here to be tested (22 % less
# compiler CPU than -O1 for 14 s more of pytest's CPU, docs/CONTRIBUTING.md); pip and wheel builds keep
# the release flags.
module=(-DCMAKE_BUILD_TYPE=Release -DCONTINUUM_BUILD_PYTHON=ON -DCONTINUUM_PYTHON_OPTIMIZATION=-O0)
# pytest runs in the background, its output kept for the end, while ctest runs (and, in the sanitized
# mode, while the C++ side still compiles): its longest part (mypy's stubtest) is one process, so it
# fills the core that ctest's last long cases leave idle instead of running after them.
pytest_log="$(mktemp)"; pytest_pid=""; ctest_status=0
trap 'rm -f "$pytest_log" "$deps_log" "$deps_status"' EXIT
start_pytest() {
  PYTHONPATH="$PWD/build/python" /usr/bin/python3 -m pytest -q tests/python > "$pytest_log" 2>&1 &
  pytest_pid=$!
}

# Packing's tests at -O1 except these files, whose cases run in seconds at -O0 (heuristics, bounds,
# node mixes; under ASan+UBSan 15 s of CPU in all): their units compile at -O0, the exact solver's test
# files at -O1 (docs/CONTRIBUTING.md, session 18). A new packing test file is compiled at -O1 unless
# it is listed here.
packing_light="$(printf 'packing/test_%s.cpp=-O0;' consolidation drain existing_nodes knapsack lower_bounds \
  node_mix_classes node_types one_dimensional vector_heuristics)"
packing_light="${packing_light%;}"
if [ "$sanitize" != 1 ]; then
  # Tests and examples at -O0 (a quarter to a third less compiler CPU than -O1 for a test unit,
  # docs/CONTRIBUTING.md), except two areas whose long cases need -O1 to run in seconds: packing (the
  # exact solvers' node budgets) and federation (the offer catalogue's random ranking check: 67.6 s
  # at -O0, 2.6 s at -O1). The gRPC hosts and the demo at -O1 (CONTINUUM_PROGRAM_OPTIMIZATION): here
  # they only run as tests.
  configure build "${module[@]}" -DCONTINUUM_BUILD_TESTS=ON -DCONTINUUM_BUILD_EXAMPLES=ON \
    -DCONTINUUM_TEST_OPTIMIZATION=-O0 "-DCONTINUUM_TEST_AREA_OPTIMIZATION=packing=-O1;federation=-O1;$packing_light" \
    -DCONTINUUM_PROGRAM_OPTIMIZATION=-O1 \
    -DCONTINUUM_BUILD_BENCHMARKS=OFF -DCONTINUUM_HEADER_CHECK=OFF "${cpp_args[@]}" "${python_args[@]}"
  cmake --build build -j "$jobs"
  wait_for_deps
  start_pytest
  ctest --test-dir build --output-on-failure -j "$jobs" || ctest_status=$?
else
  # -O0: ASan's instrumentation makes clang's optimiser the largest part of a unit's compile (a test
  # unit: 13.7 s of CPU at -O1, 5.4 s at -O0, g++ -O1 6.6 s); -gline-tables-only: file and line in
  # the sanitizers' stack traces without full debug information (-g: 17.8 s at -O1). Packing's tests
  # at -O1: their node budgets run for minutes at -O0 under ASan (docs/CONTRIBUTING.md). The held-out
  # Hard28 and Waescher sets at their full node budgets (test_exact.cpp), the 93 held-out vector
  # instances (test_vector_exact.cpp), the exact solver's cache-size check at 60,000 nodes
  # (test_basis_inverse.cpp) run from test_packing_unsanitized, and federation's random-offer
  # ranking check from test_federation_unsanitized (clang -O1 without the sanitizers,
  # CONTINUUM_TEST_UNSANITIZED): under ASan they were most of the tests' run (Hard28 about 15 minutes
  # of wall time at load 8); the same code runs under the sanitizers in their areas' other cases (the
  # small-budget Hard28 set, BPP645 at 3,000 nodes under three cache sizes, six of the held-out vector
  # instances, the catalogue's other cases, ...).
  configure build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="-O0 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
    -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only "-DCONTINUUM_TEST_AREA_OPTIMIZATION=packing=-O1;$packing_light" \
    "-DCONTINUUM_TEST_UNSANITIZED=packing/test_exact.cpp=held-out?Hard28?set?*;packing/test_exact.cpp=held-out?Waescher?set?*;packing/test_vector_exact.cpp=vector?exact:?no?bound*;packing/test_basis_inverse.cpp=exact:?a?node?budget?gives?the?same*;federation/test_catalogue.cpp=offer?catalogue:?ranking?is?bit-identical*" \
    -DCONTINUUM_BUILD_TESTS=ON -DCONTINUUM_BUILD_EXAMPLES=ON \
    -DCONTINUUM_BUILD_PYTHON=OFF -DCONTINUUM_BUILD_BENCHMARKS=OFF -DCONTINUUM_HEADER_CHECK=OFF "${cpp_args[@]}"
  configure build "${module[@]}" -DCONTINUUM_BUILD_TESTS=OFF -DCONTINUUM_BUILD_EXAMPLES=OFF \
    -DCONTINUUM_BUILD_BENCHMARKS=OFF "${python_args[@]}"
  # Both builds at once: neither leaves a core idle while the other's last units (its serial tail)
  # compile. Each waits for the other only at the end. pytest starts as soon as the module is built,
  # beside the rest of the C++ build.
  { cmake --build build -j "$jobs" && wait_for_deps && start_pytest && wait "$pytest_pid"; } & python_job=$!
  # The packing and federation tests first: their node-budget and random-ranking cases are the longest
  # under ASan (minutes of CPU), so they run beside the rest of the C++ build instead of after it.
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
  early='^(packing|federation)$' early_log="$(mktemp)"; early_status=0
  cmake --build build-asan -j "$jobs" --target test_packing test_packing_unsanitized test_federation \
    test_federation_unsanitized || { wait "$python_job" || true; exit 1; }
  wait_for_deps || { wait "$python_job" || true; exit 1; }
  ctest --test-dir build-asan -L "$early" --output-on-failure -j "$jobs" > "$early_log" 2>&1 & early_job=$!
  cmake --build build-asan -j "$jobs" || { wait "$python_job" "$early_job" || true; exit 1; }
  ctest --test-dir build-asan -LE "$early" --output-on-failure -j "$jobs" || ctest_status=$?
  wait "$early_job" || early_status=$?
  echo "::: ctest -L '$early' (run during the build):"; cat "$early_log"; rm -f "$early_log"
  if [ "$early_status" != 0 ]; then ctest_status=$early_status; fi
  pytest_pid=$python_job  # its status: the module's build, then pytest's
fi
pytest_status=0
wait "$pytest_pid" || pytest_status=$?
cat "$pytest_log"
if [ "$ctest_status" != 0 ] || [ "$pytest_status" != 0 ]; then
  echo "scripts/test.sh: FAILED (ctest exit $ctest_status, Python build or pytest exit $pytest_status)" >&2
  exit 1
fi
