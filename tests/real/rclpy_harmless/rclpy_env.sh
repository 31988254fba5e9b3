# shellcheck shell=bash disable=SC2034
# rclpy_env.sh - sourced by the tests of rclpy_harmless/: real_env.sh's
# Jazzy (helpers, DDS on loopback, RMW) with the rclpy overlay on top, and
# the program they run. Skipped (exit 77, one line) without the overlay.
# usage: . rclpy_env.sh [RMW]
# Sets what real_env.sh sets, and HARMLESS (the program) and PY (Debian's
# Python, the one the overlay's bindings are built for; an array).
_rclpy_setup=${CARET_ROS_ROOT:-/opt/ros}/jazzy-rclpy/setup.bash
if [[ ! -f $_rclpy_setup ]]; then
	echo "SKIP: the rclpy overlay is not installed ($_rclpy_setup missing; 'make deps' installs it from shared/ros2)"
	exit 77
fi
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" jazzy "${1:-}"
set +u
# shellcheck disable=SC1090
. "$_rclpy_setup"
set -u
unset ROS_DISTRO
HARMLESS=$CARET_SOURCE_DIR/tests/real/rclpy_harmless/harmless.py
PY=(/usr/bin/python3)
# In a sanitizers' build (make test-asan) the preloaded tracer brings ASan
# into Python, whose own allocations and rclpy's are not ours to check for
# leaks: leak detection off in the Python processes alone.
[[ -z ${CARET_PYTHON_PRELOAD:-} ]] ||
	PY=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" /usr/bin/python3)
