#!/usr/bin/env bash
# A trace as a Kilted process records it (ros2_tracing 8.6: u8[16] gids in
# rmw_publisher_init / rmw_subscription_init, and the rmw service events
# rmw_client_init, rmw_send_request, rmw_take_request, rmw_send_response,
# rmw_take_response), from kilted_emit: both readers decode it into the
# same tables, caret latency services follows every call with the times
# the emitter spaced its stages by, and caret check names the distribution.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

calls=20
caret_lttng_start caret-test-kilted 'ros2:*'
caret_in_test_group "$bin/kilted_emit" "$calls" >/dev/null
caret_lttng_stop

"$bin/caret" summary events --format csv "$CARET_TRACE_DIR" >"$work/events"
for event in rmw_publisher_init:1 rmw_subscription_init:1 rmw_client_init:1 \
	rmw_send_request:$calls rmw_take_request:$calls rmw_send_response:$calls \
	rmw_take_response:$calls; do
	n=$(awk -F, -v e="ros2:${event%%:*}" '$1 == e { print $2 }' "$work/events")
	echo "ros2:${event%%:*}: ${n:-0}"
	[[ ${n:-0} == "${event##*:}" ]]
done
# the native reader and babeltrace2 alike, the 16-byte gids' keys included
"$bin/ctf_reader_diff" "$CARET_TRACE_DIR"
"$bin/tables_diff" "$CARET_TRACE_DIR"

"$bin/caret" latency services --format csv "$CARET_TRACE_DIR" >"$work/services"
cat "$work/services"
# every call complete, each stage at least what the emitter waited
awk -F, -v calls="$calls" '
	NR == 1 { next }
	{ n++ }
	$1 != "/add_two_ints" || $2 != "/client" || $3 != "/server" || $5 != calls || $12 != 0 { bad = 1 }
	$4 == "request" && $6 < 100000 { bad = 1 }
	$4 == "service" && $6 < 200000 { bad = 1 }
	$4 == "response" && $6 < 100000 { bad = 1 }
	$4 == "round_trip" && $6 < 400000 { bad = 1 }
	END { exit bad || n != 4 }' "$work/services" ||
	{ echo "caret latency services did not follow every call" >&2; exit 1; }

"$bin/caret" check "$CARET_TRACE_DIR" >"$work/check" 2>&1 || true
grep 'tracetools 8.6.0' "$work/check"
grep -q 'tracetools 8.6.0: ROS 2 Kilted' "$work/check" ||
	{ cat "$work/check"; echo "caret check does not name Kilted" >&2; exit 1; }
echo "ok: a Kilted-layout trace read, its $calls service calls followed"
