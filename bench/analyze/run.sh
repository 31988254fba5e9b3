#!/usr/bin/env bash
# bench/analyze: events per second of libcaret-analyze on a trace of at
# least 5 million events, next to `babeltrace2 -c sink.utils.dummy`
# (decoding alone) on the same trace in the same run, as ratios:
#   decode   the native CTF reader alone (bench_ctf_decode)
#   load     the native reader into columnar tables, the architecture,
#            the runtime scan and the check (ca_trace_load); and the same
#            through libbabeltrace2 (--reader babeltrace2)
#   records  every callback run, publish and communication joined
#   path     one 5-hop path followed end to end (use_latest_message)
# and the peak resident memory per event; then `caret check`, `caret
# latency callbacks` and `caret path latency` end to end, each in its own
# process: seconds, events per second, peak memory per event; `caret latency
# topics` and `nodes` with their messages joined as the scan goes. The
# verbs and babeltrace2 once more with one core kept busy (a busy loop
# this script starts, and kills by its PID): the speed that holds when
# another process takes a core. The CPU model and the load come first:
# the same script gives other figures on another machine of the same
# name, or on the same one when its host is busy (docs/dev/analyzer-performance.md).
#
# The trace: bench_chain (6 nodes in one process passing a message along
# 5 intra-process hops, 23 events per message) with libcaret.so preloaded,
# unmerged, recorded in a real session with buffers large enough that
# nothing is discarded (checked).
# usage: bench/analyze/run.sh [BUILD_DIR] [ITERATIONS] [REPEAT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
iterations=${2:-230000}
repeat=${3:-3}
. "$here/../../scripts/lttng-session.sh"
. "$here/../../scripts/dds-loopback.sh"
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
export CARET_SUBBUF_SIZE=8M CARET_NUM_SUBBUF=32

CARET_TRACE_DIR=$work/trace caret_lttng_start caret-bench-analyze 'ros2:*' 'ros2_caret:*' >/dev/null
LD_PRELOAD=$build/lib/libcaret.so CARET_MERGE=0 "${CARET_GROUP[@]}" \
	"$build/bin/bench_chain" "$iterations"
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

cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
echo "machine: ${cpu:-unknown CPU}, $(nproc) CPUs online; load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
babeltrace2 "$trace" -c sink.utils.dummy # warm the page cache
path=/bench/n0,/bench/n1,/bench/n2,/bench/n3,/bench/n4,/bench/n5
bt=() load=() records=() paths=() rss=() decode=() load_bt=()
# keep: CARET_KEEP_EVENTS=1, the runtime events kept in tables, one pass of
# the reader (by default they are counted and joined in a second pass)
# one: CARET_READER_THREADS=1, the streams decoded in the caller's thread
# instead of a second one (the two-core gain)
verbs=("check" "one:check" "keep:check" "latency callbacks" "one:latency callbacks"
	"keep:latency callbacks" "latency topics" "keep:latency topics" "latency nodes"
	"path latency --nodes $path" "one:path latency --nodes $path"
	"keep:path latency --nodes $path")
# with one core busy: the verbs by default (the reader's second thread
# when it helps) against one thread
busy_verbs=("check" "one:check" "latency callbacks" "one:latency callbacks"
	"path latency --nodes $path" "one:path latency --nodes $path")
declare -A verb_s verb_kb busy_s
timed() { # COMMAND...: "SECONDS MAXRSS_KB" of a run, its output dropped
	/usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>&1 || true
	cat "$work/time"
}
verb() { # VERB: "SECONDS MAXRSS_KB" of caret VERB (keep: and one: prefixes)
	local words keep=0 threads=
	read -ra words <<<"${1#*:}"
	[[ $1 == keep:* ]] && keep=1
	[[ $1 == one:* ]] && threads=1
	timed env CARET_KEEP_EVENTS=$keep CARET_READER_THREADS=$threads \
		"$build/bin/caret" "${words[@]}" "$trace"
}
for ((r = 0; r < repeat; r++)); do
	bt+=("$(seconds babeltrace2 "$trace" -c sink.utils.dummy)")
	read -r d n < <("$build/bin/bench_ctf_decode" "$trace")
	((n == events)) || { echo "bench: the native reader decoded $n events of $events" >&2; exit 1; }
	decode+=("$d")
	read -r l _ < <(CARET_BENCH_READER=babeltrace2 "$build/bin/bench_analyze" "$trace")
	load_bt+=("$l")
	read -r l rec p n kb instances < <("$build/bin/bench_analyze" "$trace" "$path")
	((n == events)) || { echo "bench: loaded $n events of $events" >&2; exit 1; }
	((instances == iterations)) || { echo "bench: $instances messages along the path, not $iterations" >&2; exit 1; }
	load+=("$l")
	records+=("$rec")
	paths+=("$p")
	rss+=("$kb")
	for v in "${verbs[@]}"; do
		read -r s k < <(verb "$v")
		verb_s[$v]+="$s " verb_kb[$v]+="$k "
	done
