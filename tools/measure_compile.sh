#!/usr/bin/env bash
# Front-end cost of including continuum: for each translation unit (one umbrella header, or only the
# dependencies: Eigen/Dense, fmt and the standard headers the library uses), the compiler's user CPU
# seconds and peak memory (/usr/bin/time) for -fsyntax-only, all in the same run so the figures compare.
# Usage: tools/measure_compile.sh [include-dir] [compiler] [repeats]   (defaults: include g++ 1)
# Prints: unit, user s, peak MB, ratio to the dependencies-only unit (user CPU, the best of the repeats).
set -euo pipefail
cd "$(dirname "$0")/.."
inc="${1:-include}"
cxx="${2:-g++}"
repeats="${3:-1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

std_headers=(algorithm array bit charconv chrono cmath concepts cstddef cstdint cstring deque filesystem
             fstream functional initializer_list iterator limits map memory mutex numbers numeric optional
             random regex set span sstream stdexcept string string_view tuple type_traits unordered_map
             unordered_set utility vector)
{
  echo '#include <Eigen/Dense>'
  echo '#include <fmt/format.h>'
  echo '#include <fmt/ranges.h>'
  for h in "${std_headers[@]}"; do echo "#include <$h>"; done
} > "$work/deps_only.cpp"
units=(deps_only)
for h in continuum core forecast capacity packing quota federation policy scalers sim; do
  [ -f "$inc/continuum/$h.hpp" ] || continue
  echo "#include <continuum/$h.hpp>" > "$work/$h.cpp"
  units+=("$h")
done

measure() {  # prints "user_seconds peak_kb" of the best (lowest user time) of $repeats runs
  local best="" best_mem=""
  for _ in $(seq "$repeats"); do
    /usr/bin/time -f "%U %M" -o "$work/time" "$cxx" -std=c++20 -fsyntax-only -I "$inc" -I /usr/include/eigen3 "$work/$1.cpp"
    read -r user mem < "$work/time"
    if [ -z "$best" ] || awk -v a="$user" -v b="$best" 'BEGIN { exit !(a < b) }'; then best="$user"; best_mem="$mem"; fi
  done
  echo "$best $best_mem"
}

read -r deps_user deps_mem < <(measure deps_only)
printf '%-12s %8s %8s %6s\n' unit "user s" "peak MB" ratio
printf '%-12s %8.2f %8d %6.2f\n' deps_only "$deps_user" $((deps_mem / 1024)) 1
for u in "${units[@]:1}"; do
  read -r user mem < <(measure "$u")
  printf '%-12s %8.2f %8d %6.2f\n' "$u" "$user" $((mem / 1024)) "$(awk -v a="$user" -v b="$deps_user" 'BEGIN { print a / b }')"
done
