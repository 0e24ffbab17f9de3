#!/usr/bin/env bash
# Builds tests/install/main.cpp with nothing but pkg-config (PKG_CONFIG_PATH must find continuum.pc).
set -euo pipefail
out="$1"
mkdir -p "$(dirname "$out")"
# shellcheck disable=SC2046
g++ -Wall -Wextra -Wpedantic -Werror "$(dirname "$0")/main.cpp" -o "$out" $(pkg-config --cflags --libs continuum)
