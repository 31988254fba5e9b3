#!/usr/bin/env bash
# bench/report: what `caret report` costs, next to `caret path latency` on
# the same trace in the same run (the issue's bound: at most 3 times), and
# what the page costs a browser:
#   big    bench_chain (6 nodes, 5 intra-process hops, 23 events a message)
#          recorded to at least 5 million events: `caret path latency`
#          along the chain and `caret report` (whose default path is that
#          chain), seconds and peak memory, median of REPEAT runs; the
#          page's size and its time to be ready in Chromium
#   100k   a generated system (tb-gen: 4 processes of 10 nodes, timers of
#          20 ms) recorded to about 100,000 events: the page's size and its
#          time to be ready in headless Chromium (tests/browser), median
#          of REPEAT loads
# usage: bench/report/run.sh [BUILD_DIR] [ITERATIONS] [REPEAT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
iterations=${2:-230000}
repeat=${3:-5}
. "$source_dir/scripts/lttng-session.sh"
. "$source_dir/scripts/dds-loopback.sh"
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
export CARET_SUBBUF_SIZE=8M CARET_NUM_SUBBUF=32
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-89}
check_page() { # HTML: the browser check's timing line
	node "$source_dir/tests/browser/report_check.mjs" "$1" --timing | tail -n 1
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() { # COMMAND...: "SECONDS MAXRSS_KB"
	/usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>&1
	cat "$work/time"
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- the 5-million-event trace --------------------------------------------------
CARET_TRACE_DIR=$work/big caret_lttng_start caret-bench-report 'ros2:*' 'ros2_caret:*' >/dev/null
LD_PRELOAD=$build/lib/libcaret.so CARET_MERGE=0 "${CARET_GROUP[@]}" \
	"$build/bin/bench_chain" "$iterations"
caret_lttng_stop
read -r events discarded < <("$build/bin/tb_event_counts" "$work/big" |
	awk '/^total/ { print $2, $(NF - 1) }')
((discarded == 0)) || { echo "bench: $discarded events discarded" >&2; exit 1; }
path=/bench/n0,/bench/n1,/bench/n2,/bench/n3,/bench/n4,/bench/n5
"$build/bin/caret" path latency --nodes "$path" "$work/big" >/dev/null # warm the page cache
lat=() rep=() lat_kb=() rep_kb=()
for ((r = 0; r < repeat; r++)); do
	read -r s kb < <(timed "$build/bin/caret" path latency --nodes "$path" "$work/big")
	lat+=("$s") lat_kb+=("$kb")
	read -r s kb < <(timed "$build/bin/caret" report -o "$work/big.html" "$work/big")
	rep+=("$s") rep_kb+=("$kb")
done
l=$(printf '%s\n' "${lat[@]}" | median) p=$(printf '%s\n' "${rep[@]}" | median)
lk=$(printf '%s\n' "${lat_kb[@]}" | median) pk=$(printf '%s\n' "${rep_kb[@]}" | median)
echo "big trace: $events events"
echo "  caret path latency: ${l} s (runs: ${lat[*]}), $((lk / 1024)) MB peak"
echo "  caret report:       ${p} s (runs: ${rep[*]}), $((pk / 1024)) MB peak"
awk -v a="$p" -v b="$l" 'BEGIN { printf "  report / path latency: %.2f (bound: 3)\n", a / b }'
echo "  page: $(stat -c %s "$work/big.html") bytes; in Chromium: $(check_page "$work/big.html")"

# ---- about 100,000 events -------------------------------------------------------------
"$build/bin/tb-gen" --processes 4 --nodes 10 --period-ms 20 --seed 7 -o "$work/system.yaml"
"${CARET_GROUP[@]}" "$build/bin/tb-launch" "$work/system.yaml" --duration 30 \
	--pid-file "$work/pids" --preload "$build/lib/libcaret.so" >/dev/null 2>&1 &
launcher=$!
sleep 2
"$build/bin/caret" record -o "$work/small" --duration "${CARET_BENCH_SECONDS:-10}" >/dev/null 2>&1
kill -INT "$launcher" 2>/dev/null || true
wait "$launcher" || true
small=$("$build/bin/tb_event_counts" "$work/small" | awk '/^total/ { print $2 }')
"$build/bin/caret" report -o "$work/small.html" "$work/small" >/dev/null
ready=() nav=()
for ((r = 0; r < repeat; r++)); do
	line=$(check_page "$work/small.html")
	ready+=("$(sed 's/.*"readyMs":\([0-9.]*\).*/\1/' <<<"$line")")
	nav+=("$(sed 's/.*"navigationToReadyMs":\([0-9]*\).*/\1/' <<<"$line")")
done
echo "100k trace: $small events; page $(stat -c %s "$work/small.html") bytes (bound: 3 MB)"
echo "  ready in Chromium: $(printf '%s\n' "${nav[@]}" | median) ms from navigation (runs: ${nav[*]}; bound: 2000), the script $(printf '%s\n' "${ready[@]}" | median) ms of it"
