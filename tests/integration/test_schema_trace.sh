#!/usr/bin/env bash
# Records every ros2 event (through the testbed's libtracetools.so) and every
# ros2_caret event (through the tracer's provider) in a real LTTng session,
# then checks names, field layouts and values against the schema table.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin

caret_lttng_require
caret_lttng_ensure_daemon
caret_lttng_start caret-test-schema 'ros2:*' 'ros2_caret:*'
"${CARET_GROUP[@]}" "$bin/tb_emit_all" &
pid=$!
wait "$pid"
caret_lttng_stop

# Only this test's process counts: other tests record at the same time.
"$bin/schema_check" "$CARET_TRACE_DIR" "$pid"
