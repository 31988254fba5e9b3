#!/usr/bin/env bash
# tracer_stress starts while a session records (so the tracer is in RECORD)
# and runs while other sessions are created, started and destroyed around it
# and the first one is destroyed too; it must end cleanly, and in a
# sanitizer build with no report.
set -uo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"

# A session per subshell, each destroyed on its way out.
session() { # NAME SECONDS
	(
		CARET_TRACE_DIR=$work/trace-$1 caret_lttng_start "caret-test-stress-$1" \
			'ros2:*' 'ros2_caret:*' || exit 1
		sleep "$2"
		caret_lttng_stop
	)
}

session first 4 &
first=$!
sleep 0.5
"${CARET_GROUP[@]}" "$CARET_BUILD_DIR/bin/tracer_stress" 6 >"$work/out" 2>&1 &
stress=$!
caret_at_exit "kill $stress 2>/dev/null || true"
for i in 1 2 3 4; do
	sleep 0.3
	session "extra$i" 0.6 || exit 1
done
wait "$first" || exit 1
wait "$stress"
status=$?
cat "$work/out"
if grep -q "Sanitizer" "$work/out"; then
	echo "sanitizer report"
	exit 1
fi
events=$("$CARET_BUILD_DIR/bin/tb_event_counts" "$work/trace-first" | awk '/^total/ { print $2 }')
echo "first session: $events events"
((status == 0 && events > 0))
