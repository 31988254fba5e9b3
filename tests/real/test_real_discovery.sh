#!/usr/bin/env bash
# caret record reaches real rclcpp processes whatever their discovery
# settings, because the tracer's endpoint joins the domain the rmw made and
# the recorder configures its own as rmw_cyclonedds does: here
# ROS_LOCALHOST_ONLY=1 without CYCLONEDDS_URI (the loopback interface
# only, so nothing leaves the machine either). The pipeline as three
# processes, recorded while it runs, checked against its truth.
# usage: test_real_discovery.sh TREE
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon
# The README of the trees: never both (rmw would add lo twice).
unset CYCLONEDDS_URI
export ROS_LOCALHOST_ONLY=1

LD_PRELOAD=$CARET_LIB "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" pipeline3 7 \
	"$work/truth" "$work/pids" &
launcher=$!
caret_at_exit "kill -INT $launcher 2>/dev/null || true"
sleep 2
"$BIN/caret" record -o "$work/trace" --duration 2 >/dev/null 2>"$work/record.err" || {
	cat "$work/record.err"
	exit 1
}
cat "$work/record.err"
grep -q "all 3 processes recording" "$work/record.err"
wait "$launcher"
real_check "$work/trace" "$work/truth" "$work/pids" pipeline3
