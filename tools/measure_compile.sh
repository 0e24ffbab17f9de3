#!/usr/bin/env bash
# Front-end cost of including continuum: for each translation unit (one umbrella header, or only the
# dependencies: Eigen/Dense, fmt and the standard headers the library uses), the compiler's user CPU
# seconds and peak memory (/usr/bin/time) for -fsyntax-only, all in the same run so the figures compare.
# Usage: tools/measure_compile.sh [include-dir] [compiler] [repeats] [before-include-dir]
#        (defaults: include g++ 1). With before-include-dir (e.g. `git archive main include | tar -x -C /tmp/main`
#        then /tmp/main/include), every unit is compiled against both trees one after the other, so a
#        change of load on a shared machine hits both alike, and the table gets before and after columns.
# Prints: unit, user s, peak MB, ratio to the dependencies-only unit (user CPU, the best of the repeats).
# With ALLOCATED=1 (g++ only) each compile also runs with -ftime-report and the table gets g++'s
# allocated memory (the TOTAL line, MB), which does not depend on the machine's load (issue 21,
# session 12; it moves in steps of about 34 MB with the unit's token count, see docs/CONTRIBUTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
inc="${1:-include}"
cxx="${2:-g++}"
repeats="${3:-1}"
before="${4:-}"
allocated="${ALLOCATED:-0}"
report=()
if [ "$allocated" = 1 ]; then report=(-ftime-report); fi
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
# sim/adapters: the simulator with the adapters for continuum's scalers (every decision area).
for h in continuum core forecast capacity packing quota federation policy scalers sim sim/adapters; do
  [ -f "$inc/continuum/$h.hpp" ] || continue
  echo "#include <continuum/$h.hpp>" > "$work/${h//\//_}.cpp"
  units+=("${h//\//_}")
done
header_of() { local u="$1"; [ "$u" = sim_adapters ] && u=sim/adapters; echo "continuum/$u.hpp"; }

measure() {  # unit [include-dir]: prints "user_seconds peak_kb allocated_mb" of the best (lowest user time) of $repeats runs
  local best="" best_mem="" alloc="-" dir="${2:-$inc}"
  for _ in $(seq "$repeats"); do
    /usr/bin/time -f "%U %M" -o "$work/time" "$cxx" -std=c++20 -fsyntax-only "${report[@]}" -I "$dir" -I /usr/include/eigen3 "$work/$1.cpp" 2> "$work/report"
    read -r user mem < "$work/time"
    if [ -z "$best" ] || awk -v a="$user" -v b="$best" 'BEGIN { exit !(a < b) }'; then best="$user"; best_mem="$mem"; fi
    if [ "$allocated" = 1 ]; then  # "TOTAL : usr sys wall 637M" (k, M or G): the same in every repeat
      alloc=$(awk '/TOTAL/ { v = $NF; u = substr(v, length(v)); n = substr(v, 1, length(v) - 1);
                             printf "%d", (u == "G" ? n * 1024 : u == "k" ? n / 1024 : n) }' "$work/report")
    fi
  done
  echo "$best $best_mem $alloc"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
if [ -z "$before" ]; then
  read -r deps_user deps_mem deps_alloc < <(measure deps_only)
  printf '%-12s %8s %8s %6s %9s\n' unit "user s" "peak MB" ratio "alloc MB"
  printf '%-12s %8.2f %8d %6.2f %9s\n' deps_only "$deps_user" $((deps_mem / 1024)) 1 "$deps_alloc"
  for u in "${units[@]:1}"; do
    read -r user mem alloc < <(measure "$u")
    printf '%-12s %8.2f %8d %6s %9s\n' "$u" "$user" $((mem / 1024)) "$(ratio "$user" "$deps_user")" "$alloc"
  done
  exit 0
fi
# Before and after: the dependencies-only unit twice (it does not depend on the tree), around the others.
read -r deps_a _ _ < <(measure deps_only "$before")
declare -A b_user b_mem b_alloc a_user a_mem a_alloc
for u in "${units[@]:1}"; do
  if [ -f "$before/$(header_of "$u")" ]; then
    read -r "b_user[$u]" "b_mem[$u]" "b_alloc[$u]" < <(measure "$u" "$before")
  fi
  read -r "a_user[$u]" "a_mem[$u]" "a_alloc[$u]" < <(measure "$u" "$inc")
done
read -r deps_b deps_mem deps_alloc < <(measure deps_only "$inc")
deps_user=$(awk -v a="$deps_a" -v b="$deps_b" 'BEGIN { print (a < b ? a : b) }')
printf '%-12s %9s %9s %7s %9s %9s %7s %13s\n' unit "before s" "before MB" ratio "after s" "after MB" ratio "alloc MB b/a"
printf '%-12s %9.2f %9d %7.2f %9.2f %9d %7.2f %13s\n' deps_only "$deps_user" $((deps_mem / 1024)) 1 "$deps_user" $((deps_mem / 1024)) 1 "$deps_alloc"
for u in "${units[@]:1}"; do
  if [ -n "${b_user[$u]:-}" ]; then
    printf '%-12s %9.2f %9d %7s' "$u" "${b_user[$u]}" $((b_mem[$u] / 1024)) "$(ratio "${b_user[$u]}" "$deps_user")"
  else
    printf '%-12s %9s %9s %7s' "$u" - - -  # not in the before tree
  fi
  printf ' %9.2f %9d %7s %13s\n' "${a_user[$u]}" $((a_mem[$u] / 1024)) "$(ratio "${a_user[$u]}" "$deps_user")" "${b_alloc[$u]:--}/${a_alloc[$u]}"
done
