#!/usr/bin/env bash
# Apps started before any session are in WAIT: when a session starts later,
# nothing of theirs is recorded until told to record (caret record, next
# issue), and the apps run on unharmed.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"

caret_lttng_require
caret_lttng_ensure_daemon
"${CARET_GROUP[@]}" "$bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/pipeline.yaml" --duration 4 \
	--truth "$work/truth" --pid-file "$work/pids" \
	--preload "$CARET_BUILD_DIR/lib/libcaret.so" &
launcher=$!
caret_at_exit "kill $launcher 2>/dev/null || true"
sleep 1.5
caret_lttng_start caret-test-tracer-wait 'ros2:*' 'ros2_caret:*'
sleep 1.5
caret_lttng_stop
wait "$launcher"

total=0
while read -r process pid; do
	n=$("$bin/tb_event_counts" --vpid "$pid" "$CARET_TRACE_DIR" | awk '/^total/ { print $2 }')
	echo "$process (pid $pid): $n events recorded"
	total=$((total + n))
done <"$work/pids"
runs=$(cat "$work"/truth/*.callbacks.*.csv | grep -vc '^pid,')
echo "$runs callback runs happened, $total events recorded"
((total == 0 && runs > 0))
