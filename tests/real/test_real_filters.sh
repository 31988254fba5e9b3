#!/usr/bin/env bash
# Every CARET_* filter variable on real rclcpp (the pipeline as three
# processes, /sensor -> /topic_a -> /filter -> /topic_b -> /sink), recorded
# session first: what it names is gone from the trace, what it does not
# name is there. Counted by the analyzer (caret summary nodes|topics, which
# the other real tests check against the apps' truth). Each filter merged
# and unmerged: upstream Humble's rclcpp_publish names no publisher, and
# its rclcpp stage must go with the rest of a filtered publish. On Jazzy,
# a topic filter on the intra-process pipeline too: the filtered topic's
# ring-buffer events go with it.
# usage: test_real_filters.sh TREE [RMW]   (RMW: see real_env.sh)
set -uo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${2:-}"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
failures=0
caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1

# run NAME MERGE VAR=VALUE...: the pipeline (SYSTEM, default pipeline3)
# recorded from its start with these variables; the analyzer's counts in
# $work/NAME.{nodes,topics}. What the test checks needs messages through the
# whole chain: a run in which /sink took none (by the apps' own account: DDS
# discovery can outlast the apps' 2 s on a busy machine) is said and run
# again, up to three times.
run() {
	local name=$1 merge=$2 attempt
	shift 2
	echo "== $name (CARET_MERGE=$merge): $*"
	for attempt in 1 2 3; do
		rm -rf "$work/$name" "$work/truth-$name"
		record "$name" "$merge" "$@" || return
		real_chain_delivered "$work/truth-$name" && break
		echo "note $name: /sink took no message on /topic_b in the apps' 2 s (attempt $attempt)"
	done
	"$BIN/caret" summary nodes --format csv "$work/$name" >"$work/$name.nodes"
	"$BIN/caret" summary topics --format csv "$work/$name" >"$work/$name.topics"
}

# record NAME MERGE VAR=VALUE...: one recording of run's; fails if the
# session did not start
record() {
	local name=$1 merge=$2
	shift 2
	real_record_start "$work/$name" || { failures=$((failures + 1)); return 1; }
	env "$@" CARET_MERGE="$merge" LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" \
		"$REAL_LAUNCH" "$REAL_APPS" "${SYSTEM:-pipeline3}" 2 "$work/truth-$name" \
		"$work/pids-$name" ||
		{ echo "FAIL $name: the apps failed"; failures=$((failures + 1)); }
	real_record_stop "$work/$name" || failures=$((failures + 1))
}

