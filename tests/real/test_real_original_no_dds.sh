#!/usr/bin/env bash
# The original CARET tracer (caret_trace 0.7.3, humble-caret) on Debian's
# Cyclone DDS (issue 44, item 11): its DDS hook is on dds_write_impl, which
# libddsc0debian does not export, so it never runs, and the trace has no
# DDS stage (no dds_bind_addr_to_stamp) and no rmw_implementation (the
# original records the rmw's name in that hook). caret check must name it
# for what it is, the original tracer's trace with no DDS stage and why (it
# said "plain ros2_tracing"), print "rmw not recorded" (it printed "rmw ?"),
# and caret latency topics still link the messages (by time) without
# calling it plain ros2_tracing.
# usage: test_real_original_no_dds.sh
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" humble-caret
original=$REAL_PREFIX/$REAL_TREE/lib/libcaret.so
[[ -f $original ]] || { echo "FAIL: no original tracer at $original" >&2; exit 1; }
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

real_record_original "$work" "$original" pipeline3
"$BIN/caret" summary events "$work/trace" >"$work/events"
grep -E '^ros2_caret:(dds_write|dds_bind_addr_to_stamp|rmw_implementation|caret_init) ' "$work/events"
# what this test is about: a Cyclone DDS without dds_write_impl exported
# (summary events lists the types that occur)
if grep -q '^ros2_caret:dds_bind_addr_to_stamp ' "$work/events"; then
	echo "SKIP: the original tracer bound DDS writes here (a Cyclone DDS exporting dds_write_impl)"
	exit 77
fi
processes=$(wc -l <"$work/pids")

"$BIN/caret" check "$work/trace" >"$work/check" 2>&1 || true
fail=0
said="caret_init: the original CARET tracer, distribution humble, rmw not recorded"
n=$(grep -c "^  $said\$" "$work/check" || true)
((n == processes)) || { echo "FAIL: '$said' for $n of $processes processes"; fail=1; }
grep -q 'rmw ?' "$work/check" && { echo "FAIL: caret check says 'rmw ?'"; fail=1; }
named="no DDS source timestamps (ros2_caret:dds_bind_addr_to_stamp; the original CARET tracer's trace with no DDS stage: on Cyclone DDS its DDS hook is on dds_write_impl, which Debian's Cyclone DDS (libddsc0debian) does not export"
# (on each process that published: /sink publishes nothing)
n=$(grep -cF "$named" "$work/check" || true)
warned=$(grep -c 'no DDS source timestamps' "$work/check" || true)
((n >= 2 && n == warned)) ||
	{ echo "FAIL: the trace named for what it is in $n of $warned findings"; fail=1; }
grep -q 'plain ros2_tracing' "$work/check" && { echo "FAIL: caret check says plain ros2_tracing"; fail=1; }
grep -q '^result: ok' "$work/check" || { echo "FAIL: caret check: $(tail -1 "$work/check")"; fail=1; }
((fail)) && cat "$work/check"
((fail)) || echo "ok caret check: $said; $(grep -m1 -o 'the original CARET tracer.s trace with no DDS stage[^)]*' "$work/check")"

# the messages linked all the same (by time), the note naming no plain ros2_tracing
"$BIN/caret" latency topics --format csv "$work/trace" >"$work/topics" 2>"$work/topics.err"
awk -F, '$1 ~ /^\/topic_/ { n++; if ($3 == 0) bad = 1 } END { exit bad || !n }' "$work/topics" ||
	{ cat "$work/topics"; echo "FAIL: the apps' messages not linked"; fail=1; }
grep -q 'matched to their publishes by time' "$work/topics.err" &&
	! grep -q 'plain ros2_tracing' "$work/topics.err" ||
	{ cat "$work/topics.err"; echo "FAIL: latency topics' note"; fail=1; }
((fail)) || echo "ok caret latency topics: $(grep -c '^/topic_' "$work/topics") topics linked; $(cat "$work/topics.err" | grep note)"
exit "$fail"
