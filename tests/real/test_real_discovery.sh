#!/usr/bin/env bash
# caret record reaches real rclcpp processes whatever their discovery
# settings, because the tracer's endpoint joins the domain the rmw made and
# the recorder configures its own as rmw_cyclonedds does: here, without
# CYCLONEDDS_URI, localhost discovery (no multicast, peers on this machine
# only: nothing leaves it): Humble's ROS_LOCALHOST_ONLY=1; on Jazzy,
# ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST with ROS_STATIC_PEERS=127.0.0.1,
# and the deprecated ROS_LOCALHOST_ONLY=1. The pipeline as three
# processes, recorded while it runs, checked against its truth. With Fast
# DDS the apps stay pinned to loopback by their profile; the tracer's own
# Cyclone DDS domain in each of them and the recorder's follow
# ROS_LOCALHOST_ONLY.
# usage: test_real_discovery.sh TREE [RMW]   (RMW: see real_env.sh)
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${2:-}"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon
# The README of the trees: never both (Humble's rmw would add lo twice).
unset CYCLONEDDS_URI

# discovered SETTINGS...: the apps and the recorder in these settings
discovered() {
	local name=$1
	shift
	echo "== $*"
	mkdir -p "$work/$name"
	# the apps run until the recording is done (then stopped as Ctrl-C does)
	env "$@" LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" pipeline3 120 \
		"$work/$name/truth" "$work/$name/pids" &
	launcher=$!
	caret_at_exit "kill -TERM $launcher 2>/dev/null || true"
	sleep 2
	env "$@" "$BIN/caret" record -o "$work/$name/trace" --duration 2 >/dev/null \
		2>"$work/record.err" || { cat "$work/record.err"; return 1; }
	cat "$work/record.err"
	grep -q "all 3 processes recording" "$work/record.err"
	kill -TERM "$launcher"
	wait "$launcher"
	real_check "$work/$name/trace" "$work/$name/truth" "$work/$name/pids" pipeline3
}

if [[ $REAL_TREE == jazzy ]]; then
	discovered range ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST ROS_STATIC_PEERS=127.0.0.1
	discovered deprecated ROS_LOCALHOST_ONLY=1
else
	discovered localhost ROS_LOCALHOST_ONLY=1
fi
