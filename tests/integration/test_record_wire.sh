#!/usr/bin/env bash
# The wire contract without our recorder: a plain DDS reader written for the
# test sees every tracer's Status, and a Start from a plain DDS writer drives
# the tracers from WAIT to RECORD (then End back to WAIT).
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

"${CARET_GROUP[@]}" "$bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/services.yaml" \
	--duration 10 --pid-file "$work/pids" --preload "$CARET_BUILD_DIR/lib/libcaret.so" &
launcher=$!
caret_at_exit "kill $launcher 2>/dev/null || true"
sleep 1.5
"$bin/control_client" status 1.5 >"$work/before"
caret_lttng_start caret-test-wire 'ros2:*' 'ros2_caret:*'
"$bin/control_client" status 3 >"$work/after" &
reader=$!
"$bin/control_client" start
wait "$reader"
"$bin/control_client" end
"$bin/control_client" status 1.5 >"$work/ended"
caret_lttng_stop
wait "$launcher"

# state of each traced pid, last Status seen in a file
state() { awk -v pid="$2" '$2 == pid { s = $3 } END { print s }' "$1"; }
while read -r process pid; do
	b=$(state "$work/before" "$pid") a=$(state "$work/after" "$pid") e=$(state "$work/ended" "$pid")
	echo "$process (pid $pid): ${b:-?} -> ${a:-?} -> ${e:-?} (1 WAIT, 3 RECORD)"
	[[ $b == 1 && $a == 3 && $e == 1 ]]
	n=$("$bin/tb_event_counts" --vpid "$pid" "$CARET_TRACE_DIR" |
		awk '$1 == "ros2_caret:caret_init" || $1 == "ros2_caret:rcl_node_init" { n += $2 } END { print n + 0 }')
	((n >= 2)) || { echo "$process: no caret_init or node in the trace"; exit 1; }
done <"$work/pids"
grep -q "^caret_trace_[0-9a-f_]* " "$work/after"
