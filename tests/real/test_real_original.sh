#!/usr/bin/env bash
# The original CARET analyzer (shared/anchors, caret_analyze 0.7.3) reads
# what caret-c records with merging off, and gives caret-c's answers
# (tests/unit/original_vs_caret.py): the same architecture file, and the
# same count, min, mean, p50, p99 and max for every callback,
# communication, node path and path (its four spans and response-time
# cases). The pipeline as three processes and as one with
# intra-process on, and the service and its client, recorded from their
# start. The executors app for its architecture file alone: the original
# pairs the starts and ends of a callback that runs in two threads at once
# (a reentrant group) across the threads (124 and 144 runs of 166, some of
# 1 ms where every run takes 3 ms), where ours has all of them, as the
# app's truth says (real_*_executors).
# usage: test_real_original.sh TREE
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon
anchor=$CARET_SHARED_DIR/anchors/caret_analyze-0.7.3.tar.zst
[[ -f $anchor ]] || { echo "FAIL: $anchor missing"; exit 1; }
mkdir -p "$work/anchor"
tar --zstd -xf "$anchor" -C "$work/anchor"

for system in pipeline3 pipeline1-intra services executors; do
	only=()
	[[ $system == executors ]] && only=(--architecture-only)
	echo "== $system"
	"$BIN/caret" record -o "$work/$system" --immediate --duration 5 >/dev/null \
		2>"$work/record.err" &
	recorder=$!
	sleep 1
	CARET_MERGE=0 LD_PRELOAD=$CARET_LIB "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" \
		"$system" 2.5 "$work/truth-$system" "$work/pids-$system" >/dev/null
	wait "$recorder" || { cat "$work/record.err"; exit 1; }
	PYTHONPATH=$work/anchor /usr/bin/python3 "$CARET_SOURCE_DIR/tests/unit/original_vs_caret.py" \
		"$BIN/caret" "$work/$system" "${only[@]}" >"$work/compared" 2>"$work/original.err" ||
		{ grep -E '^(FAIL|  )' "$work/compared"; tail -5 "$work/original.err"; exit 1; }
	grep -E '^(ok|note)|differences' "$work/compared"
done
