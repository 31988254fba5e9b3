#!/usr/bin/env bash
# tracer_stress starts while a session records (so the tracer is in RECORD)
# and runs while other sessions are created, started and destroyed around it,
# Start and End arrive over DDS (replays racing new initialization events),
# and the first session is destroyed too; it must end cleanly, and in a
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
		touch "$work/recording-$1"
		sleep "$2"
		caret_lttng_stop
	)
}

session first 4 &
first=$!
# tracer_stress starts once the first session records (creating it can take
# seconds on a busy machine), and finds it there when it initializes
for ((i = 0; i < 600; i++)); do
	[[ -e $work/recording-first ]] && break
	kill -0 "$first" 2>/dev/null || break
	sleep 0.1
done
if [[ ! -e $work/recording-first ]]; then
	echo "the first session did not start recording"
	exit 1
fi
"${CARET_GROUP[@]}" "$CARET_BUILD_DIR/bin/tracer_stress" 6 >"$work/out" 2>&1 &
stress=$!
caret_at_exit "kill $stress 2>/dev/null || true"
for i in 1 2 3 4; do
	sleep 0.3
	session "extra$i" 0.6 || exit 1
	# The control plane too: a replay while 8 threads add initialization.
	"$CARET_BUILD_DIR/bin/control_client" start >/dev/null 2>&1 &
	sleep 0.2
	"$CARET_BUILD_DIR/bin/control_client" end >/dev/null 2>&1 &
done
wait_clients() { for job in $(jobs -p); do [[ $job == "$stress" || $job == "$first" ]] || wait "$job"; done; }
# where it was, should ctest's timeout end it (seen once in make test: 120 s
# with nothing said; it takes about 35 s)
echo "$SECONDS s: the sessions around it done; waiting for the first session"
wait "$first" || exit 1
echo "$SECONDS s: waiting for the control clients"
wait_clients
echo "$SECONDS s: waiting for tracer_stress"
for ((i = 0; i < 600; i++)); do # 60 s: it runs 6
	kill -0 "$stress" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$stress" 2>/dev/null; then
	echo "tracer_stress (pid $stress) still running after 60 s; its threads:"
	gdb -p "$stress" -batch -ex "thread apply all bt 12" 2>/dev/null | grep -E "^Thread|^#" | head -120
	kill -KILL "$stress"
	cat "$work/out"
	exit 1
fi
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
