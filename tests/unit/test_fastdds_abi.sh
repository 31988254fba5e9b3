#!/usr/bin/env bash
# What the tracer reads of Fast DDS samples (src/trace/fastdds_abi.h)
# against the Fast DDS headers installed (libfastrtps-dev, make deps):
# fastdds_abi_probe.cpp, compiled and run.
# usage: test_fastdds_abi.sh SOURCE_DIR
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -std=c++17 -Wall -Wextra -Werror -I"$src/src/trace" "$src/tests/unit/fastdds_abi_probe.cpp" \
	-lfastrtps -o "$work/probe"
"$work/probe"
