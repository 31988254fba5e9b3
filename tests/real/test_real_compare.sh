#!/usr/bin/env bash
# caret compare on real rclcpp: pipeline3 (/sensor -> /filter -> /sink)
# recorded from the start three times unchanged and three times with 1 ms
# more work in /filter's callback (--filter-work 1000), in turn. compare_check.py
# holds: every unchanged pair says "no change" for every object, and its
# --fail-on rules stay quiet (exit 0); a slowed run against an unchanged
# one, and the three slowed runs against the three unchanged (the runs'
# p50s tested too), are "slower" in /filter's callback, /filter's node path
# and the path /sensor -> /sink (tests/data/arch/real-sensor-sink.yaml),
# the p50's change about 1 ms (its interval meets 0.8-1.2 ms; the
# callback's, whose run includes its publish, 0.6-1.4 ms), nothing else
# slower or faster, and the rules fire (exit 3) (with three runs a side the
# callback may be held back by the runs' test alone, said); two runs a side
# with one of NEW's slowed are no change (the runs disagree).
# usage: test_real_compare.sh TREE
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon
arch=$CARET_SOURCE_DIR/tests/data/arch/real-sensor-sink.yaml

# record NAME [APP ARGS...]: pipeline3 for 3 s from its start (about 120
# messages a topic after discovery), the trace in $work/NAME/trace
record() {
	local dir=$work/$1
	shift
	mkdir -p "$dir"
	real_record_start "$dir/trace"
	env LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" chrt -f 10 "$REAL_LAUNCH" "$REAL_APPS" pipeline3 3 \
		"$dir" "$dir/pids" "$@" >/dev/null
	real_record_stop "$dir/trace"
}

# unchanged and slowed in turn, so that a drift of the machine's load over
# the test (make test's other tests starting and ending) falls on both
# sides: recorded all unchanged first, the three slowed runs' /topic_a was
# 59 us faster than the unchanged ones', a change where nothing was, in a
# clean-clone run
for k in 1 2 3; do
	record "$(tr 123 abc <<<"$k")"
	record "slow$k" --filter-work 1000
done

# (one run a side: a rule's amount must pass the runs' drift, which moved
# the path's p50 by 24 % between two unchanged recordings under make
# test's load; the slowdown moves it by 170-200 %)
rules=(--fail-on 'path:* p50 +60%' --fail-on 'callback:/filter/* mean +0.5ms')
compare() { # OUT SIDES...: caret compare's JSON in OUT.json, its stderr in OUT.err, its status in OUT.status
	local out=$1 status=0
	shift
	"$BIN/caret" compare --arch "$arch" --format json "${rules[@]}" "$@" >"$out.json" \
		2>"$out.err" || status=$?
	echo "$status" >"$out.status"
}
t() { echo "$work/$1/trace"; }
compare "$work/ab" "$(t a)" "$(t b)"
compare "$work/bc" "$(t b)" "$(t c)"
compare "$work/ac" "$(t a)" "$(t c)"
compare "$work/slow" "$(t a)" "$(t slow1)"
# three runs a side: their p50s tested too (Welch's t)
compare "$work/runs" --base "$(t a)" --base "$(t b)" --base "$(t c)" --new "$(t slow1)" \
	--new "$(t slow2)" --new "$(t slow3)"
# two a side, one of NEW's slowed: the runs disagree, no change called
compare "$work/mixed" --base "$(t a)" --base "$(t b)" --new "$(t c)" --new "$(t slow1)"
/usr/bin/python3 "$CARET_SOURCE_DIR/tests/real/compare_check.py" \
	--unchanged "$work/ab" "$work/bc" "$work/ac" --slowed "$work/slow" --slowed-runs "$work/runs" \
	--runs-disagree "$work/mixed"
