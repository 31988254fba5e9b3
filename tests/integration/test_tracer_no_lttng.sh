#!/usr/bin/env bash
# A process whose libtracetools was built without LTTng (the testbed's
# variant: every function a no-op, compile_status false) under libcaret.so:
# the tracer answers compile_status truthfully and records it
# (ros2_caret:tracetools_status), and caret check says the trace cannot
# give message latencies instead of "ok".
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

caret_lttng_start caret-test-no-lttng 'ros2:*' 'ros2_caret:*'
LD_LIBRARY_PATH=$CARET_BUILD_DIR/lib/no-lttng caret_in_test_group "$bin/tb-launch" \
	"$CARET_SOURCE_DIR/testbed/systems/pipeline.yaml" --duration 2 --pid-file "$work/pids" \
	--preload "$CARET_BUILD_DIR/lib/libcaret.so"
caret_lttng_stop

status=0
"$bin/caret" check "$CARET_TRACE_DIR" >"$work/check" 2>&1 || status=$?
cat "$work/check"
((status == 1)) || { echo "caret check exited $status, wanted 1" >&2; exit 1; }
n=$(grep -c "libtracetools was built without LTTng" "$work/check")
((n == $(wc -l <"$work/pids"))) || { echo "$n processes reported, wanted all" >&2; exit 1; }
# recorded as the tracer saw it
"$bin/caret" summary events "$CARET_TRACE_DIR" | grep -q '^ros2_caret:tracetools_status '
