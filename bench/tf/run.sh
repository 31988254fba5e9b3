#!/usr/bin/env bash
# bench/tf: what the tracer's tf hooks cost a tf2 buffer (real tf2, one
# tree): real_tf_bench (tests/real/apps/tf_bench.cpp) times N setTransform
# and N lookupTransform in three modes, one after the other, ROUNDS times
# interleaved (median kept):
#   plain      no tracer: the baseline
#   wait       libcaret.so preloaded, no session (WAIT: frame numbers and
#              static transforms stored, nothing recorded)
#   recording  libcaret.so preloaded, an LTTng session recording ros2_caret:*
#              (every lookup and the edge it read must be in the trace)
# and prints each mode's ns per call and its ratio to the baseline.
# usage: bench/tf/run.sh [BUILD_DIR] [N] [ROUNDS] [TREE]   (build, 200000, 5, humble)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CARET_SOURCE_DIR=$(cd "$here/../.." && pwd)
export CARET_BUILD_DIR=$(cd "${1:-$CARET_SOURCE_DIR/build}" && pwd)
n=${2:-200000}
rounds=${3:-5}
tree=${4:-humble}
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
# the apps as they usually run: not reniced as the tests run them
export REAL_NICE=
# shellcheck source=../../tests/real/real_env.sh
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$tree" || exit 1
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
bench=$REAL_APPS/real_tf_bench
# not in make build (no test runs it): built here, in the tree's environment
apps_build=$CARET_BUILD_DIR/real/$tree/build
[[ -d $apps_build ]] || { echo "bench/tf: $apps_build missing; run 'make build'" >&2; exit 1; }
cmake --build "$apps_build" --target real_tf_bench >/dev/null ||
	{ echo "bench/tf: cannot build real_tf_bench" >&2; exit 1; }

for ((r = 0; r < rounds; r++)); do
	"$bench" "$n" >>"$work/plain"
	LD_PRELOAD=$CARET_LIB "$bench" "$n" >>"$work/wait"
	CARET_TRACE_DIR=$work/trace-$r
	caret_lttng_start "caret-bench-tf-$$-$r" 'ros2_caret:*'
	LD_PRELOAD=$CARET_LIB "${CARET_GROUP[@]}" "$bench" "$n" >>"$work/recording"
	caret_lttng_stop
	counts=$("$BIN/caret" summary events --format csv "$CARET_TRACE_DIR")
	events=$(awk -F, '$1 == "ros2_caret:tf_lookup_transform" { print $2 }' <<<"$counts")
	reads=$(awk -F, '$1 == "ros2_caret:tf_buffer_find_closest" { print $2 }' <<<"$counts")
	((${events:-0} == n)) || { echo "bench/tf: $events lookups recorded, not $n" >&2; exit 1; }
	# each lookup reads one dynamic edge (base_link's; map -> odom is static)
	((${reads:-0} == n)) || { echo "bench/tf: $reads edges read recorded, not $n" >&2; exit 1; }
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf '%-10s %10s %10s %8s %8s\n' mode set_ns lookup_ns set/a lookup/a
base_set=$(cut -d' ' -f1 "$work/plain" | median)
base_lookup=$(cut -d' ' -f2 "$work/plain" | median)
for mode in plain wait recording; do
	s=$(cut -d' ' -f1 "$work/$mode" | median)
	l=$(cut -d' ' -f2 "$work/$mode" | median)
	awk -v m="$mode" -v s="$s" -v l="$l" -v bs="$base_set" -v bl="$base_lookup" \
		'BEGIN { printf "%-10s %10.1f %10.1f %8.2f %8.2f\n", m, s, l, s / bs, l / bl }'
done
