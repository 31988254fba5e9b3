#!/usr/bin/env bash
# caret report's A/B view (--baseline BASE NEW) on two testbed recordings:
# the base system (report_ab/base.yaml) and the same with its planner 2 ms
# slower and a logger the base does not have (new.yaml), each recorded
# with libcaret.so. The page says both recordings; the planner's callback
# is among the changes, slower, and the change table has slower first,
# each by how much its median moved; every card's data holds each side's
# instances as `caret latency callbacks` counts them, on shared bins and
# quantiles (report_ab_data.py); the logger is listed as new only; two
# runs on a side are pooled. The page opened in Chromium
# (tests/browser/report_ab_check.mjs) draws both sides in every chart,
# zooms every timeline at once and shows values on hover. The same on two
# real recordings of one rclcpp system (the shared traces). A named path
# neither recording has is said, the rest compared. Usage errors
# exit 2; a base that cannot be read, or two recordings with nothing in
# common, 1; without --baseline the single report is written as before.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
caret=$bin/caret
here=$CARET_SOURCE_DIR/tests/integration/report_ab
browser=$CARET_SOURCE_DIR/tests/browser
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"

caret_lttng_require
caret_lttng_ensure_daemon
record() { # NAME: the system of report_ab/NAME.yaml recorded 4 s into $work/NAME
	CARET_TRACE_DIR=$work/$1
	caret_lttng_start "caret-test-ab-$1" 'ros2:*' 'ros2_caret:*'
	caret_in_test_group "$bin/tb-launch" "$here/$1.yaml" --duration 4 \
		--pid-file "$work/$1.pids" --preload "$CARET_BUILD_DIR/lib/libcaret.so"
	caret_lttng_stop
}
record base
record new

# a named path through the planner, for the Paths section
"$caret" arch -o "$work/arch0.yaml" "$work/base" >/dev/null
{
	printf '%s\n' "named_paths:" "- path_name: camera_to_actuator" "  node_chain:" \
		"  - node_name: /ab/camera" "    publish_topic_name: /ab/image" \
		"  - node_name: /ab/planner" "    subscribe_topic_name: /ab/image" \
		"    publish_topic_name: /ab/plan" "  - node_name: /ab/actuator" \
		"    subscribe_topic_name: /ab/plan"
	grep -v -e '^#' -e '^named_paths: \[\]$' "$work/arch0.yaml"
} >"$work/arch.yaml"

"$caret" report --baseline "$work/base" --arch "$work/arch.yaml" -o "$work/ab.html" \
	"$work/new" >"$work/out"
cat "$work/out"
[[ $(sed -n 1p "$work/out") == "trace: $work/base, $work/new" ]]
[[ $(sed -n 2p "$work/out") == "$work/ab.html" ]]
# the same page from the repeated form
"$caret" report --base "$work/base" --new "$work/new" --arch "$work/arch.yaml" \
	-o "$work/ab2.html" >/dev/null
cmp -s <(grep -o "<table class='stats changes'>.*</table></section>" "$work/ab.html") \
	<(grep -o "<table class='stats changes'>.*</table></section>" "$work/ab2.html")

# each side's runs as caret latency callbacks counts them
for side in base new; do
	"$caret" latency callbacks --format csv "$work/$side" >"$work/$side.callbacks.csv"
done
/usr/bin/python3 "$browser/report_ab_data.py" "$work/ab.html" \
	--base-callbacks "$work/base.callbacks.csv" --new-callbacks "$work/new.callbacks.csv" \
	--expect-slower /ab/planner --expect-new-only /ab/logger --expect-path camera_to_actuator

# a set of runs a side (the base recorded twice here): their instances
# pooled, each at its time since its own recording began
"$caret" report --base "$work/base" --base "$work/base" --new "$work/new" -o "$work/runs.html" \
	>/dev/null
awk -F, -v OFS=, 'NR > 1 { $2 *= 2 } 1' "$work/base.callbacks.csv" >"$work/twice.callbacks.csv"
/usr/bin/python3 "$browser/report_ab_data.py" "$work/runs.html" \
	--base-callbacks "$work/twice.callbacks.csv" --new-callbacks "$work/new.callbacks.csv" \
	>"$work/runs.out" || { cat "$work/runs.out"; exit 1; }
