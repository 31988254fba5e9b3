#!/usr/bin/env bash
# caret record's error paths: each gives a one-line reason, a non-zero exit,
# and leaves no session behind.
set -uo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
caret=$CARET_BUILD_DIR/bin/caret
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1
failures=0

expect() { # NAME MESSAGE CMD...
	local name=$1 message=$2
	shift 2
	local before after
	before=$(lttng list 2>/dev/null | grep -c '^  [0-9]*) ' || true)
	"$@" >"$work/out" 2>"$work/err"
	local status=$?
	after=$(lttng list 2>/dev/null | grep -c '^  [0-9]*) ' || true)
	if ((status == 0)) || ! grep -qF -- "$message" "$work/err" ||
	   (($(wc -l <"$work/err") != 1)) || grep -q "caret-test-err" <(lttng list 2>/dev/null); then
		echo "FAIL $name: exit $status; stderr: $(cat "$work/err")"
		lttng list 2>/dev/null | grep "caret-test-err"
		failures=$((failures + 1))
	else
		echo "ok $name: $(cat "$work/err")"
	fi
	: "$before" "$after"
}

"$caret" record --bogus 2>"$work/err"
status=$?
# one line naming the verb and the option, as the other verbs say it
if ((status != 2)) || [[ $(cat "$work/err") != "caret record: unrecognized option '--bogus'" ]]; then
	echo "FAIL usage: exit $status: $(head -3 "$work/err")"
	failures=$((failures + 1))
else
	echo "ok usage: exit 2: $(cat "$work/err")"
fi
expect missing-command "cannot execute /nonexistent/robot: command not found" \
	"$caret" record -s caret-test-err-1 -o "$work/t1" -- /nonexistent/robot
expect unwritable-output "cannot" \
	"$caret" record -s caret-test-err-2 -o /proc/caret-test/trace --duration 1
expect existing-output "already exists" \
	"$caret" record -s caret-test-err-3 -o "$work" --duration 1
expect discovery-off "ROS_AUTOMATIC_DISCOVERY_RANGE=OFF" \
	env ROS_AUTOMATIC_DISCOVERY_RANGE=OFF "$caret" record -s caret-test-err-5 -o "$work/t5" \
	--duration 1

# A session already recording our events (in this test's group).
caret_lttng_start caret-test-active 'ros2_caret:*' || exit 1
expect already-active "session $CARET_SESSION already records ros2_caret events" \
	"$caret" record -s caret-test-err-4 -o "$work/t4" --duration 1
caret_lttng_stop

# No session daemon: an unprivileged user without one (a copy of caret it
# can reach: the build tree may sit in a private directory).
if ((EUID == 0)); then
	chmod 755 "$work"
	cp "$caret" "$work/caret"
	expect no-daemon "no LTTng session daemon is running" \
		runuser -u nobody -- env HOME=/nonexistent "$work/caret" record \
		-o /tmp/caret-nobody --duration 1
fi
# ---- asked to record, nothing to record: exit 1 within seconds, the likely
# cause in one line, no session and no trace left behind
quick() { # NAME SECONDS MESSAGE OUTPUT CMD...: expect, in at most SECONDS, OUTPUT not left
	local name=$1 seconds=$2 message=$3 output=$4 began=$SECONDS
	shift 4
	expect "$name" "$message" "$@"
	if ((SECONDS - began > seconds)); then
		echo "FAIL $name: took $((SECONDS - began)) s, more than $seconds"
		failures=$((failures + 1))
	fi
	if [[ -n $output && -e $output ]]; then
		echo "FAIL $name: left $output: $(find "$output" | head -5 | tr '\n' ' ')"
		failures=$((failures + 1))
	fi
}
bin=$CARET_BUILD_DIR/bin
system=$CARET_SOURCE_DIR/testbed/systems/pipeline.yaml
pipeline() { # PRELOAD...: the pipeline's 3 processes for 30 s, in this test's group
	"${CARET_GROUP[@]}" "$bin/tb-launch" "$system" --duration 30 --pid-file "$work/pids" "$@" \
		>/dev/null 2>&1 &
	launcher=$!
	caret_at_exit "kill $launcher 2>/dev/null || true"
	for ((i = 0; i < 100; i++)); do
		[[ -s $work/pids ]] && break
		sleep 0.1
	done
	sleep 1
}
pids() { cut -d' ' -f2 "$work/pids"; }
stop_pipeline() {
	kill "$launcher" 2>/dev/null || true
	wait "$launcher" 2>/dev/null || true
	rm -f "$work/pids"
}
quick no-process 8 "no traced process answered on ROS_DOMAIN_ID $ROS_DOMAIN_ID" "$work/t6" \
	"$caret" record -s caret-test-err-6 -o "$work/t6" --duration 1
