#!/usr/bin/env bash
# The tracer's filters on Python nodes: the rclpy program
# (rclpy_harmless/harmless.py: /talker's timer -> /chatter -> /relay ->
# /relayed -> /listener, a service, a coroutine client) run five times at
# once, each process in a namespace of its own with one filter (or none),
# merged and unmerged (ten processes), recorded session first: what a
# filter names is gone from the trace (its callback runs, its publishes and
# takes), what it does not name is there. Counted by the analyzer (caret
# summary nodes|topics) as test_real_filters.sh counts rclcpp's; and no
# stage of a filtered publish left behind.
# usage: test_real_rclpy_filters.sh [RMW]   (RMW: see real_env.sh)
set -uo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/rclpy_harmless/rclpy_env.sh" "${1:-}"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
failures=0
caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1

# namespace -> its filter (namespaces of the unmerged runs end in _u)
declare -A filters=(
	[none]=""
	[ign]='CARET_IGNORE_NODES=^/ign(_u)?/talker$'
	[sel]='CARET_SELECT_NODES=^/sel(_u)?/relay$'
	[igt]='CARET_IGNORE_TOPICS=/relayed$'
	[selt]='CARET_SELECT_TOPICS=/chatter$'
)
real_record_start "$work/trace" || exit 1
apps=()
for ns in "${!filters[@]}"; do
	for merge in 1 0; do
		name=$ns
		((merge)) || name=${ns}_u
		env ${filters[$ns]:+"${filters[$ns]}"} CARET_MERGE=$merge LD_PRELOAD="$CARET_LIB" \
			"${CARET_GROUP[@]}" timeout 60 "${PY[@]}" "$HARMLESS" --duration 2 \
			--ros-args -r __ns:=/"$name" >"$work/$name.out" 2>"$work/$name.err" &
		apps+=("$!:$name")
	done
done
for app in "${apps[@]}"; do
	status=0
	wait "${app%%:*}" || status=$?
	if ((status != 1)) || ! grep -q '^RuntimeError: the end$' "$work/${app#*:}.err"; then
		echo "FAIL ${app#*:}: the program exited $status, not as it ends"
		cat "$work/${app#*:}.err"
		failures=$((failures + 1))
	fi
done
real_record_stop "$work/trace" || failures=$((failures + 1))
"$BIN/caret" summary nodes --format csv "$work/trace" >"$work/nodes" 2>/dev/null
"$BIN/caret" summary topics --format csv "$work/trace" >"$work/topics" 2>/dev/null

# expect nodes|topics NAME COLUMN zero|some, for the merged and the unmerged
# namespace (NAME without it: /talker)
expect() {
	local table=$1 name=$2 column=$3 want=$4 ns=$5 suffix n
	for suffix in '' _u; do
		n=$(awk -F, -v key="/$ns$suffix$name" -v col="$column" '
			NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
			$1 == key { print $c }' "$work/$table")
		if [[ -z $n ]] || { [[ $want == zero ]] && ((n != 0)); } ||
			{ [[ $want == some ]] && ((n == 0)); }; then
			echo "FAIL /$ns$suffix: $table /$ns$suffix$name $column = ${n:-missing}, wanted $want"
			failures=$((failures + 1))
		fi
	done
}
for ns in none ign sel igt selt; do
	echo "== /$ns: ${filters[$ns]:-no filter}"
	case $ns in
	none)
		for node in /talker /relay /listener /server /asker; do
			expect nodes "$node" callback_runs some none
		done
		expect topics /chatter publishes some none
		expect topics /relayed takes some none
		;;
	ign)
		expect nodes /talker callback_runs zero ign
		expect topics /chatter publishes zero ign
		expect nodes /relay callback_runs some ign
		expect topics /relayed publishes some ign
		expect nodes /listener callback_runs some ign
		;;
	sel)
		expect nodes /relay callback_runs some sel
		expect topics /relayed publishes some sel
		expect nodes /talker callback_runs zero sel
		expect nodes /listener callback_runs zero sel
		expect nodes /server callback_runs zero sel
		expect topics /chatter publishes zero sel
		;;
	igt)
		expect topics /relayed publishes zero igt
		expect topics /relayed takes zero igt
		expect topics /chatter publishes some igt
		expect topics /chatter takes some igt
		expect nodes /server callback_runs some igt
		;;
	selt)
		expect topics /chatter publishes some selt
		expect topics /relayed publishes zero selt
		expect topics /relayed takes zero selt
		expect nodes /talker callback_runs some selt
		;;
	esac
done
if ((failures)); then
	cat "$work/nodes" "$work/topics"
fi

# No stage of a filtered publish is left (rclpy's publish gets an rclcpp
# stage from the tracer): merged, no publish with an rclcpp stage but no
# publisher; unmerged, every ros2_caret:dds_write with its bind.
babeltrace2 "$work/trace" 2>/dev/null | grep -E 'merged_publish_timing|dds_write|dds_bind_addr_to_stamp' \
	>"$work/publishes"
leftover=$(grep -Ec 'merged_publish_timing: .*publisher_handle = 0x0, .*rclcpp_publish_timestamp = [1-9]' \
	"$work/publishes")
writes=$(grep -c 'ros2_caret:dds_write:' "$work/publishes")
binds=$(grep -c 'ros2_caret:dds_bind_addr_to_stamp:' "$work/publishes")
if ((leftover != 0 || writes == 0 || writes != binds)); then
	echo "FAIL $leftover merged publishes with an rclcpp stage and no publisher;" \
		"$writes dds_write (unmerged), $binds dds_bind_addr_to_stamp"
	failures=$((failures + 1))
fi
"$BIN/caret" check "$work/trace" >"$work/check" 2>&1
grep -q '^result: ok' "$work/check" || { cat "$work/check"; echo "FAIL caret check"; failures=$((failures + 1)); }
echo "$(grep -c '^process ' "$work/check") processes, $(tail -1 "$work/check"); $failures failures"
((failures == 0))