# expect NAME nodes|topics KEY COLUMN zero|some
expect() {
	local name=$1 table=$2 key=$3 column=$4 want=$5 n
	n=$(awk -F, -v key="$key" -v col="$column" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		$1 == key { print $c }' "$work/$name.$table")
	if [[ -z $n ]] || { [[ $want == zero ]] && ((n != 0)); } || { [[ $want == some ]] && ((n == 0)); }; then
		echo "FAIL $name: $table $key $column = ${n:-missing}, wanted $want"
		failures=$((failures + 1))
		explain "$name"
	fi
}

# What a run that failed recorded, once: the analyzer's tables, caret
# record's report, and each of the apps' processes' events by name.
explained=" "
explain() {
	local name=$1 role pid
	[[ $explained == *" $name "* ]] && return
	explained+="$name "
	echo "-- $name: what was recorded"
	cat "$work/$name.nodes" "$work/$name.topics" "$work/$name.err"
	while read -r role pid; do
		echo "-- $name: $role (pid $pid)"
		"$BIN/tb_event_counts" --vpid "$pid" "$work/$name" | awk 'NR > 1 && $2 != 0'
	done <"$work/pids-$name"
}

# No rclcpp stage of a filtered publish (upstream's names no publisher) is
# left: merged, no publish chain with an rclcpp stage but no publisher;
# unmerged, no rclcpp_publish without its rcl_publish (the analyzer counts
# those as publishes of an unknown publisher).
no_unnamed_leftovers() {
	local name=$1 merge=$2 leftover
	if [[ $merge == 1 ]]; then
		leftover=$(babeltrace2 "$work/$name" 2>/dev/null | grep -Ec \
			'merged_publish_timing: .*publisher_handle = 0x0, .*rclcpp_publish_timestamp = [1-9]')
	else
		leftover=$(awk -F, '$1 == "(unattributed)" { print $3 }' "$work/$name.nodes")
	fi
	if [[ $leftover != 0 ]]; then
		echo "FAIL $name: $leftover publishes whose rclcpp stage names no publisher"
		failures=$((failures + 1))
	fi
}

# A filtered publish leaves no bind either (unmerged: every recorded
# rmw_publish, as ros2_caret:dds_write, has its dds_bind_addr_to_stamp; on
# Fast DDS the bind comes from another hook than the rmw_publish's).
binds_paired() {
	local name=$1 writes binds
	writes=$(babeltrace2 "$work/$name" 2>/dev/null | grep -c 'ros2_caret:dds_write:' || true)
	binds=$(babeltrace2 "$work/$name" 2>/dev/null | grep -c 'ros2_caret:dds_bind_addr_to_stamp:' || true)
	if ((writes == 0 || writes != binds)); then
		echo "FAIL $name: $writes ros2_caret:dds_write, $binds dds_bind_addr_to_stamp"
		failures=$((failures + 1))
	fi
}

# merged and unmerged; on Fast DDS unmerged only (the two forms differ in
# nothing its hook does but the event written: test_tracer_fastdds has both)
modes=(1 0)
[[ $REAL_RMW != cyclonedds ]] && modes=(0)
for merge in "${modes[@]}"; do
	run none-$merge $merge
	expect none-$merge nodes /sensor callback_runs some
	expect none-$merge nodes /filter callback_runs some
	expect none-$merge nodes /sink callback_runs some
	expect none-$merge topics /topic_a publishes some
	expect none-$merge topics /topic_b takes some

	run ignore-nodes-$merge $merge CARET_IGNORE_NODES=/sensor
	expect ignore-nodes-$merge nodes /sensor callback_runs zero
	expect ignore-nodes-$merge topics /topic_a publishes zero
	expect ignore-nodes-$merge nodes /filter callback_runs some
	expect ignore-nodes-$merge topics /topic_b publishes some

	run select-nodes-$merge $merge 'CARET_SELECT_NODES=^/fil'
	expect select-nodes-$merge nodes /filter callback_runs some
	expect select-nodes-$merge topics /topic_b publishes some
	expect select-nodes-$merge nodes /sensor callback_runs zero
	expect select-nodes-$merge nodes /sink callback_runs zero

	run ignore-topics-$merge $merge CARET_IGNORE_TOPICS=/topic_b
	[[ $merge == 0 ]] && binds_paired none-$merge && binds_paired ignore-topics-$merge
	expect ignore-topics-$merge topics /topic_b publishes zero
	expect ignore-topics-$merge topics /topic_b takes zero
	expect ignore-topics-$merge topics /topic_a publishes some
	expect ignore-topics-$merge topics /topic_a takes some
	no_unnamed_leftovers ignore-topics-$merge $merge

	run select-topics-$merge $merge 'CARET_SELECT_TOPICS=_a$'
	expect select-topics-$merge topics /topic_a publishes some
	expect select-topics-$merge topics /topic_b publishes zero
	expect select-topics-$merge topics /topic_b takes zero
	expect select-topics-$merge nodes /sensor callback_runs some
	no_unnamed_leftovers select-topics-$merge $merge

	run ignore-processes-$merge $merge CARET_IGNORE_PROCESSES=sink
	expect ignore-processes-$merge nodes /filter callback_runs some
	if grep -q '^/sink,' "$work/ignore-processes-$merge.nodes"; then
		echo "FAIL ignore-processes-$merge: the ignored process /sink is in the trace"
		failures=$((failures + 1))
	fi
done

if [[ $REAL_TREE == jazzy ]]; then
	SYSTEM=pipeline1-intra run intra-ignore-topics 1 CARET_IGNORE_TOPICS=/topic_b
	expect intra-ignore-topics topics /topic_b events zero
	expect intra-ignore-topics topics /topic_a events some
	expect intra-ignore-topics topics /topic_a takes some
fi
echo "$failures failures"
((failures == 0))
