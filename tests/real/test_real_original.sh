#!/usr/bin/env bash
# The original CARET analyzer (shared/anchors, caret_analyze 0.7.3) reads
# what caret-c records with merging off, and gives caret-c's answers
# (tests/unit/original_vs_caret.py): the same architecture file, and the
# same count, min, mean, p50, p99 and max for every callback,
# communication, node path and path (its four spans and response-time
# cases). The pipeline as three processes and as one with
# intra-process on, and the service and its client, recorded from their
# start. Not the executors app: the original loses runs of a callback that
# runs in two threads at once (a reentrant group: 136 and 155 runs of 166
# each, where ours has all of them, as the apps' truth says).
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

for system in pipeline3 pipeline1-intra services; do
	echo "== $system"
	"$BIN/caret" record -o "$work/$system" --immediate --duration 5 >/dev/null \
		2>"$work/record.err" &
	recorder=$!
	sleep 1
	CARET_MERGE=0 LD_PRELOAD=$CARET_LIB "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" \
		"$system" 2.5 "$work/truth-$system" "$work/pids-$system" >/dev/null
	wait "$recorder" || { cat "$work/record.err"; exit 1; }
	PYTHONPATH=$work/anchor /usr/bin/python3 "$CARET_SOURCE_DIR/tests/unit/original_vs_caret.py" \
		"$BIN/caret" "$work/$system" >"$work/compared" 2>"$work/original.err" ||
		{ grep -E '^(FAIL|  )' "$work/compared"; tail -5 "$work/original.err"; exit 1; }
	grep -E '^(ok|note)|differences' "$work/compared"
done
