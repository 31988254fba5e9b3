#!/usr/bin/env bash
# libcaret.so preloaded where there is no ROS activity, or no session, or
# no DDS: programs behave exactly as without it, and it prints nothing.
set -uo pipefail
lib=$CARET_BUILD_DIR/lib/libcaret.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

same() { # NAME CMD...: output and status equal with and without the tracer
	local name=$1
	shift
	"$@" >"$work/plain.out" 2>"$work/plain.err"
	local plain=$?
	LD_PRELOAD=$lib "$@" >"$work/traced.out" 2>"$work/traced.err"
	local traced=$?
	if ((plain != traced)) || ! cmp -s "$work/plain.out" "$work/traced.out" ||
	   ! cmp -s "$work/plain.err" "$work/traced.err"; then
		echo "FAIL $name: status $plain vs $traced, or different output"
		failures=$((failures + 1))
	else
		echo "ok $name (status $traced)"
	fi
}

same ls ls -l /usr/include/lttng
same exit-status sh -c 'exit 3'
same fork-and-wait sh -c 'for i in 1 2 3; do (echo child $i); done; wait'
same errno-from-libc sh -c 'cat /nonexistent'
same testbed-app-no-session "$CARET_BUILD_DIR/bin/tb-launch" --check \
	"$CARET_SOURCE_DIR/testbed/systems/pipeline.yaml"
# A ROS-like process with the tracer and no session: silent, clean exit.
LD_PRELOAD=$lib "$CARET_BUILD_DIR/bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/services.yaml" \
	--duration 1 >"$work/out" 2>&1 || { echo "FAIL services under the tracer"; failures=$((failures + 1)); }
if grep -q "^caret:" "$work/out"; then
	echo "FAIL the tracer printed without CARET_DEBUG"
	failures=$((failures + 1))
fi
# A process that makes no node gets no control thread and no DDS socket.
. "$CARET_SOURCE_DIR/tests/integration/footprint.sh"
LD_PRELOAD=$lib sleep 3 &
sleeper=$!
sleep 1
if footprint=$(tracer_footprint "$sleeper"); then
	echo "ok no node, no control thread, no DDS ($footprint)"
else
	echo "FAIL a process without nodes: $footprint"
	failures=$((failures + 1))
fi
kill "$sleeper" 2>/dev/null
wait "$sleeper" 2>/dev/null
echo "$failures failures"
((failures == 0))
