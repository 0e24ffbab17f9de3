#!/usr/bin/env bash
# Where a fresh build spends its compiler CPU: configures BUILD-DIR from scratch (Ninja, no ccache,
# the options of scripts/test.sh unless others are given), builds it with every compile and link
# logged by tools/cpu_time_launcher.sh, and prints CPU seconds (user+sys) per target, largest first,
# and the total. CPU time, not wall time: on a shared machine wall time measures the other jobs too.
# Usage: tools/build_profile.sh BUILD-DIR [extra cmake args...]
#        tools/build_profile.sh --summary LOG   (only the table, e.g. of a log that
#        CONTINUUM_CPU_LOG=LOG scripts/test.sh wrote)
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:?usage: tools/build_profile.sh BUILD-DIR [cmake args] | --summary LOG}"; shift
if [ "$dir" = --summary ]; then
  log="$(realpath "${1:?usage: tools/build_profile.sh --summary LOG}")"
else
  rm -rf "$dir"
  log="$PWD/$dir.cpu.log"; rm -f "$log"
  export CONTINUUM_CPU_LOG="$log" CCACHE_DISABLE=1
  launcher="$PWD/tools/cpu_time_launcher.sh"
  cmake -G Ninja -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=/usr/bin/python3 \
    -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_LINKER_LAUNCHER="$launcher" "$@" >/dev/null
  /usr/bin/time -f "build: %e s wall, %U s user, %S s sys" cmake --build "$dir" -j "${CONTINUUM_JOBS:-$(nproc)}" >/dev/null
fi
# Target of a logged output: CMakeFiles/<target>.dir/... for objects, the file itself for links,
# header_check/* for the header self-containment check.
awk '{ out = $4; t = out
       if (match(out, /CMakeFiles\/[^\/]+\.dir/)) t = substr(out, RSTART + 11, RLENGTH - 15)
       else if (out ~ /header_check\//) t = "continuum_header_check"
       else { n = split(out, parts, "/"); t = parts[n] " (link)" }
       cpu[t] += $1 + $2; runs[t]++; if ($3 > mem[t]) mem[t] = $3; total += $1 + $2 }
     END { for (t in cpu) printf "%8.1f s %4d runs %6d MB  %s\n", cpu[t], runs[t], mem[t] / 1024, t
           printf "%8.1f s total compiler and linker CPU\n", total > "/dev/stderr" }' "$log" | sort -rn
