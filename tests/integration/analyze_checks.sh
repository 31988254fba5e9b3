# analyze_checks.sh - sourced by integration tests: the analyzer on a
# testbed trace. The architecture equals the ground truth (arch_check), the
# architecture file equals the golden one of the system (addresses and pids
# do not appear in it; executors, numbered by address as the original does,
# are compared as sets: arch_same.py), it passes
# `caret arch --check`, and `caret check` finds nothing wrong; the runtime
# records (callback runs, messages) equal the truth's inside the recorded
# window, latencies within 50 us (records_check).
# On the pipeline and the executors system, messages are followed end to
# end along a chain too (the executors' through its architecture file's
# named path, whose disparity node joins its inputs by header stamp).
# The native CTF reader decodes the trace as babeltrace2 does, event for
# event (ctf_reader_diff), into the same tables (tables_diff); a load that
# keeps no runtime event (caret check's) gives the same model (lean_diff),
# and topic and node latencies joined as the scan goes are those of every
# record joined (lean_diff, and the CLI's tables both ways).
# usage: caret_check_analysis TRACE TRUTH_DIR PID_FILE SYSTEM
PIPELINE_PATH=/sensing/camera,/sensing/image_filter,/perception/fusion,/planning/planner,/control/actuator
caret_check_analysis() {
	local trace=$1 truth=$2 pids=$3 system=$4
	local bin=$CARET_BUILD_DIR/bin out
	out=$(mktemp -d)
	caret_at_exit "rm -rf '$out'"
	"$bin/arch_check" "$trace" "$truth" "$pids"
	# the reader as on a large trace: in a second thread
	CARET_READER_THREADS=2 "$bin/ctf_reader_diff" "$trace"
	CARET_READER_THREADS=2 "$bin/tables_diff" "$trace"
	CARET_READER_THREADS=2 "$bin/lean_diff" "$trace"
	local verb
	for verb in check "latency callbacks" "latency topics" "latency nodes"; do # the CLI both ways
		# shellcheck disable=SC2086 # the verb is two words
		cmp <(CARET_KEEP_EVENTS=1 "$bin/caret" $verb "$trace" 2>&1) \
			<(CARET_KEEP_EVENTS=0 "$bin/caret" $verb "$trace" 2>&1) ||
			{ echo "FAIL: caret $verb differs without the runtime events kept"; return 1; }
	done
	for verb in topics nodes; do # joined as the scan goes, and every record joined
		cmp <("$bin/caret" latency $verb "$trace" 2>&1) \
			<("$bin/caret" latency $verb --records /dev/null "$trace" 2>&1) ||
			{ echo "FAIL: caret latency $verb differs with every record joined"; return 1; }
	done
	local path=()
	[[ $system == pipeline ]] && path=(--path "$PIPELINE_PATH")
	[[ $system == executors ]] &&
		path=(--path "$CARET_SOURCE_DIR/tests/data/arch/executors-path.yaml:stereo_to_consumer")
	"$bin/records_check" "$trace" "$truth" "$pids" "${path[@]}"
	if [[ $system == pipeline ]]; then # records scanned in the lean load's pass
		cmp <(CARET_KEEP_EVENTS=1 "$bin/caret" path latency --nodes "$PIPELINE_PATH" "$trace" 2>&1) \
			<(CARET_KEEP_EVENTS=0 "$bin/caret" path latency --nodes "$PIPELINE_PATH" "$trace" 2>&1) ||
			{ echo "FAIL: caret path latency differs without the runtime events kept"; return 1; }
	fi
	"$bin/caret" arch -o "$out/arch.yaml" "$trace"
	/usr/bin/python3 "$CARET_SOURCE_DIR/tests/integration/arch_same.py" \
		"$CARET_SOURCE_DIR/tests/data/golden/arch-$system.yaml" "$out/arch.yaml"
	"$bin/caret" arch --check "$out/arch.yaml"
	if ! "$bin/caret" check "$trace" >"$out/check" 2>&1; then
		cat "$out/check"
		echo "caret check found errors" >&2
		return 1
	fi
	tail -1 "$out/check"
}
