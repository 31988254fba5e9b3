#!/usr/bin/env bash
# What the tracer reads of Fast DDS samples (src/trace/fastdds_abi.h)
# against each Fast DDS the real trees run: Debian's 2.9 (libfastrtps-dev,
# make deps; Humble's) and, when the Jazzy tree is installed, its 2.14:
# fastdds_abi_probe.cpp, compiled and run against each one's headers.
# usage: test_fastdds_abi.sh SOURCE_DIR [ROS_ROOT]
set -euo pipefail
src=$1 jazzy=${2:-/opt/ros}/jazzy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# probe [LIBDIR]: built against LIBDIR's Fast DDS (and its include/ beside)
probe() {
	local flags=()
	[[ -n ${1:-} ]] && flags=(-I"$1/../include" -L"$1" -Wl,-rpath-link,"$1")
	g++ -std=c++17 -Wall -Wextra -Werror "${flags[@]}" -I"$src/src/trace" \
		"$src/tests/unit/fastdds_abi_probe.cpp" -lfastrtps -o "$work/probe"
	LD_LIBRARY_PATH=${1:-} "$work/probe"
}
echo "-- Debian's Fast DDS (Humble)"
probe
if [[ -f $jazzy/include/fastrtps/config.h ]]; then
	echo "-- $jazzy: $(grep -o 'FASTRTPS_VERSION_STR "[^"]*"' "$jazzy/include/fastrtps/config.h")"
	probe "$jazzy/lib"
else
	echo "-- no Fast DDS in $jazzy (not installed): Debian's only"
fi
