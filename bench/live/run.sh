#!/usr/bin/env bash
# bench/live: what caret live costs while it watches a system at 1 kHz,
# against caret record of the same system in the same run (the baseline:
# attaching and recording without looking), and whether it drops anything.
# Two systems: (a) the demo's pipeline (testbed/systems/pipeline.yaml, five
# nodes in three processes) with every timer at 1 ms and the work cut to
# fit; (b) the real rclcpp pipeline as three processes (Humble) at
# --period-ms 1. Per run: CPU seconds (user + system) of caret record -d S
# and of caret live -d S --json on the same path, as % of one core; then
# the kept trace against live's last window: every path instance and every
# callback run counted (caret path latency, caret latency callbacks), 0
# discarded.
# usage: bench/live/run.sh [BUILD_DIR] [SECONDS] [REPEAT]
#        (BENCH_LIVE_SYSTEMS=a or b: one of the two)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
seconds=${2:-10} repeat=${3:-3}
. "$source_dir/scripts/lttng-session.sh"
. "$source_dir/scripts/dds-loopback.sh" # DDS on loopback, no multicast
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-79}
caret=$build/bin/caret

echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores;" \
	"load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# cpu OUT VERB ARGS...: caret VERB ARGS, "CPU_SECONDS ELAPSED" into OUT.time
cpu() {
	local out=$1 status=0
	shift
	/usr/bin/time -f '%U %S %e' -o "$out.time" "$caret" "$@" >"$out.stdout" 2>"$out.err" ||
		status=$?
	# caret live exits 3 on a deadline miss: none is asked here
	((status == 0)) || { cat "$out.err" >&2; return 1; }
	awk '{ printf "%.3f %.3f", $1 + $2, $3 }' "$out.time"
}

# check LIVE_OUT NODES: live's last window against the trace it kept:
# "INSTANCES RUNS ok" or a reason
check() {
	local out=$1 nodes=$2
	"$caret" path latency --nodes "$nodes" --records "$out.path.csv" "$out" >/dev/null 2>&1
	"$caret" latency callbacks --records "$out.runs.csv" "$out" >/dev/null 2>&1
	python3 - "$out.stdout" "$out.path.csv" "$out.runs.csv" <<'PY'
import csv, json, sys
windows = [json.loads(l) for l in open(sys.argv[1]) if '"window"' in l]
last = windows[-1]
path = last['paths'][0]
ended = sum(1 for r in csv.DictReader(open(sys.argv[2])) if r['last_callback_start_ns'])
runs = {}
for r in csv.DictReader(open(sys.argv[3])):
    if r['end_ns']:
        runs[r['callback']] = runs.get(r['callback'], 0) + 1
live_runs = sum(c['total'] for c in last['callbacks'])
trace_runs = sum(runs.get(c['name'], 0) for c in last['callbacks'])
ok = path['total'] == ended and live_runs == trace_runs and last['discarded'] == 0
print(f"{path['total']} {live_runs} {'ok' if ok else 'DROPPED'}"
      + ('' if ok else f" (live: {path['total']} instances, {live_runs} runs; trace: "
         f"{ended} instances, {trace_runs} runs; discarded {last['discarded']})"))
PY
}

# bench NAME NODES: `repeat` runs of record then live on the running system
bench() {
	local name=$1 nodes=$2 r rec live res
	echo "== $name ($seconds s a run)"
	printf "%-4s %22s %22s %14s %12s %s\n" run "record CPU s (% core)" "live CPU s (% core)" \
		"instances/s" "runs/s" "dropped"
	for ((r = 1; r <= repeat; r++)); do
		rec=$(cpu "$work/$name-rec-$r" record -o "$work/$name-rec-$r" -d "$seconds")
		live=$(cpu "$work/$name-live-$r" live --nodes "$nodes" --json --window 3600 \
			-o "$work/$name-live-$r" -d "$seconds")
		res=$(check "$work/$name-live-$r" "$nodes")
		read -r rc re <<<"$rec"
		read -r lc le <<<"$live"
		read -r inst runs verdict rest <<<"$res"
		printf "%-4s %12s (%5.2f %%) %12s (%5.2f %%) %14.0f %12.0f %s %s\n" "$r" "$rc" \
			"$(awk -v c="$rc" -v e="$re" 'BEGIN { print 100 * c / e }')" "$lc" \
			"$(awk -v c="$lc" -v e="$le" 'BEGIN { print 100 * c / e }')" \
			"$(awk -v n="$inst" -v s="$seconds" 'BEGIN { print n / s }')" \
			"$(awk -v n="$runs" -v s="$seconds" 'BEGIN { print n / s }')" "$verdict" "${rest:-}"
		rm -rf "$work/$name-rec-$r"
		if [[ $verdict == ok ]]; then
			rm -rf "$work/$name-live-$r"*
		else # kept for a look
			mv "$work/$name-live-$r" "/tmp/bench-live-dropped-$$-$r"
			mv "$work/$name-live-$r.stdout" "/tmp/bench-live-dropped-$$-$r.json"
			echo "kept: /tmp/bench-live-dropped-$$-$r{,.json}"
		fi
	done
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
}
total=$((repeat * seconds * 2 + repeat * 8 + 10))

systems=${BENCH_LIVE_SYSTEMS:-ab}
# (a) the demo's pipeline at 1 kHz
if [[ $systems == *a* ]]; then
sed -E 's/period_ms: [0-9]+/period_ms: 1/; s/mean: [0-9]+, jitter: [0-9]+/mean: 20, jitter: 5/' \
	"$source_dir/testbed/systems/pipeline.yaml" >"$work/pipeline-1khz.yaml"
"${CARET_GROUP[@]}" "$build/bin/tb-launch" "$work/pipeline-1khz.yaml" --duration "$total" \
	--preload "$build/lib/libcaret.so" >/dev/null 2>&1 &
launcher=$!
caret_at_exit "kill -INT $launcher 2>/dev/null || true"
sleep 3
bench "a) demo pipeline, 1 kHz" \
	/sensing/camera,/sensing/image_filter,/perception/fusion,/planning/planner,/control/actuator
kill -INT "$launcher"
wait "$launcher" || true
fi

# (b) the real rclcpp pipeline, three processes, 1 kHz
[[ $systems == *b* ]] || exit 0
export CARET_SOURCE_DIR=$source_dir CARET_BUILD_DIR=$build
. "$source_dir/tests/real/real_env.sh" humble
REAL_NICE=
env LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" pipeline3 "$total" \
	"$work/truth" "$work/pids" --period-ms 1 >/dev/null 2>&1 &
launcher=$!
caret_at_exit "kill -TERM $launcher 2>/dev/null || true"
sleep 3
bench "b) real rclcpp pipeline (Humble, 3 processes), 1 kHz" "$REAL_PATH"
kill -TERM "$launcher"
wait "$launcher" || true
