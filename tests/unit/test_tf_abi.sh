#!/usr/bin/env bash
# What the tracer reads of tf2's TimeCache (src/trace/tf_abi.h) against the
# libtf2 of each real tree installed (make deps): tf_abi_probe.cpp, built
# against each tree's headers and run on its library.
# usage: test_tf_abi.sh SOURCE_DIR [ROS_ROOT]
set -euo pipefail
src=$1 root=${2:-/opt/ros}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
probed=0
for tree in humble jazzy; do
	prefix=$root/$tree
	if [[ ! -f $prefix/include/tf2/tf2/time_cache.h ]]; then
		echo "-- $tree: not installed"
		continue
	fi
	echo "-- $tree"
	includes=()
	for dir in tf2 builtin_interfaces rosidl_runtime_cpp geometry_msgs rcutils; do
		includes+=(-I"$prefix/include/$dir")
	done
	g++ -std=c++17 -Wall -Wextra -Werror -I"$src/src/trace" "${includes[@]}" \
		"$src/tests/unit/tf_abi_probe.cpp" -L"$prefix/lib" -Wl,-rpath-link,"$prefix/lib" -ltf2 -o "$work/probe"
	LD_LIBRARY_PATH=$prefix/lib "$work/probe"
	probed=$((probed + 1))
done
((probed > 0)) || { echo "SKIP: no real tree installed"; exit 77; }
