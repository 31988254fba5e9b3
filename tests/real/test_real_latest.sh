#!/usr/bin/env bash
# A timer-driven node between two chains (latest3, consume3: /filter keeps
# its input and publishes from a timer of its own), recorded from the start
# (CARET_MERGE=0, so that the original analyzer reads it too) and, for
# latest3, with merged events: latest_check.py follows /sensor -> /filter
# -> /sink under use_latest_message and consume_latest_message and holds
# each against the apps' own record of which input each output carried,
# and against the original CARET analyzer and caret_c's DataFrames (and
# caret report's path); then caret live while latest3 runs, every instance
# of the trace it kept counted once.
# usage: test_real_latest.sh TREE
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon
real_anchor "$work/anchor"

# check DIR MODE [--original]: the recording of DIR against its truth
check() {
	local dir=$1 mode=$2
	shift 2
	CARET_ANALYZE_LIBRARY=$CARET_BUILD_DIR/lib/libcaret-analyze.so.0 \
		PYTHONPATH=$work/anchor:$CARET_SOURCE_DIR/python "${REAL_PYTHON[@]}" \
		"$CARET_SOURCE_DIR/tests/real/latest_check.py" "$dir/trace" "$dir" --caret "$BIN/caret" \
		--mode "$mode" "$@" 2>"$dir/check.err" || { tail -5 "$dir/check.err"; return 1; }
}

for run in latest3:keep:0 consume3:consume:0 latest3:keep:1; do
	IFS=: read -r system mode merge <<<"$run"
	echo "== $system, CARET_MERGE=$merge"
	dir=$work/$system-$merge
	original=()
	((merge == 0)) && original=(--original)
	for attempt in 1 2 3; do
		rm -rf "$dir"
		real_from_start "$dir" "$system" CARET_MERGE="$merge"
		real_chain_delivered "$dir" && break
		echo "note: /sink took no message on /topic_b in the apps' 2 s (attempt $attempt)"
	done
	check "$dir" "$mode" "${original[@]}"
done

echo "== latest3, caret live while it runs"
dir=$work/live
mkdir -p "$dir"
env LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" latest3 30 \
	"$dir" "$dir/pids" >/dev/null 2>"$dir/apps.err" &
launcher=$!
caret_at_exit "kill -TERM $launcher 2>/dev/null || true"
sleep 1.5
"$BIN/caret" live --nodes /sensor,/filter,/sink --duration 4 --period 0.5 --window 60 --json \
	-o "$dir/trace" >"$dir/live.json" 2>"$dir/live.err" || { cat "$dir/live.err"; exit 1; }
kill -TERM "$launcher"
wait "$launcher" || true
/usr/bin/python3 "$CARET_SOURCE_DIR/tests/real/latest_check.py" --live "$dir/live.json" \
	"$dir/trace" --caret "$BIN/caret"