done
bt_s=$(printf '%s\n' "${bt[@]}" | median)
decode_s=$(printf '%s\n' "${decode[@]}" | median)
load_bt_s=$(printf '%s\n' "${load_bt[@]}" | median)
load_s=$(printf '%s\n' "${load[@]}" | median)
rec_s=$(printf '%s\n' "${records[@]}" | median)
path_s=$(printf '%s\n' "${paths[@]}" | median)
kb=$(printf '%s\n' "${rss[@]}" | median)
awk -v e="$events" -v bytes="$bytes" -v bt="$bt_s" -v l="$load_s" -v r="$rec_s" -v p="$path_s" \
	-v kb="$kb" -v m="$iterations" -v d="$decode_s" -v lb="$load_bt_s" 'BEGIN {
	printf "trace: %d events, %.1f MB, 0 discarded; %d messages along a 5-hop path; median of runs\n", e, bytes / 1e6, m
	printf "babeltrace2 -c sink.utils.dummy        %7.2f s  %10.0f events/s\n", bt, e / bt
	printf "native decode alone (bench_ctf_decode) %7.2f s  %10.0f events/s  (x%.2f babeltrace2)\n", d, e / d, bt / d
	printf "caret load through babeltrace2         %7.2f s  %10.0f events/s\n", lb, e / lb
	printf "caret load (tables, model, check)      %7.2f s  %10.0f events/s\n", l, e / l
	printf "  + records (runs, publishes, messages) %6.2f s\n", r
	printf "  + path latency (5 hops)               %6.2f s\n", p
	printf "caret load + records + path            %7.2f s  %10.0f events/s\n", l + r + p, e / (l + r + p)
	printf "ratios (ours / babeltrace2, events per second): load %.2f, load + records + path %.2f\n", bt / l, bt / (l + r + p)
	printf "peak memory: %.0f MB, %.1f bytes per event\n", kb / 1024, kb * 1024 / e
}'

# The verbs end to end (caret's own process: load, analysis, output)
for v in "${verbs[@]}"; do
	s=$(printf '%s\n' ${verb_s[$v]} | median)
	k=$(printf '%s\n' ${verb_kb[$v]} | median)
	awk -v e="$events" -v s="$s" -v kb="$k" -v v="caret ${v%% --*}" -v bt="$bt_s" -v all="${verb_s[$v]}" 'BEGIN {
		sub(/^caret keep:/, "caret (events kept) ", v); sub(/^caret one:/, "caret (1 thread) ", v)
		printf "%-38s %7.2f s  %10.0f events/s  x%.1f babeltrace2  peak %5.0f MB, %5.1f bytes per event  (runs: %s)\n",
			v, s, e / s, bt / s, kb / 1024, kb * 1024 / e, all }'
done

# The same with one core kept busy by another process
sh -c 'while :; do :; done' &
busy=$!
caret_at_exit "kill $busy 2>/dev/null || true"
sleep 0.5
echo "one core busy (a busy loop, pid $busy); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
bt_busy=()
for ((r = 0; r < repeat; r++)); do
	bt_busy+=("$(seconds babeltrace2 "$trace" -c sink.utils.dummy)")
	for v in "${busy_verbs[@]}"; do
		read -r s _ < <(verb "$v")
		busy_s[$v]+="$s "
	done
done
kill "$busy"
wait "$busy" 2>/dev/null || true
bt_busy_s=$(printf '%s\n' "${bt_busy[@]}" | median)
awk -v e="$events" -v bt="$bt_busy_s" 'BEGIN {
	printf "%-38s %7.2f s  %10.0f events/s\n", "babeltrace2 (one core busy)", bt, e / bt }'
for v in "${busy_verbs[@]}"; do
	s=$(printf '%s\n' ${busy_s[$v]} | median)
	awk -v e="$events" -v s="$s" -v bt="$bt_busy_s" -v v="caret ${v%% --*}" -v all="${busy_s[$v]}" 'BEGIN {
		sub(/^caret one:/, "caret (1 thread) ", v)
		printf "%-38s %7.2f s  %10.0f events/s  x%.1f babeltrace2  (runs: %s)\n", v " (busy)", s, e / s, bt / s, all }'
done

# Path search on the architecture of a generated 100-process x 10-node
# system (tb-gen, seed 7; its initialization traced by bench_arch, as 100
# real processes are too many for a 2-core machine).
"$build/bin/tb-gen" --processes 100 --nodes 10 --seed 7 -o "$work/gen.yaml"
CARET_TRACE_DIR=$work/arch caret_lttng_start caret-bench-arch 'ros2:*' 'ros2_caret:*' >/dev/null
LD_PRELOAD=$build/lib/libcaret.so "${CARET_GROUP[@]}" "$build/bin/bench_arch" "$work/gen.yaml"
caret_lttng_stop
for bound in 20:1000 1000:1000000; do
	read -r l s n depth_cut count_cut kb nodes < <("$build/bin/bench_analyze" --search \
		/gen/p3/n33 /gen/p93/n937 "${bound%%:*}" "${bound##*:}" "$work/arch")
	printf 'path search, %d nodes, --max-depth %s --max-paths %s: %d paths in %.4f s (load %.3f s), cut: depth %d, count %d; peak memory %.0f MB\n' \
		"$nodes" "${bound%%:*}" "${bound##*:}" "$n" "$s" "$l" "$depth_cut" "$count_cut" "$((kb / 1024))"
done
