#!/usr/bin/env bash
# Compiler/linker launcher that logs each command's CPU time (user, sys seconds), peak memory (KB) and
# output file to $CONTINUUM_CPU_LOG, so a build's cost can be split per target on a loaded machine
# (wall-clock times from ninja's log are inflated by other jobs; CPU seconds are not).
# Used by tools/build_profile.sh: -DCMAKE_CXX_COMPILER_LAUNCHER=.../cpu_time_launcher.sh
out="?"
prev=""
for a in "$@"; do
  if [ "$prev" = "-o" ] || { [ "$prev" = "-MF" ] && [ "$out" = "?" ]; }; then out="$a"; fi
  prev="$a"
done
exec /usr/bin/time -a -o "${CONTINUUM_CPU_LOG:?set CONTINUUM_CPU_LOG}" -f "%U %S %M $out" "$@"
