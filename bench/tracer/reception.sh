#!/usr/bin/env bash
# bench/tracer/reception.sh: what recording where a message waited costs,
# ns per message received (bench_reception: a sample stored, Cyclone DDS's
# listener called, and taken), per middleware, in one run:
#   a) the message alone (fake_rmw, nothing preloaded, no session)
#   r) a) plus one raw LTTng event per message (the testbed's
#      tracetools' rmw_take, recording): the baseline an event costs
#   b) libcaret.so preloaded, recording: its reception event per message
#      (Fast DDS: rmw_take_reception after the take; Cyclone DDS:
#      rmw_data_available in the listener), counted in the trace
#   c) libcaret.so preloaded, no session (WAIT)
# Each REPEAT times, the median kept. Prints b - a and its ratio to r - a.
# usage: bench/tracer/reception.sh [BUILD_DIR] [ITERATIONS] [REPEAT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
iterations=${2:-200000}
repeat=${3:-5}
. "$here/../../scripts/lttng-session.sh"
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
bench=$build/bin/bench_reception
caret=$build/lib/libcaret.so
export CARET_SUBBUF_SIZE=8M CARET_NUM_SUBBUF=16

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# measure NAME RMW PRELOAD SESSION(0|1) [--tracepoint]: prints the median ns
measure() {
	local name=$1 rmw=$2 preload=$3 session=$4 times=()
	shift 4
	for ((r = 0; r < repeat; r++)); do
		((session)) && CARET_TRACE_DIR=$work/$name-$r caret_lttng_start "caret-bench-$name" \
			'ros2:*' 'ros2_caret:*' >/dev/null
		times+=("$(env ${preload:+LD_PRELOAD=$preload} "${CARET_GROUP[@]}" "$bench" "$rmw" \
			"$iterations" "$@")")
		if ((session)); then
			caret_lttng_stop
			CARET_TRACE_DIR=
			local counts
			counts=$("$build/bin/tb_event_counts" "$work/$name-$r")
			awk '/^total/ { exit $(NF - 1) != 0 }' <<<"$counts" ||
				{ echo "bench: $name discarded events" >&2; exit 1; }
			if [[ -n $preload ]]; then
				local event=rmw_take_reception
				[[ $rmw == cyclonedds ]] && event=rmw_data_available
				grep -Eq "ros2_caret:$event +$iterations( |$)" <<<"$counts" ||
					{ echo "bench: $name: not $iterations $event events:" >&2; echo "$counts" >&2; exit 1; }
			fi
			rm -rf "$work/$name-$r"
		fi
	done
	printf '%s\n' "${times[@]}" | median
}

echo "iterations $iterations, median of $repeat runs; ns per message received"
for rmw in fastdds cyclonedds; do
	a=$(measure "alone-$rmw" "$rmw" "" 0)
	r=$(measure "raw-$rmw" "$rmw" "" 1 --tracepoint)
	b=$(measure "caret-$rmw" "$rmw" "$caret" 1)
	c=$(measure "wait-$rmw" "$rmw" "$caret" 0)
	awk -v m="$rmw" -v a="$a" -v r="$r" -v b="$b" -v c="$c" 'BEGIN {
		printf "%-10s a) alone %6.1f  r) + raw event %6.1f  b) libcaret recording %6.1f  c) libcaret WAIT %6.1f\n", m, a, r, b, c
		printf "%-10s reception recorded: %.1f ns a message, %.2f x one raw LTTng event (%.1f ns); not recording: %.1f ns\n", m, b - a, (b - a) / (r - a), r - a, c - a
	}'
done
