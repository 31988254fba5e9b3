#!/usr/bin/env bash
# A plain ros2_tracing trace of real Jazzy (no libcaret.so: only the ros2:*
# events tracetools writes, the session started before the apps): the
# analyzer rebuilds the architecture (without executors and groups, which
# no ros2 event names), and links every message to its callback run,
# inter-process by the DDS source timestamp Jazzy's rmw_publish records,
# intra-process through the ring-buffer events (which upstream Humble does
# not have); caret check finds no error. Checked against the apps' truth.
# usage: test_real_plain.sh TREE
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

for system in pipeline3 pipeline1-intra; do
	echo "== $system"
	CARET_TRACE_DIR=$work/$system caret_lttng_start "caret-test-plain-$system" 'ros2:*'
	"${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" "$system" 2 "$work/truth-$system" \
		"$work/pids-$system" >/dev/null
	caret_lttng_stop
	trace=$work/$system
	"$BIN/arch_check" --no-structure "$trace" "$work/truth-$system" "$work/pids-$system"
	"$BIN/records_check" "$trace" "$work/truth-$system" "$work/pids-$system" --path "$REAL_PATH"
	if ! "$BIN/caret" check "$trace" >"$work/check" 2>&1; then
		cat "$work/check"
		echo "caret check found errors" >&2
		exit 1
	fi
	tail -1 "$work/check"
done
