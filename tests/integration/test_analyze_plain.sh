#!/usr/bin/env bash
# A trace of the pipeline recorded with the testbed's tracetools alone (no
# libcaret.so) by `caret record --immediate`: the analyzer still rebuilds
# nodes, publishers, subscriptions, timers and callbacks as in the truth,
# finds every callback run and message of the truth (inter-process ones by
# the DDS source timestamp against the publish time on the epoch clock),
# and `caret check` names exactly what is missing in warnings: caret_init,
# the executor and callback-group events, and the DDS source timestamps of
# publishes (messages matched by time instead, as the verbs say too).
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"

caret_lttng_require
caret_lttng_ensure_daemon
# caret record --immediate: the session first, then the apps.
"$bin/caret" record -o "$work/trace" --immediate --duration 5 >/dev/null 2>"$work/record.err" &
recorder=$!
caret_at_exit "kill $recorder 2>/dev/null || true"
sleep 1
caret_in_test_group "$bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/pipeline.yaml" \
	--duration 2 --truth "$work/truth" --pid-file "$work/pids"
# kept, but not what caret record is for: exit 1, saying so
status=0
wait "$recorder" || status=$?
cat "$work/record.err"
((status == 1))
grep -q "none from libcaret.so: the applications ran without the tracer" "$work/record.err"
CARET_TRACE_DIR=$work/trace
"$bin/records_check" "$CARET_TRACE_DIR" "$work/truth" "$work/pids" \
	--path /sensing/camera,/sensing/image_filter,/perception/fusion,/planning/planner,/control/actuator
"$bin/arch_check" --no-structure "$CARET_TRACE_DIR" "$work/truth" "$work/pids"
"$bin/caret" arch -o "$work/arch.yaml" "$CARET_TRACE_DIR"
/usr/bin/python3 "$CARET_SOURCE_DIR/tests/integration/arch_same.py" \
	"$CARET_SOURCE_DIR/tests/data/golden/arch-pipeline-plain.yaml" "$work/arch.yaml"

status=0
"$bin/caret" check "$CARET_TRACE_DIR" >"$work/check" || status=$?
cat "$work/check"
((status == 0))
n=$(wc -l <"$work/pids")
expect() { # COUNT TEXT: TEXT appears on COUNT lines
	local got
	got=$(grep -c -- "$2" "$work/check" || true)
	if ((got != $1)); then
		echo "expected $1 lines with '$2', got $got" >&2
		exit 1
	fi
}
expect "$n" "warning: no caret_init: not recorded through libcaret.so"
expect "$n" "warning: no executor or callback group events"
# sensing and perception publish over DDS; planning's only publisher feeds
# the actuator in the same process (intra-process), so it has no DDS publish.
publishers=2
expect "$publishers" "warning: .* publish events but no DDS source timestamps.*matched by time instead"
expect 0 "name.* an unknown"
grep -q "^result: ok ($((2 * n + publishers)) warnings)" "$work/check"
"$bin/caret" latency topics "$CARET_TRACE_DIR" 2>&1 >/dev/null |
	grep -q "note: [0-9]* inter-process messages were matched to their publishes by time"
