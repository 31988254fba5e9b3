#!/usr/bin/env bash
# bench/record: time from Start to every process in RECORD, and discarded
# events, for (a) the 20-process x 10-node generated system and (b) one
# process with about 10,000 initialization events. The original tracer
# replays 100 records per second and process: its time for the same replay
# is printed beside ours (records / 100).
# usage: bench/record/run.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
. "$here/../../scripts/lttng-session.sh"
. "$here/../../scripts/dds-loopback.sh"
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-77}

# (b): one process, 1,430 nodes with a 1 s timer each: 7 initialization
# records per node (node, timer init, callback added, register, link,
# group add, executor group) and a few per process.
{
	echo "system: many_inits"
	echo "processes:"
	echo "  - name: big"
	echo "    nodes:"
	for i in $(seq 1430); do
		echo "      - {name: n$i, namespace: /big, timers: [ {period_ms: 1000} ]}"
	done
} >"$work/big.yaml"
"$build/bin/tb-gen" --processes 20 --nodes 10 --seed 7 -o "$work/gen.yaml"

# measure NAME SYSTEM: launches it (WAIT), records 1 s, prints the figures.
measure() {
	local name=$1 system=$2
	"${CARET_GROUP[@]}" "$build/bin/tb-launch" "$system" --duration 30 \
		--preload "$build/lib/libcaret.so" --pid-file "$work/$name.pids" 2>/dev/null &
	local launcher=$!
	sleep 5 # every process up, its initialization stored, in WAIT
	"$build/bin/caret" record -o "$work/$name" --duration 1 --wait 30 \
		>/dev/null 2>"$work/$name.err" || { cat "$work/$name.err"; kill "$launcher"; return 1; }
	kill -INT "$launcher"
	wait "$launcher" || true
	local after processes discarded records
	after=$(sed -n 's/.*all \([0-9]*\) processes recording \([0-9.]*\) s after Start.*/\2/p' "$work/$name.err")
	processes=$(sed -n 's/.*all \([0-9]*\) processes recording.*/\1/p' "$work/$name.err")
	discarded=$(sed -n 's/.* \([0-9]*\) discarded$/\1/p' "$work/$name.err")
	records=$(while read -r _ pid; do
		"$build/bin/tb_event_counts" --vpid "$pid" "$work/$name" | awk '
			$1 ~ /^ros2_caret:/ && $1 !~ /merged|dds_|caret_init/ { n += $2 } END { print n + 0 }'
	done <"$work/$name.pids" | sort -n | tail -n 1)
	printf "%-34s %3s processes  Start->all RECORD %6s s  discarded %s  (largest replay %s records; original at 100/s: %s s)\n" \
		"$name" "${processes:-?}" "${after:-?}" "${discarded:-?}" "$records" \
		"$(awk -v r="$records" 'BEGIN { printf "%.0f", r / 100 }')"
}

measure "a) generated 20 x 10" "$work/gen.yaml"
measure "b) one process, ~10,000 inits" "$work/big.yaml"
