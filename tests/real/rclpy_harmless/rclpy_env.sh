# shellcheck shell=bash disable=SC2034
# rclpy_env.sh - sourced by the tests of rclpy_harmless/: real_env.sh's
# jazzy-rclpy tree (helpers, DDS on loopback, RMW; skipped, exit 77, where
# the overlay is missing) and the program they run.
# usage: . rclpy_env.sh [RMW]
# Sets what real_env.sh sets, and HARMLESS (the program) and PY (Debian's
# Python, the one the overlay's bindings are built for; an array); and
# harmless_start (below), which needs $work.
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" jazzy-rclpy "${1:-}"
HARMLESS=$CARET_SOURCE_DIR/tests/real/rclpy_harmless/harmless.py
PY=(/usr/bin/python3)
# In a sanitizers' build (make test-asan) the preloaded tracer brings ASan
# into Python, whose own allocations and rclpy's are not ours to check for
# leaks: leak detection off in the Python processes alone.
[[ -z ${CARET_PYTHON_PRELOAD:-} ]] ||
	PY=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" /usr/bin/python3)

# harmless_start OUT: the program, the tracer preloaded, in the background
# ($HARMLESS_PID) until $work/stop appears, its stdout and stderr in
# OUT.out and OUT.err; returns once its pipeline runs (1 when it did not
# within 30 s).
harmless_start() {
	env LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" timeout 60 "${PY[@]}" "$HARMLESS" \
		--until "$work/stop" --ready "$work/ready" >"$1.out" 2>"$1.err" &
	HARMLESS_PID=$!
	caret_at_exit "touch '$work/stop'; kill $HARMLESS_PID 2>/dev/null || true"
	local i
	for ((i = 0; i < 300; i++)); do
		[[ -e $work/ready ]] && return 0
		sleep 0.1
	done
	return 1
}
