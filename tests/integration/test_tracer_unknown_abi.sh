#!/usr/bin/env bash
# libcaret.so in processes whose tracetools ABI it does not know (the
# testbed's tracetools built Iron-like: enabled/do functions, no Jazzy ring
# buffers) stays out of the way: it records nothing of its own, every call
# reaches the original tracetools (which records the plain ros2 events when a
# session wants them), the processes run as without it, and CARET_DEBUG
# says so once per process.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

caret_lttng_start caret-test-unknown-abi 'ros2:*' 'ros2_caret:*'
CARET_DEBUG=1 LD_LIBRARY_PATH=$CARET_BUILD_DIR/lib/unknown-abi caret_in_test_group \
	"$bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/pipeline.yaml" --duration 2 \
	--pid-file "$work/pids" --preload "$CARET_BUILD_DIR/lib/libcaret.so" 2>"$work/stderr"
caret_lttng_stop

processes=$(wc -l <"$work/pids")
said=$(grep -o "ABI is not one the tracer knows" "$work/stderr" | wc -l || true)
echo "$said of $processes processes said the ABI is unknown"
((said == processes))
"$bin/caret" summary events --format csv "$CARET_TRACE_DIR" >"$work/events"
# the original's events, all of them: initialization and runtime
for event in ros2:rcl_node_init ros2:rcl_publisher_init ros2:callback_start ros2:rcl_publish; do
	n=$(awk -F, -v e="$event" '$1 == e { print $2 }' "$work/events")
	echo "$event: ${n:-0}"
	((${n:-0} > 0))
done
caret=$(awk -F, '$1 ~ /^ros2_caret:/ { s += $2 } END { print s + 0 }' "$work/events")
echo "ros2_caret events: $caret"
((caret == 0))
