#!/usr/bin/env bash
# bench/analyze: events per second of load + model (libcaret-analyze: the
# babeltrace2 reader into columnar tables, the architecture, the runtime
# scan and the check) on a trace of at least 5 million events, next to
# `babeltrace2 -c sink.utils.dummy` (decoding alone) on the same trace in
# the same run, as a ratio; and peak memory per event.
#
# The trace: bench_tracer (a node whose callback publishes, in a loop)
# with libcaret.so preloaded, unmerged, two processes: 5 events per
# callback instance, initialization included, recorded in a real session
# with buffers large enough that nothing is discarded (checked).
# usage: bench/analyze/run.sh [BUILD_DIR] [ITERATIONS_PER_PROCESS] [REPEAT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
iterations=${2:-520000}
repeat=${3:-3}
. "$here/../../scripts/lttng-session.sh"
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
export CARET_SUBBUF_SIZE=8M CARET_NUM_SUBBUF=32

CARET_TRACE_DIR=$work/trace caret_lttng_start caret-bench-analyze 'ros2:*' 'ros2_caret:*' >/dev/null
for p in 1 2; do
	LD_PRELOAD=$build/lib/libcaret.so CARET_MERGE=0 "${CARET_GROUP[@]}" \
		"$build/bin/bench_tracer" "$iterations" >/dev/null &
done
wait
caret_lttng_stop
trace=$work/trace
read -r events discarded < <("$build/bin/tb_event_counts" "$trace" |
	awk '/^total/ { print $2, $(NF - 1) }')
((discarded == 0)) || { echo "bench: $discarded events discarded" >&2; exit 1; }
((events >= 5000000)) || echo "bench: only $events events (ask for more iterations)" >&2
bytes=$(du -sb "$trace" | cut -f1)

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
seconds() { # COMMAND...: elapsed seconds
	local a b
	a=$(date +%s%N)
	"$@" >/dev/null
	b=$(date +%s%N)
	awk -v ns=$((b - a)) 'BEGIN { printf "%.3f\n", ns / 1e9 }'
}

babeltrace2 "$trace" -c sink.utils.dummy # warm the page cache
bt=() ours=() rss=()
for ((r = 0; r < repeat; r++)); do
	bt+=("$(seconds babeltrace2 "$trace" -c sink.utils.dummy)")
	read -r s n kb < <("$build/bin/bench_analyze" "$trace")
	((n == events)) || { echo "bench: loaded $n events of $events" >&2; exit 1; }
	ours+=("$s")
	rss+=("$kb")
done
bt_s=$(printf '%s\n' "${bt[@]}" | median)
our_s=$(printf '%s\n' "${ours[@]}" | median)
kb=$(printf '%s\n' "${rss[@]}" | median)
awk -v e="$events" -v bytes="$bytes" -v bt="$bt_s" -v us="$our_s" -v kb="$kb" 'BEGIN {
	printf "trace: %d events, %.1f MB, 0 discarded; median of runs\n", e, bytes / 1e6
	printf "babeltrace2 -c sink.utils.dummy  %7.2f s  %10.0f events/s\n", bt, e / bt
	printf "caret load + model               %7.2f s  %10.0f events/s\n", us, e / us
	printf "ratio (ours / babeltrace2, events per second): %.2f\n", bt / us
	printf "peak memory: %.0f MB, %.1f bytes per event\n", kb / 1024, kb * 1024 / e
}'
