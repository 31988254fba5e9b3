#!/usr/bin/env bash
# bench/python: a notebook's path DataFrame with caret_c against the CLI
# and the original caret_analyze, as ratios in one run.
#   a) `caret path latency --records FILE` on bench_chain's 5-hop path: the
#      CLI's every message along the path, as CSV (the baseline);
#   b) caret_c: Lttng, Architecture, the path added, Application and the
#      path's to_dataframe() (first and last callback in), one process;
#   c) the original caret_analyze doing b) on a shared real trace
#      (../shared/data/real-humble/caret-fork-inter: 3 nodes, 1,456 events;
#      the original finds no callback in bench_chain's trace, which has no
#      callback group events, and reads a few thousand events a second),
#      and caret_c again on that trace.
# Each REPEAT times (median); wall seconds and peak resident memory
# (/usr/bin/time), events per second, bytes of memory per event. The
# original's time on the large trace is its events per second carried
# over, said so where it is printed: a rate from a small trace, where its
# fixed costs weigh most, so an estimate only.
# The traces: bench_chain (6 nodes in one process passing a message along
# 5 intra-process hops, 23 events per message) with libcaret.so preloaded,
# unmerged, recorded in a real session with buffers large enough that
# nothing is discarded (checked), as bench/analyze.
# usage: bench/python/run.sh [BUILD_DIR] [ITERATIONS] [REPEAT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
iterations=${2:-230000}
repeat=${3:-3}
. "$src/scripts/lttng-session.sh"
. "$src/scripts/dds-loopback.sh"
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
export CARET_SUBBUF_SIZE=8M CARET_NUM_SUBBUF=32
export CARET_ANALYZE_LIBRARY=$build/lib/libcaret-analyze.so.0 PYTHONPATH=$src/python

record() { # DIR ITERATIONS: the trace, its events (none discarded)
	CARET_TRACE_DIR=$1 caret_lttng_start caret-bench-python 'ros2:*' 'ros2_caret:*' >/dev/null
	LD_PRELOAD=$build/lib/libcaret.so CARET_MERGE=0 "${CARET_GROUP[@]}" \
		"$build/bin/bench_chain" "$2" >/dev/null
	caret_lttng_stop
	local events discarded
	read -r events discarded < <("$build/bin/tb_event_counts" "$1" |
		awk '/^total/ { print $2, $(NF - 1) }')
	((discarded == 0)) || { echo "bench: $discarded events discarded" >&2; exit 1; }
	echo "$events"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() { # COMMAND...: "SECONDS MAXRSS_KB", its output in $work/out
	/usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" ||
		{ tail -n 5 "$work/err" >&2; exit 1; }
	# path_frame.py's parts, every run's (the search prints a line of its own)
	grep -E '^(load|frame) ' "$work/out" >>"$work/parts" || true
	cat "$work/time"
}
run() { # NAME TIMES COMMAND...: the median seconds and peak KB in $NAME_s, $NAME_kb
	local name=$1 n=$2 s=() kb=() line
	shift 2
	for ((i = 0; i < n; i++)); do
		line=$(timed "$@")
		s+=("${line% *}")
		kb+=("${line#* }")
	done
	printf -v "${name}_s" '%s' "$(printf '%s\n' "${s[@]}" | median)"
	printf -v "${name}_kb" '%s' "$(printf '%s\n' "${kb[@]}" | median)"
}

events=$(record "$work/large" "$iterations")
small=$src/../shared/data/real-humble/caret-fork-inter
small_events=$("$build/bin/tb_event_counts" "$small" | awk '/^total/ { print $2 }')
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
echo "machine: ${cpu:-unknown CPU}, $(nproc) CPUs online; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "traces: bench_chain $events events ($iterations messages); caret-fork-inter $small_events events"
nodes=/bench/n0,/bench/n1,/bench/n2,/bench/n3,/bench/n4,/bench/n5

run cli "$repeat" "$build/bin/caret" path latency --nodes "$nodes" --include-first-callback \
	--include-last-callback --records "$work/records.csv" "$work/large"
rows_cli=$(($(wc -l <"$work/records.csv") - 1))
: >"$work/parts"
run ours "$repeat" /usr/bin/python3 "$here/path_frame.py" "$work/large" /bench/n0 /bench/n5
rows_ours=$(tail -n 1 "$work/out" | cut -d' ' -f2)
load_s=$(awk '$1 == "load" { print $2 }' "$work/parts" | median)
frame_s=$(awk '$1 == "frame" { print $2 }' "$work/parts" | median)
anchor=$src/../shared/anchors/caret_analyze-0.7.3.tar.zst
mkdir -p "$work/anchor" && tar --zstd -xf "$anchor" -C "$work/anchor"
run small_ours "$repeat" /usr/bin/python3 "$here/path_frame.py" "$small" /sensor /sink
PYTHONPATH=$work/anchor run small_theirs "$repeat" /usr/bin/python3 "$here/path_frame.py" \
	--original "$small" /sensor /sink
rows_small=$(tail -n 1 "$work/out" | cut -d' ' -f2)

report() { # WHAT SECONDS KB EVENTS
	awk -v w="$1" -v s="$2" -v kb="$3" -v e="$4" 'BEGIN {
		printf "%-44s %8.2f s %12.0f events/s %8.0f bytes/event peak\n", w, s, e / s, kb * 1024 / e }'
}
report "a) caret path latency --records ($rows_cli rows)" "$cli_s" "$cli_kb" "$events"
report "b) caret_c to_dataframe ($rows_ours rows)" "$ours_s" "$ours_kb" "$events"
echo "   b's parts (medians): Lttng and Architecture $load_s s, the path's to_dataframe() $frame_s s"
report "c) original, small trace ($rows_small rows)" "$small_theirs_s" "$small_theirs_kb" "$small_events"
report "c) caret_c, small trace" "$small_ours_s" "$small_ours_kb" "$small_events"
awk -v a="$cli_s" -v b="$ours_s" -v f="$frame_s" -v t="$small_theirs_s" -v o="$small_ours_s" \
	-v e="$events" -v se="$small_events" 'BEGIN {
	printf "ratios: to_dataframe()/a = %.2f; b/a = %.2f (the whole process: imports, load);\n", f / a, b / a
	printf "        original/caret_c on the small trace = %.0f;\n", t / o
	printf "        the original carried over to the large trace (%.0f events/s: %.0f s) / b = %.0f\n",
		se / t, e / (se / t), e / (se / t) / b }'
