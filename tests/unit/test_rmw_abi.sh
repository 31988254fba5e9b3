#!/usr/bin/env bash
# What the tracer's service hooks read of rmw's types (src/trace/rmw_abi.h)
# against the rmw headers of each real tree installed (make deps):
# rmw_abi_probe.c, compiled and run against each.
# usage: test_rmw_abi.sh SOURCE_DIR [ROS_ROOT]
set -euo pipefail
src=$1 root=${2:-/opt/ros}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
probed=0
for tree in humble jazzy; do
	include=$root/$tree/include
	if [[ ! -f $include/rmw/rmw/types.h ]]; then
		echo "-- $tree: not installed"
		continue
	fi
	echo "-- $tree"
	gcc -std=c11 -Wall -Wextra -Werror -I"$src/src/trace" -I"$include/rmw" \
		-I"$include/rcutils" -I"$include/rosidl_runtime_c" \
		-I"$include/rosidl_typesupport_interface" -I"$include/rosidl_dynamic_typesupport" \
		"$src/tests/unit/rmw_abi_probe.c" -o "$work/probe"
	"$work/probe"
	probed=$((probed + 1))
done
((probed > 0)) || { echo "SKIP: no real tree installed"; exit 77; }
