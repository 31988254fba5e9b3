#!/usr/bin/env bash
# bench/tracer: ns per callback instance (callback_start, a publish through
# rclcpp/rcl/rmw, callback_end) and trace bytes per instance, measured in one
# run for:
#   a) the testbed's tracetools alone, recording (the baseline)
#   b) through libcaret.so, unmerged (CARET_MERGE=0)
#   c) through libcaret.so, merged (default)
#   d) libcaret.so with no session at all (WAIT: nothing recorded)
# Each mode runs REPEAT times; the median is kept. Prints the ratios b/a and
# c/a and the merged trace's size relative to the unmerged one.
# usage: bench/tracer/run.sh [BUILD_DIR] [ITERATIONS] [REPEAT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
iterations=${2:-200000}
repeat=${3:-5}
. "$here/../../scripts/lttng-session.sh"
. "$here/../../scripts/dds-loopback.sh"
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
bench=$build/bin/bench_tracer
caret=$build/lib/libcaret.so
# Big enough buffers that nothing is discarded.
export CARET_SUBBUF_SIZE=8M CARET_NUM_SUBBUF=16

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# mode NAME PRELOAD MERGE SESSION(0|1): prints "ns bytes"
measure() {
	local name=$1 preload=$2 merge=$3 session=$4 times=() bytes=0
	for ((r = 0; r < repeat; r++)); do
		if ((session)); then
			CARET_TRACE_DIR=$work/$name-$r caret_lttng_start "caret-bench-$name" \
				'ros2:*' 'ros2_caret:*' >/dev/null
		fi
		times+=("$(env ${preload:+LD_PRELOAD=$preload} CARET_MERGE="$merge" \
			"${CARET_GROUP[@]}" "$bench" "$iterations")")
		if ((session)); then
			caret_lttng_stop
			CARET_TRACE_DIR=
			bytes=$(find "$work/$name-$r" -type f -name 'caret_*' -o -type f -name 'ch*' |
				grep -v index | xargs cat | wc -c)
			local discarded
			discarded=$("$build/bin/tb_event_counts" "$work/$name-$r" | awk '/^total/ { print $(NF - 1) }')
			((discarded == 0)) || { echo "bench: $name discarded $discarded events" >&2; exit 1; }
			rm -rf "$work/$name-$r"
		fi
	done
	echo "$(printf '%s\n' "${times[@]}" | median) $bytes"
}

read -r a a_bytes < <(measure tracetools "" 1 1)
read -r b b_bytes < <(measure caret-unmerged "$caret" 0 1)
read -r c c_bytes < <(measure caret-merged "$caret" 1 1)
read -r d _ < <(measure caret-no-session "$caret" 1 0)

awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" -v n="$iterations" -v ab="$a_bytes" \
	-v bb="$b_bytes" -v cb="$c_bytes" 'BEGIN {
	printf "iterations %d, median of runs; ns per callback instance (5 tracetools calls)\n", n
	printf "  a) tracetools alone, recording     %8.1f ns   %6.1f trace bytes/instance\n", a, ab / n
	printf "  b) libcaret, unmerged, recording   %8.1f ns   %6.1f trace bytes/instance\n", b, bb / n
	printf "  c) libcaret, merged, recording     %8.1f ns   %6.1f trace bytes/instance\n", c, cb / n
	printf "  d) libcaret, no session (WAIT)     %8.1f ns\n", d
	printf "ratio b/a %.2f   c/a %.2f   merged bytes %.0f%% below unmerged\n", b / a, c / a, 100 * (1 - cb / bb)
}'
