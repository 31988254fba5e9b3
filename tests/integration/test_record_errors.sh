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
echo "$failures failures"
((failures == 0))
