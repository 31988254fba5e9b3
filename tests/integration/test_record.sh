#!/usr/bin/env bash
# caret record against testbed systems running with libcaret.so preloaded.
# usage: test_record.sh late [SYSTEM]|session-first|twice
#   late           apps first (all WAIT), then caret record --duration 3:
#                  every process replays all its initialization, records
#                  caret_init, then runtime events; nothing discarded
#   session-first  caret record --immediate first, the apps after: the whole
#                  run is recorded, every callback run as in the truth
#   twice          two recordings of one running system: two complete traces
#   command        caret record -- tb-launch ...: launches the system with the
#                  tracer preloaded, records all of it, stops when it exits
#   progress       on a terminal (a pty from script(1)), the live progress
#                  line shows the processes per state, size and discarded
#   original       the original's options (ros2 caret record): --session-name,
#                  -p (the trace in PATH/NAME), --recording-frequency, -l (the
#                  events listed are those recorded), -v, --subbuffer-size-ust,
#                  and $ROS_TRACE_DIR as the default folder; --immediate with
#                  the apps running (a script for the original's): recorded
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/integration/analyze_checks.sh"
mode=$1
name=${2:-pipeline}
bin=$CARET_BUILD_DIR/bin
system=$CARET_SOURCE_DIR/testbed/systems/$name.yaml
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

apps() { # DURATION
	"${CARET_GROUP[@]}" "$bin/tb-launch" "$system" --duration "$1" --truth "$work/truth" \
		--pid-file "$work/pids" --preload "$CARET_BUILD_DIR/lib/libcaret.so" &
	launcher=$!
	caret_at_exit "kill $launcher 2>/dev/null || true"
}

record() { # OUTPUT ARGS...
	local out=$1
	shift
	local status=0
	"$bin/caret" record -o "$out" "$@" >"$work/record.out" 2>"$work/record.err" || status=$?
	cat "$work/record.err"
	((status == 0))
	[[ $(cat "$work/record.out") == "$out" ]] # the trace path on stdout
	grep -q ' 0 discarded$' "$work/record.err"
}

case $mode in
late)
	apps 8
	sleep 2
	record "$work/trace" --duration 3
	grep -Eq "(all $(wc -l <"$work/pids") processes|the 1 process) recording" "$work/record.err"
	wait "$launcher"
	"$bin/tb_trace_check" --late "$system" "$work/trace" "$work/truth" "$work/pids"
	caret_check_analysis "$work/trace" "$work/truth" "$work/pids" "$name"
	;;
session-first)
	"$bin/caret" record -o "$work/trace" --immediate --duration 6 \
		>"$work/record.out" 2>"$work/record.err" &
	recorder=$!
	sleep 1
	apps 3
	wait "$launcher"
	status=0
	wait "$recorder" || status=$?
	cat "$work/record.err"
	((status == 0))
	grep -q ' 0 discarded$' "$work/record.err"
	"$bin/tb_trace_check" --tracer "$system" "$work/trace" "$work/truth" "$work/pids"
	;;
twice)
	apps 10
	sleep 2
	record "$work/trace1" --duration 2
	record "$work/trace2" --duration 2
	wait "$launcher"
	"$bin/tb_trace_check" --late "$system" "$work/trace1" "$work/truth" "$work/pids"
	"$bin/tb_trace_check" --late "$system" "$work/trace2" "$work/truth" "$work/pids"
	caret_check_analysis "$work/trace2" "$work/truth" "$work/pids" pipeline
	;;
command)
	record "$work/trace" --duration 30 -- "${CARET_GROUP[@]}" "$bin/tb-launch" "$system" \
		--duration 3 --truth "$work/truth" --pid-file "$work/pids"
	"$bin/tb_trace_check" --tracer "$system" "$work/trace" "$work/truth" "$work/pids"
	;;
progress)
	apps 8
	sleep 2
	script -qec "$bin/caret record -o $work/trace --duration 2" "$work/typescript" >/dev/null
	wait "$launcher"
	tr '\r' '\n' <"$work/typescript" | grep -E 'processes: [0-9]+ WAIT' | tail -n 3
	tr '\r' '\n' <"$work/typescript" |
		grep -Eq '^recording +[0-9.]+s \| 3 processes: 0 WAIT, 0 PREPARE, 3 RECORD \| [0-9.]+ MiB \| 0 discarded'
	grep -q ' 0 discarded' "$work/typescript"
	;;
original)
	apps 12
	sleep 2
	"$bin/caret" record --session-name "caret-orig-$$" -p "$work/base" -l -v --light \
		--recording-frequency 1000 --subbuffer-size-ust 1048576 --duration 2 \
		>"$work/record.out" 2>"$work/record.err"
	cat "$work/record.err"
	[[ $(cat "$work/record.out") == "$work/base/caret-orig-$$" ]]
	grep -q ' 0 discarded$' "$work/record.err"
	grep -q '^kernel tracing disabled$' "$work/record.err"
	grep -q '^context (3 fields)$' "$work/record.err"
	listed=$(sed -n 's/^UST tracing enabled (\([0-9]*\) events)$/\1/p' "$work/record.err")
	(($(grep -c $'^\t' "$work/record.err") == listed + 3))
	# every event type recorded was listed
	"$bin/caret" summary events --format csv "$work/base/caret-orig-$$" 2>/dev/null |
		sed -n 's/^\(ros2[a-z_]*:[a-z_]*\),[1-9].*/\1/p' >"$work/recorded"
	[[ -s $work/recorded ]]
	while read -r event; do
		grep -qx $'\t'"$event" "$work/record.err" || { echo "recorded, not listed: $event"; exit 1; }
	done <"$work/recorded"
	"$bin/caret" check "$work/base/caret-orig-$$" >"$work/check.out" # light: still analyzable
	# without -p or -o: under $ROS_TRACE_DIR, as ros2_tracing
	ROS_TRACE_DIR=$work/rtd "$bin/caret" record -s "caret-rtd-$$" --duration 1 \
		>"$work/record.out" 2>"$work/record.err"
	[[ $(cat "$work/record.out") == "$work/rtd/caret-rtd-$$" ]]
	# --immediate, the apps running (in WAIT since the last End): they record
	record "$work/immediate" --immediate --duration 2
	wait "$launcher"
	"$bin/tb_trace_check" --late "$system" "$work/immediate" "$work/truth" "$work/pids"
	;;
*)
	echo "usage: test_record.sh late|session-first|twice|command|progress|original"
	exit 2
	;;
esac