quick live-no-process 8 "no traced process answered on ROS_DOMAIN_ID $ROS_DOMAIN_ID" "" \
	"$caret" live -s caret-test-err-7 --duration 2
# the apps started without the tracer: they run, their ros2_tracing events
# would be recorded, none of libcaret.so
pipeline
quick untraced 8 "run without libcaret.so" "$work/t8" \
	"$caret" record -s caret-test-err-8 -o "$work/t8" --duration 1
for pid in $(pids); do
	grep -qw "$pid" "$work/err" ||
		{ echo "FAIL untraced: pid $pid not named"; failures=$((failures + 1)); }
done
stop_pipeline
# --immediate, the apps started after: ros2_tracing's events recorded, no
# tracer's: not a CARET trace
"$caret" record -s caret-test-err-9 -o "$work/t9" --immediate --duration 4 >"$work/out" \
	2>"$work/err" &
recorder=$!
sleep 1
pipeline
status=0
wait "$recorder" || status=$?
stop_pipeline
if ((status != 1)) || ! grep -q "none from libcaret.so" "$work/err" || [[ -s $work/out ]]; then
	echo "FAIL untraced-immediate: exit $status; stdout $(cat "$work/out"); stderr $(cat "$work/err")"
	failures=$((failures + 1))
else
	echo "ok untraced-immediate: $(tail -n 1 "$work/err")"
fi
# the apps traced, on another domain than the recorder's
pipeline --preload "$CARET_BUILD_DIR/lib/libcaret.so"
quick other-domain 8 "3 processes with libcaret.so run on this machine" "$work/t10" \
	env ROS_DOMAIN_ID="$CARET_TEST_SPARE_DOMAIN" "$caret" record -s caret-test-err-10 \
	-o "$work/t10" --duration 1
grep -qF "none answered on ROS_DOMAIN_ID $CARET_TEST_SPARE_DOMAIN" "$work/err" ||
	{ echo "FAIL other-domain: the domain not named"; failures=$((failures + 1)); }
stop_pipeline
# the wait on a terminal: the progress line moves, saying what it waits for
script -qec "$caret record -s caret-test-err-11 -o $work/t11 --duration 1" "$work/typescript" \
	>/dev/null
shown=$(tr '\r' '\n' <"$work/typescript" |
	sed -n "s/^looking for traced processes on ROS_DOMAIN_ID $ROS_DOMAIN_ID *\([0-9.]*\)s | .*/\1/p" |
	sort -u | wc -l)
if ((shown < 10)); then
	echo "FAIL progress: $shown different times in the line looking for processes"
	tr '\r' '\n' <"$work/typescript" | tail -n 5
	failures=$((failures + 1))
else
	echo "ok progress: the line looking for processes moved through $shown times"
fi
interrupt() { # NAME MESSAGE OUTPUT WHEN CMD...: Ctrl-C once stderr has WHEN in it
	local name=$1 message=$2 output=$3 when=$4
	shift 4
	"$@" >"$work/out" 2>"$work/err" &
	local pid=$! status=0
	for ((i = 0; i < 100; i++)); do
		[[ -z $when ]] || grep -q "$when" "$work/err" && break
		sleep 0.1
	done
	sleep 0.5
	kill -INT "$pid"
	wait "$pid" || status=$?
	if ((status != 1)) || ! grep -qF "$message" "$work/err" || [[ -e $output ]] ||
	   grep -q "processes recording" "$work/err"; then
		echo "FAIL $name: exit $status; stderr: $(cat "$work/err"); $(ls -d "$output" 2>&1)"
		failures=$((failures + 1))
	else
		echo "ok $name: $(tail -n 1 "$work/err")"
	fi
}
# Ctrl-C while it looks for the processes, and while they replay (one
# record a second): said as it is, nothing kept
interrupt interrupted-looking "stopped while looking for the traced processes" "$work/t12" "" \
	"$caret" record -s caret-test-err-12 -o "$work/t12"
pipeline --preload "$CARET_BUILD_DIR/lib/libcaret.so"
interrupt interrupted-starting "stopped while waiting for the processes to record (0 of 3 recording): nothing kept" \
	"$work/t13" "trace in" "$caret" record -s caret-test-err-13 -o "$work/t13" -f 1
stop_pipeline
echo "$failures failures"
((failures == 0))
