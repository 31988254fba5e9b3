#!/usr/bin/env bash
# caret live on running Python nodes: the rclpy program
# (rclpy_harmless/harmless.py: /talker's 20 Hz timer -> /relay, 1 ms of
# work -> /listener, a service called by a coroutine) with the tracer
# preloaded, caret live attached while it runs (the initialization
# replayed), --nodes /talker,/relay,/listener with a 1 ms deadline (the
# relay's work makes most instances miss it): its JSON lines checked by
# rclpy_harmless/live_check.py against the whole trace it kept (-o): every
# callback run and path instance counted once, the misses those of the
# trace. Then the program ends as without the tracer.
# usage: test_real_rclpy_live.sh [RMW]   (RMW: see real_env.sh)
set -uo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/rclpy_harmless/rclpy_env.sh" "${1:-}"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1

harmless_start "$work/app" || { echo "FAIL: the program's pipeline did not run within 30 s"; exit 1; }
app=$HARMLESS_PID

status=0
"$BIN/caret" live --nodes /talker,/relay,/listener --deadline 1ms --duration 6 --period 0.5 \
	--window 60 --json -o "$work/trace" >"$work/live.json" 2>"$work/live.err" || status=$?
cat "$work/live.err"
# 3: a deadline missed
if ((status != 3)) || ! grep -q 'the 1 process recording' "$work/live.err"; then
	echo "FAIL: caret live exited $status, not 3 (deadlines missed), or missed the process"
	exit 1
fi
"${PY[@]}" "$CARET_SOURCE_DIR/tests/real/rclpy_harmless/live_check.py" "$BIN/caret" "$work/live.json" \
	"$work/trace" /talker,/relay,/listener 40 1 || exit 1

touch "$work/stop"
status=0
wait "$app" || status=$?
if ((status != 1)) || ! grep -q '^RuntimeError: the end$' "$work/app.err" ||
	! grep -q '^faults caught: 2$' "$work/app.out"; then
	echo "FAIL: the program exited $status, not as it ends"
	cat "$work/app.err"
	exit 1
fi
echo "ok"
