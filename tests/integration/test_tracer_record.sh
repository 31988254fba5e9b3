#!/usr/bin/env bash
# A testbed system with libcaret.so preloaded, the session started first:
# initialization events as ros2_caret with init_timestamp, in creation order;
# executor and callback-group structure as in the truth; every callback run
# recorded; every DDS take matched to the publishing side's source stamp.
# The analyzer rebuilds the architecture of the truth (analyze_checks.sh).
# usage: test_tracer_record.sh SYSTEM MERGE(0|1) [DURATION]
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/integration/analyze_checks.sh"
system=$1 merge=$2 duration=${3:-3}
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"

caret_lttng_require
caret_lttng_ensure_daemon
caret_lttng_start "caret-test-tracer-$system" 'ros2:*' 'ros2_caret:*'
CARET_MERGE=$merge caret_in_test_group "$bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/$system.yaml" \
	--duration "$duration" --truth "$work/truth" --pid-file "$work/pids" \
	--preload "$CARET_BUILD_DIR/lib/libcaret.so"
caret_lttng_stop
"$bin/tb_trace_check" --tracer "$CARET_SOURCE_DIR/testbed/systems/$system.yaml" \
	"$CARET_TRACE_DIR" "$work/truth" "$work/pids"
caret_check_analysis "$CARET_TRACE_DIR" "$work/truth" "$work/pids" "$system"

# The form asked for, and only that one.
merged=0 plain=0
while read -r _ pid; do
	counts=$("$bin/tb_event_counts" --vpid "$pid" "$CARET_TRACE_DIR")
	merged=$((merged + $(awk '$1 == "ros2_caret:merged_callback_timing" { print $2 }' <<<"$counts")))
	plain=$((plain + $(awk '$1 == "ros2:callback_start" { print $2 }' <<<"$counts")))
done <"$work/pids"
echo "merged_callback_timing $merged, callback_start $plain"
if [[ $merge == 1 ]]; then ((merged > 0 && plain == 0)); else ((merged == 0 && plain > 0)); fi

# Trace size per callback instance (the stream files, packets included).
bytes=$(find "$CARET_TRACE_DIR" -type f ! -name metadata ! -path '*/index/*' -printf '%s\n' |
	awk '{ s += $1 } END { print s + 0 }')
runs=$(cat "$work"/truth/*.callbacks.*.csv | grep -vc '^pid,')
echo "trace: $bytes bytes of streams for $runs callback instances (merge=$merge)"
