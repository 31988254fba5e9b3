# shellcheck shell=bash disable=SC2034
# rclpy_env.sh - sourced by the tests of rclpy_harmless/: real_env.sh's
# jazzy-rclpy tree (helpers, DDS on loopback, RMW; skipped, exit 77, where
# the overlay is missing) and the program they run.
# usage: . rclpy_env.sh [RMW]
# Sets what real_env.sh sets, and HARMLESS (the program) and PY (Debian's
# Python, the one the overlay's bindings are built for; an array).
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" jazzy-rclpy "${1:-}"
HARMLESS=$CARET_SOURCE_DIR/tests/real/rclpy_harmless/harmless.py
PY=(/usr/bin/python3)
# In a sanitizers' build (make test-asan) the preloaded tracer brings ASan
# into Python, whose own allocations and rclpy's are not ours to check for
# leaks: leak detection off in the Python processes alone.
[[ -z ${CARET_PYTHON_PRELOAD:-} ]] ||
	PY=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" /usr/bin/python3)
