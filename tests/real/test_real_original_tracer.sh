#!/usr/bin/env bash
# A trace of the original CARET tracer (caret_trace 0.7.3, in humble-caret)
# on real rclcpp apps, as CARET's users record it (an LTTng session, then
# the apps with the original libcaret.so preloaded): caret-c's analyzer must
# give the original analyzer's answers on it (tests/unit/original_vs_caret.py)
# and `caret check` must be clean. On Fast DDS the original binds every
# sample a writer adds to its history, discovery's included, to address 0:
# the analyzer must still link each publish to its own source timestamp.
# (On Debian's Cyclone DDS the original binds nothing: the function it
# hooks, dds_write_impl, is not exported there. Its Cyclone DDS traces are
# those of shared/data/real-humble, test_original_differential.)
# usage: test_real_original_tracer.sh TREE SYSTEM [RMW]   (TREE: humble-caret)
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${3:-}"
system=$2
original=$REAL_PREFIX/$REAL_TREE/lib/libcaret.so
[[ -f $original ]] || { echo "FAIL: no original tracer at $original" >&2; exit 1; }
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

# What the test checks needs messages through the whole chain: a run in
# which /sink took none (by the apps' own account: DDS discovery can
# outlast the apps' 3 s on a busy machine) is said and run again, up to
# three times. So is a run in which an app died of SIGSEGV: the original
# Jazzy tracer crashed one app of the pipeline once in a CI-like run here
# (a fault of that tracer, not of what this test checks).
for attempt in 1 2 3; do
	rm -rf "$work/trace" "$work/truth"
	CARET_TRACE_DIR=$work/trace
	caret_lttng_start caret-test-original 'ros2:*' 'ros2_caret:*'
	# it needs ROS_DISTRO (docs/real-ros2.md)
	status=0
	LD_PRELOAD=$original ROS_DISTRO=${REAL_TREE%-caret} "${CARET_GROUP[@]}" "$REAL_LAUNCH" \
		"$REAL_APPS" "$system" 3 "$work/truth" "$work/pids" >/dev/null 2>"$work/launch.err" ||
		status=$?
	cat "$work/launch.err" >&2
	caret_lttng_stop
	if ((status != 0)); then
		if ((attempt < 3)) && grep -q 'exited with status 139$' "$work/launch.err"; then
			echo "note: an app died of SIGSEGV under the original tracer (attempt $attempt)"
			continue
		fi
		echo "FAIL: the apps failed (launch.sh exited $status)" >&2
		exit 1
	fi
	real_chain_delivered "$work/truth" && break
	echo "note: /sink took no message on /topic_b in the apps' 3 s (attempt $attempt)"
done
"$BIN/caret" summary events "$work/trace" | grep -E '^(ros2_caret:dds_bind_addr_to_stamp|total) '
"$BIN/caret" summary events "$work/trace" | grep -q '^ros2_caret:dds_bind_addr_to_stamp ' ||
	{ echo "the original tracer recorded no dds_bind_addr_to_stamp" >&2; exit 1; }

# every message taken on the apps' topics linked to its publish (the last
# ones published may not be received: the apps stop)
"$BIN/caret" latency topics --format csv "$work/trace" >"$work/topics"
cat "$work/topics"
if ! awk -F, '$1 ~ /^\/topic_/ { n++; if ($3 == 0 || $11 != 0) bad = 1 }
	END { exit bad || !n }' "$work/topics"; then
	echo "messages of the apps' topics not linked to their publishes" >&2
	exit 1
fi
"$BIN/caret" check "$work/trace" >"$work/check" 2>&1 || true
tail -1 "$work/check"
grep -q '^result: ok' "$work/check" || { cat "$work/check"; exit 1; }

real_anchor "$work/anchor"
PYTHONPATH=$work/anchor /usr/bin/python3 "$CARET_SOURCE_DIR/tests/unit/original_vs_caret.py" \
	"$BIN/caret" "$work/trace" >"$work/compared" 2>"$work/original.err" ||
	{ grep -E '^(FAIL|  )' "$work/compared"; tail -5 "$work/original.err"; exit 1; }
grep -E 'differences' "$work/compared"
