#!/usr/bin/env bash
# A preloaded library (tb_probe) interposes the runtime's mangled rclcpp
# symbols and dds_write, and sees every call with the right this / group /
# handle values: compared with the ground truth the runtime writes.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"


check_system() {
	local system=$1 dir=$work/$1
	mkdir -p "$dir/probe"
	TB_PROBE_DIR=$dir/probe "$bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/$system.yaml" \
		--duration 1.5 --preload "$CARET_BUILD_DIR/lib/libtb_probe.so" \
		--truth "$dir/truth" --pid-file "$dir/pids"
	while read -r process pid; do
		local log=$dir/probe/probe.$pid.log entities=$dir/truth/$process.entities.$pid.csv
		[[ -f $log ]] || { echo "$system/$process: no probe log"; return 1; }
		# Expected probe lines, from the truth (kind,node,name,handle,callback,group).
		awk -F, 'NR > 1 {
			kind = $2; name = $4; handle = $5; cb = $6; group = $7
			if (kind == "executor") {
				collector[handle] = cb
				print "construct_executor " name " " handle (cb != "(nil)" ? " " cb : "")
			} else if (kind == "executor_group") {
				if (handle in collector && collector[handle] != "(nil)")
					print "add_callback_group_static_executor " collector[handle] " " group " " name
				else
					print "add_callback_group " handle " " group " " name
			} else if (kind ~ /^(timer|subscription|service|client)$/)
				print "callback_group_add_" kind " " group " " handle
		}' "$entities" | sort >"$dir/expected.$pid"
		grep -v '^dds_write ' "$log" | sort >"$dir/seen.$pid"
		if ! diff "$dir/expected.$pid" "$dir/seen.$pid"; then
			echo "$system/$process: hooked calls differ from the truth (< truth, > probe)"
			return 1
		fi
		# Every DDS write: inter-process publishes and client requests
		# (publishes with inter_process=1) and one reply per service call.
		local writes want
		writes=$(grep -c '^dds_write ' "$log" || true)
		want=$(( $(awk -F, 'NR > 1 && $10 == 1' "$dir/truth/$process.publishes.$pid.csv" | wc -l) +
			$(awk -F, 'NR > 1 && $5 == "service"' "$dir/truth/$process.callbacks.$pid.csv" | wc -l) ))
		if ((writes != want)); then
			echo "$system/$process: $writes dds_write calls seen, $want made"
			return 1
		fi
		echo "$system/$process: $(wc -l <"$dir/seen.$pid") hooked rclcpp calls and $writes dds_write calls, all as in the truth"
	done <"$dir/pids"
}

check_system executors
check_system services
check_system pipeline
