#!/usr/bin/env bash
# Each filter variable removes exactly what it should (pipeline system):
# counts of recorded callback runs and publishes per entity, named with the
# ground truth.
set -uo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
failures=0
caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1

# The pipeline, with perception run under another process name.
ln -s "$bin/tb_app" "$work/tb_ignored"
sed "s|^  - name: perception$|  - name: perception\n    command: [$work/tb_ignored, $work/pipeline.yaml, --process, perception, --truth, $work/truth]|" \
	"$CARET_SOURCE_DIR/testbed/systems/pipeline.yaml" >"$work/pipeline.yaml"

# run NAME VAR=VALUE...: records the pipeline with these variables.
run() {
	local name=$1
	shift
	rm -rf "$work/truth"
	CARET_TRACE_DIR=$work/trace-$name caret_lttng_start "caret-test-filter-$name" \
		'ros2:*' 'ros2_caret:*' || return 1
	caret_in_test_group env "$@" "$bin/tb-launch" "$work/pipeline.yaml" --duration 2 --truth "$work/truth" \
		--pid-file "$work/pids" --preload "$CARET_BUILD_DIR/lib/libcaret.so" 2>/dev/null
	caret_lttng_stop
	"$bin/tb_trace_counts" "$work/trace-$name" "$work/truth" "$work/pids" >"$work/counts"
	CARET_TRACE_DIR=
	echo "== $name: $*"
}

# expect KIND NODE NAME zero|some
expect() {
	local n
	n=$(awk -v k="$1" -v node="$2" -v name="$3" \
		'$1 == k && $2 == node && $3 == name { print $4 }' "$work/counts")
	if [[ -z $n ]] || { [[ $4 == zero ]] && ((n != 0)); } || { [[ $4 == some ]] && ((n == 0)); }; then
		echo "FAIL: $1 $2 $3: ${n:-missing}, wanted $4"
		failures=$((failures + 1))
	fi
}

run none
expect callback /sensing/camera timer_callback_0 some
expect callback /perception/fusion /sensing/points some
expect publish /planning/planner /planning/trajectory some

run ignore-nodes CARET_IGNORE_NODES=/sensing/camera
expect callback /sensing/camera timer_callback_0 zero
expect publish /sensing/camera /sensing/image zero
expect callback /sensing/image_filter /sensing/image some
expect publish /sensing/image_filter /sensing/image_filtered some

run select-nodes 'CARET_SELECT_NODES=^/perception/'
expect callback /perception/fusion /sensing/image_filtered some
expect publish /perception/fusion /perception/objects some
expect callback /sensing/lidar timer_callback_0 zero
expect callback /sensing/camera timer_callback_0 zero
expect callback /control/actuator /planning/trajectory zero

run ignore-topics CARET_IGNORE_TOPICS=/sensing/points
expect publish /sensing/lidar /sensing/points zero
expect callback /perception/fusion /sensing/points zero
expect callback /sensing/lidar timer_callback_0 some
expect callback /perception/fusion /sensing/image_filtered some

run select-topics 'CARET_SELECT_TOPICS=trajectory$'
expect publish /planning/planner /planning/trajectory some
expect callback /control/actuator /planning/trajectory some
expect callback /planning/planner /perception/objects zero
expect publish /sensing/camera /sensing/image zero
expect callback /sensing/camera timer_callback_0 some

run select-wins CARET_SELECT_NODES=/sensing/camera CARET_IGNORE_NODES='*'
expect callback /sensing/camera timer_callback_0 some
expect callback /sensing/image_filter /sensing/image zero

run ignore-processes CARET_IGNORE_PROCESSES=tb_ignored
expect callback /sensing/lidar timer_callback_0 zero
expect callback /perception/fusion /sensing/image_filtered zero
expect callback /sensing/camera timer_callback_0 some
expect callback /control/actuator /planning/trajectory some

echo "$failures failures"
((failures == 0))
