#!/usr/bin/env bash
# bench/real: what tracing costs a real rclcpp pipeline at 1 kHz (the
# tests/real apps: /sensor -> /topic_a -> /filter -> /topic_b -> /sink, three
# processes, Cyclone DDS or Fast DDS on loopback), measured in one run, one
# mode after the other:
#   plain           no tracer, no session (the baseline)
#   tracetools      no tracer; an LTTng session records ros2:* (ros2_tracing alone)
#   caret-merged    libcaret.so preloaded, recording from the start (default form)
#   caret-unmerged  the same with CARET_MERGE=0
#   caret-original  the original CARET tracer (caret_trace, in humble-caret or
#                   jazzy-caret), recording
# Per mode, from the apps' own truth: publish -> subscription callback start
# latency of every message on both topics (median, p99), and the CPU time of
# the three processes per message published by /sensor; then each against
# the baseline (added latency, CPU ratio), and the events discarded. The
# modes run ROUNDS times, interleaved; each figure is the median of its
# rounds.
# usage: bench/real/run.sh [BUILD_DIR] [SECONDS] [ROUNDS] [TREE] [RMW] [SYSTEM]
#        (defaults: build, 5 s, 3 rounds, humble-caret, cyclonedds, pipeline3;
#        TREE jazzy-caret: Jazzy's apps, with its original tracer;
#        RMW fastdds: rmw_fastrtps_cpp; SYSTEM py-pipeline3 with TREE
#        jazzy-rclpy: the same pipeline of rclpy nodes, bench/rclpy)
#        BENCH_PERIOD_MS: /sensor's period (default 1: 1 kHz)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CARET_SOURCE_DIR=$(cd "$here/../.." && pwd)
export CARET_BUILD_DIR=$(cd "${1:-$CARET_SOURCE_DIR/build}" && pwd)
seconds=${2:-5}
rounds=${3:-3}
tree=${4:-humble-caret}
rmw=${5:-cyclonedds}
system=${6:-pipeline3}
period_ms=${BENCH_PERIOD_MS:-1}
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/scripts/dds-loopback.sh"
# the apps as they usually run: not reniced as the tests run them
export REAL_NICE=
# shellcheck source=../../tests/real/real_env.sh
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$tree" "$rmw" || exit 1
caret_lttng_require
caret_lttng_ensure_daemon
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-78}
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
original=$REAL_PREFIX/$tree/lib/libcaret.so
export CARET_SUBBUF_SIZE=4M CARET_NUM_SUBBUF=8

# mode NAME SESSION(0|1) ENV...: one run of the pipeline; its truth in
# $work/NAME, the trace's discarded events in $work/NAME.discarded.
mode() {
	local name=$1 session=$2
	shift 2
	echo "== $name" >&2
	CARET_TRACE_DIR=$work/$name.trace
	if ((session)); then
		caret_lttng_start "caret-bench-real-$name" 'ros2:*' 'ros2_caret:*' || return 1
	fi
	env "$@" "$REAL_LAUNCH" "$REAL_APPS" "$system" "$seconds" "$work/$name" "$work/$name.pids" \
		--period-ms "$period_ms" >/dev/null 2>>"$work/apps.log"
	if ((session)); then
		caret_lttng_stop
		"$BIN/caret" summary events --format csv "$CARET_TRACE_DIR" 2>/dev/null |
			awk -F, '$1 == "discarded" { print $2 }' >"$work/$name.discarded"
	else
		echo 0 >"$work/$name.discarded"
	fi
	CARET_TRACE_DIR=
}

modes=(plain tracetools caret-merged caret-unmerged)
[[ $tree == *-caret && -f $original ]] && modes+=(caret-original)
run_mode() { # MODE ROUND
	case $1 in
	plain) mode "$1.$2" 0 ;;
	tracetools) mode "$1.$2" 1 ;;
	caret-merged) mode "$1.$2" 1 LD_PRELOAD="$CARET_LIB" ;;
	caret-unmerged) mode "$1.$2" 1 LD_PRELOAD="$CARET_LIB" CARET_MERGE=0 ;;
	# it needs ROS_DISTRO, and finds sessions with `lttng list`
	caret-original) mode "$1.$2" 1 LD_PRELOAD="$original" ROS_DISTRO="${tree%-caret}" ;;
	esac
}
for ((round = 1; round <= rounds; round++)); do
	for m in "${modes[@]}"; do
		run_mode "$m" "$round"
	done
done

# stats NAME: "messages median_us p99_us cpu_us_per_message"
stats() {
	local dir=$work/$1
	awk -F, '
		FNR == 1 { next }
		FILENAME ~ /publishes/ { sent[$4 ":" $5] = $8; next }
		FILENAME ~ /receives/ { k = $5 ":" $6; if (k in sent) print ($10 - sent[k]) / 1000 }
	' "$dir"/*.publishes.*.csv "$dir"/*.receives.*.csv | sort -n >"$dir.latencies"
	local published cpu
	published=$(cat "$dir"/sensor.publishes.*.csv | grep -vc '^pid,')
	cpu=$(cat "$dir"/*.cpu.* | awk '{ s += $1 + $2 } END { print s / 1000 }')
	awk -v published="$published" -v cpu="$cpu" '
		{ v[NR] = $1 }
		END {
			p50 = v[int(NR * 0.50) + 1]; p99 = v[int(NR * 0.99) + 1]
			printf "%d %.1f %.1f %.2f\n", NR, p50, p99, cpu / published
		}' "$dir.latencies"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# summary MODE: "messages median_us p99_us cpu_us_per_message discarded",
# each the median of the rounds
summary() {
	local r
	for ((r = 1; r <= rounds; r++)); do
		echo "$(stats "$1.$r") $(cat "$work/$1.$r.discarded")"
	done >"$work/$1.rounds"
	local columns=()
	for c in 1 2 3 4 5; do
		columns+=("$(awk -v c=$c '{ print $c }' "$work/$1.rounds" | median)")
	done
	echo "${columns[*]}"
}

read -r _ base_p50 base_p99 base_cpu _ < <(summary plain)
printf '\n%s, %s rounds of %s s, /sensor every %s ms, tree %s, %s (median of the rounds)\n' \
	"$system" "$rounds" "$seconds" "$period_ms" "$tree" "$RMW_IMPLEMENTATION"
printf '%-16s %9s %10s %10s %12s %12s %11s %9s %10s\n' mode messages median_us p99_us \
	added_p50_us added_p99_us cpu_us/msg cpu_ratio discarded
for m in "${modes[@]}"; do
	read -r n p50 p99 cpu d < <(summary "$m")
	awk -v m="$m" -v n="$n" -v p50="$p50" -v p99="$p99" -v cpu="$cpu" -v b50="$base_p50" \
		-v b99="$base_p99" -v bcpu="$base_cpu" -v d="$d" 'BEGIN {
		printf "%-16s %9d %10.1f %10.1f %12.1f %12.1f %11.2f %9.2f %10s\n", m, n, p50, p99,
			p50 - b50, p99 - b99, cpu, cpu / bcpu, d }'
done
