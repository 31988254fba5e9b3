#!/usr/bin/env bash
# with_tree.sh - runs a command in a real ROS 2 tree's environment, as
# `source setup.bash` gives it (the overlay after its base).
# usage: with_tree.sh PREFIX... -- CMD ARGS...
set -eo pipefail
# A sub-build of ours: not a part of the calling make's job server.
unset MAKEFLAGS MFLAGS MAKELEVEL
while (($#)) && [[ $1 != -- ]]; do
	# shellcheck disable=SC1091
	. "$1/setup.bash"
	shift
done
shift
exec "$@"