echo "two base runs pooled: $(grep -c '^ok' "$work/runs.out") checks ok"

# in Chromium: both sides drawn, the order of the changes, zoom, hover
node "$browser/report_ab_check.mjs" "$work/ab.html" --expect-slower /ab/planner \
	--screenshot "$work/ab.png" --timing

# two real recordings of one rclcpp system (CARET's rclcpp fork, then
# upstream Humble's): every object on both sides, the page whole in Chromium
real=$CARET_SHARED_DIR/data/real-humble
"$caret" report --baseline "$real/caret-fork-inter" -o "$work/real.html" \
	"$real/caret-upstream-inter" >/dev/null
for side in caret-fork-inter caret-upstream-inter; do
	"$caret" latency callbacks --format csv "$real/$side" >"$work/$side.csv" 2>/dev/null
done
/usr/bin/python3 "$browser/report_ab_data.py" "$work/real.html" \
	--base-callbacks "$work/caret-fork-inter.csv" --new-callbacks "$work/caret-upstream-inter.csv" \
	>"$work/real.out" || { cat "$work/real.out"; exit 1; }
node "$browser/report_ab_check.mjs" "$work/real.html" >"$work/real-browser.out" ||
	{ cat "$work/real-browser.out"; exit 1; }
echo "real recordings: $(grep -c '^ok' "$work/real.out") data checks, $(grep -c '^ok' \
	"$work/real-browser.out") in Chromium ok"

# a named path neither recording has: said on stderr and on the page, the
# rest compared
sed 's/^executors:/- path_name: ghost\n  node_chain:\n  - node_name: \/ab\/camera\n    publish_topic_name: \/ab\/image\n  - node_name: \/ab\/ghost\n    subscribe_topic_name: \/ab\/image\nexecutors:/' \
	"$work/arch.yaml" >"$work/ghost.yaml"
echo "- node_name: /ab/ghost" >>"$work/ghost.yaml"
"$caret" report --baseline "$work/base" --arch "$work/ghost.yaml" -o "$work/ghost.html" \
	"$work/new" >/dev/null 2>"$work/err"
grep -q "^caret report: note: the path ghost of $work/ghost.yaml was followed in neither recording" \
	"$work/err"
grep -q "<p class='warning not-followed'>Followed in neither recording.*: ghost</p>" \
	"$work/ghost.html"
grep -q "data-kind='path' data-verdict='[a-z ]*' data-name='camera_to_actuator'" "$work/ghost.html"

# usage errors (2), a base that cannot be read (1), nothing written
expect() { # STATUS ARGS...: caret report ARGS exits STATUS with one line on stderr
	local want=$1 status=0
	shift
	"$caret" report "$@" >/dev/null 2>"$work/err" || status=$?
	[[ $status == "$want" && $(wc -l <"$work/err") == 1 ]] ||
		{ echo "caret report $*: exit $status (not $want): $(cat "$work/err")"; exit 1; }
}
expect 2 --baseline "$work/base" -o "$work/x.html"
expect 2 --baseline "$work/base" --arch "$work/arch.yaml" --path camera_to_actuator \
	-o "$work/x.html" "$work/new"
expect 2 --base "$work/base" --new "$work/new" -o "$work/x.html" "$work/new"
expect 2 --new "$work/new" -o "$work/x.html"
expect 1 --baseline "$work/nothing-here" -o "$work/x.html" "$work/new"
# recordings of different systems: nothing in common
expect 1 --baseline "$work/base" -o "$work/x.html" "$CARET_SHARED_DIR/data/real-humble/caret-fork-inter"
grep -q "no callback, topic, node path or path in common" "$work/err"
[[ ! -e $work/x.html ]]

# without --baseline, the single report as before
"$caret" report -o "$work/single.html" "$work/new" >/dev/null
grep -q "id='callbacks'" "$work/single.html"
! grep -q "A/B" "$work/single.html"
echo "test_report_ab: ok"
