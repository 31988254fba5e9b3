#!/usr/bin/env bash
# One system of real rclcpp apps on one real ROS 2 tree, recorded every way
# a user records, each trace checked against the apps' own truth
# (real_check: architecture, callback runs, messages, path instances,
# `caret check`):
#   1. session first (`caret record --immediate`, the apps once it records,
#      the recording stopped once they ended), with
#      the standard events (CARET_MERGE=0); the original CARET analyzer
#      reads this trace too and gives the same answers, and the Python
#      package caret_c the original's DataFrames;
#   2. `caret record` started while the apps run, twice in a row (merged;
#      the apps stopped after the second);
#   3. `caret record -- CMD`: the recorder launches the apps (Cyclone DDS
#      only: on Fast DDS, 1 records from the start already).
# pipeline3 on Cyclone DDS: the report of 2's first trace (in Chromium on
# humble-caret) and its Trace Event export (tests/browser/checks.sh).
# usage: test_real_app.sh TREE SYSTEM [RMW]   (RMW: see real_env.sh)
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${3:-}"
system=$2
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

# record OUT ARGS...: caret record, which must end well and lose nothing.
record() {
	local out=$1 status=0
	shift
	"$BIN/caret" record -o "$out" "$@" >"$work/record.out" 2>"$work/record.err" || status=$?
	cat "$work/record.err"
	((status == 0)) || { echo "caret record failed ($status)" >&2; return 1; }
	grep -q ' 0 discarded$' "$work/record.err"
}

# launch RUN DURATION: the system in the background, tracer preloaded.
launch() {
	LD_PRELOAD=$CARET_LIB "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" "$system" "$2" \
		"$work/$1/truth" "$work/$1/pids" &
	launcher=$!
	caret_at_exit "kill -TERM $launcher 2>/dev/null || true"
}

echo "== 1. session first, CARET_MERGE=0"
# The pipelines need messages through the whole chain: a run in which /sink
# took none (by the apps' own account: discovery, Cyclone DDS and Fast DDS
# across a mixed system above all, can outlast 2 s on a busy machine) is
# said and run again, up to three times.
for attempt in 1 2 3; do
	rm -rf "$work/first"
	mkdir -p "$work/first"
	real_record_start "$work/first/trace"
	CARET_MERGE=0 launch first 2
	wait "$launcher"
	real_record_stop "$work/first/trace"
	[[ $system != pipeline* ]] || real_chain_delivered "$work/first/truth" || ((attempt == 3)) ||
		{ echo "note: /sink took no message on /topic_b in the apps' 2 s (attempt $attempt)"; continue; }
	break
done
"$BIN/caret" summary events "$work/first/trace" | grep -q '^ros2:callback_start ' ||
	{ echo "no ros2:callback_start in an unmerged trace" >&2; exit 1; }
real_check "$work/first/trace" "$work/first/truth" "$work/first/pids" "$system"
# The original analyzer (shared/anchors) reads the same trace and must give
# caret-c's answers (tests/unit/original_vs_caret.py). On the executors
# app, its architecture file alone: the original pairs the starts and ends
# of a callback running in two threads at once (a reentrant group) across
# the threads (124 and 144 runs of 166, some of 1 ms where every run takes
# 3 ms), where caret-c has every run, as real_check above checks.
# (On Fast DDS and mixed systems, on pipeline3 alone: what the DDS changes
# for the original is how publishes bind, which pipeline3 has all of; the
# rest of each system it compares on Cyclone DDS.)
if [[ $REAL_RMW == cyclonedds || $system == pipeline3 ]]; then
	real_anchor "$work/anchor"
	only=()
	[[ $system == executors ]] && only=(--architecture-only)
	PYTHONPATH=$work/anchor /usr/bin/python3 "$CARET_SOURCE_DIR/tests/unit/original_vs_caret.py" \
		"$BIN/caret" "$work/first/trace" "${only[@]}" >"$work/compared" 2>"$work/original.err" ||
		{ grep -E '^(FAIL|  )' "$work/compared"; tail -5 "$work/original.err"; exit 1; }
	grep -E 'differences' "$work/compared"
	# and the Python package's DataFrames are the original's, every one
	# (tests/unit/python_vs_original.py; not on the executors app, whose
	# runs the original pairs across threads, as above). Every system on
	# CARET users' tree (humble-caret), pipeline3 on the others: the
	# DataFrames are built from the numbers compared above, what a system
	# adds to them (intra-process, services, churn) is the same on every
	# tree, and each comparison costs about 8 s of the suite. And upstream
	# Humble's intra-process trace, whose messages nothing links: every
	# communication's and path's frame empty in both, with the original's
	# columns.
	if [[ $system != executors && ($REAL_TREE == humble-caret || $system == pipeline3 ||
	      ($REAL_TREE == humble && $system == pipeline1-intra)) ]]; then
		CARET_ANALYZE_LIBRARY=$CARET_BUILD_DIR/lib/libcaret-analyze.so.0 \
			PYTHONPATH=$work/anchor:$CARET_SOURCE_DIR/python "${REAL_PYTHON[@]}" \
			"$CARET_SOURCE_DIR/tests/unit/python_vs_original.py" "$work/first/trace" \
			$([[ $system == services ]] && echo --no-path) >"$work/python" 2>"$work/python.err" ||
			{ grep -E '^(FAIL|  )' "$work/python"; tail -5 "$work/python.err"; exit 1; }
		grep -E 'DataFrames compared' "$work/python"
	fi
fi

echo "== 2. caret record while the apps run, twice"
# The apps run until both recordings are done (then stopped as Ctrl-C
# stops them), however long the recordings take to start.
mkdir -p "$work/late"
launch late 120
sleep 1.5
record "$work/late/trace1" --duration 1.5
grep -Eq "(all $(wc -l <"$work/late/pids") processes|the 1 process) recording" "$work/record.err"
record "$work/late/trace2" --duration 1.5
kill -TERM "$launcher"
wait "$launcher"
for trace in trace1 trace2; do
	echo "-- $trace"
	real_check "$work/late/$trace" "$work/late/truth" "$work/late/pids" "$system"
done
# The report of a recording made while the apps ran and its Trace Event
# export (tests/browser/checks.sh), on each tree; opened in Chromium on
# the tree of CARET's users (the page's script is the same on every tree,
# and Chromium beside the other real tests slows their apps).
if [[ $system == pipeline3 && $REAL_RMW == cyclonedds ]]; then
	echo "-- trace1: the report, the Trace Event export"
	. "$CARET_SOURCE_DIR/tests/browser/checks.sh"
	browser=(--no-browser)
	[[ $REAL_TREE == humble-caret ]] && browser=()
	report_checks "$BIN/caret" "$work/late/trace1" "$work/late/report" "${browser[@]}" \
		--expect-node /sensor --expect-node /filter --expect-node /sink
fi

# On Fast DDS, recording from the processes' start is case 1 already: what
# case 3 adds (the recorder launching them) does not depend on the DDS.
[[ $REAL_RMW != cyclonedds ]] && exit 0
echo "== 3. caret record -- CMD"
mkdir -p "$work/command"
record "$work/command/trace" --duration 30 -- "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" \
	"$system" 2 "$work/command/truth" "$work/command/pids"
real_check "$work/command/trace" "$work/command/truth" "$work/command/pids" "$system"
