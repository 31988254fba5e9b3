#!/usr/bin/env bash
# Where each message waited, on real rclcpp: split3 (/sensor -> /filter ->
# /sink, /filter's executor kept busy 15 ms of every 37 ms by /busy, /sink's
# idle) recorded from the start on TREE and RMW; split_check.py holds the
# split of caret latency topics, caret path latency and caret_c against
# the trace's own runs of /busy (the wait must land in reception_to_callback
# on the busy executor, not on the idle one), the same when caret record
# joins the running apps, and the page of caret report
# shows it (tests/browser/report_split.py). A trace with no reception
# recorded (the original tracer's) reads as before and --split says why.
# usage: test_real_split.sh TREE [RMW]
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${2:-}"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

# 4 s of the apps: about 150 messages a topic, 40 of them published while
# /busy runs (2 s, as real_from_start runs, leaves some 40 a topic after
# discovery on a loaded machine)
dir=$work/split3
mkdir -p "$dir"
real_record_start "$dir/trace"
env LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" split3 4 \
	"$dir" "$dir/pids" >/dev/null
real_record_stop "$dir/trace"
CARET_ANALYZE_LIBRARY=$CARET_BUILD_DIR/lib/libcaret-analyze.so.0 \
	PYTHONPATH=$CARET_SOURCE_DIR/python "${REAL_PYTHON[@]}" \
	"$CARET_SOURCE_DIR/tests/real/split_check.py" "$dir/trace" --caret "$BIN/caret" \
	--rmw "$REAL_RMW" --python

echo "== caret record while the apps run"
# the usual way: the apps first, the recording joins them (the tracer's
# hooks are in place from each subscription's creation, recording or not)
late=$work/late
mkdir -p "$late"
env LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" split3 60 \
	"$late" "$late/pids" >/dev/null &
launcher=$!
caret_at_exit "kill -TERM $launcher 2>/dev/null || true"
sleep 2
"$BIN/caret" record -o "$late/trace" --duration 2.5 >/dev/null 2>"$late/record.err" ||
	{ cat "$late/record.err"; exit 1; }
grep -q ' 0 discarded$' "$late/record.err" || { cat "$late/record.err"; exit 1; }
kill -TERM "$launcher"
wait "$launcher" || true
/usr/bin/python3 "$CARET_SOURCE_DIR/tests/real/split_check.py" "$late/trace" \
	--caret "$BIN/caret" --rmw "$REAL_RMW"

if [[ -f $CARET_SOURCE_DIR/tests/browser/report_split.py ]]; then
	"$BIN/caret" report -o "$dir/report.html" "$dir/trace" >/dev/null
	/usr/bin/python3 "$CARET_SOURCE_DIR/tests/browser/report_split.py" "$dir/report.html" \
		--expect-split
fi

echo "== a trace with no reception recorded"
old=$CARET_SHARED_DIR/data/real-humble/caret-fork-inter
"$BIN/caret" latency topics "$old" >/dev/null
status=0
"$BIN/caret" latency topics --split "$old" >/dev/null 2>"$work/old.err" || status=$?
if ((status != 1)) || ! grep -q "has its reception by the subscriber's middleware" "$work/old.err"; then
	echo "test_real_split: --split on a trace without receptions: exit $status, $(cat "$work/old.err")" >&2
	exit 1
fi
echo "ok: $(cat "$work/old.err")"
