#!/usr/bin/env bash
# CARET's tutorial and how-to pages on the system they measure: the
# tutorial system (apps/tutorial.cpp, caret_demos' end_to_end_sample by its
# names) recorded from the start (CARET_MERGE=0, so that the original
# analyzer reads it too), then every page's code (tests/data/caret_doc) and
# the example notebook made of the tutorial's page run under the original
# caret_analyze 0.7.3 and under caret_c (tests/unit/caret_doc_vs_original.py:
# the same DataFrames and exceptions), and the notebook run headless as a
# user runs it, beside the recording and its architecture file, as the
# tutorial has them (./e2e_sample, ./architecture.yaml).
# usage: test_real_tutorial.sh TREE
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon
mkdir -p "$work/evaluate"
real_anchor "$work/anchor"
library=$CARET_BUILD_DIR/lib/libcaret-analyze.so.0
notebook=$CARET_SOURCE_DIR/examples/notebook/caret_tutorial.ipynb

for attempt in 1 2 3; do
	rm -rf "$work/run"
	real_from_start "$work/run" tutorial CARET_MERGE=0
	# the chain's end took a message (DDS discovery can outlast the run)
	grep -q ',/actuator_dummy_node,' "$work/run"/tutorial.e2e.*.csv 2>/dev/null && break
	echo "note: /actuator_dummy_node took no message on /topic4 (attempt $attempt)"
done

status=0
# a second host for the pages' multi-host calls: one of the shared recordings
CARET_ANALYZE_LIBRARY=$library "${REAL_PYTHON[@]}" "$CARET_SOURCE_DIR/tests/unit/caret_doc_vs_original.py" \
	--anchor "$work/anchor" --system tutorial --trace "$work/run/trace" \
	--host1 "$CARET_SHARED_DIR/data/real-humble/caret-fork-inter" --notebook "$notebook" \
	--inputs "$work/evaluate" || status=1
echo "== $(basename "$notebook") headless, beside ./e2e_sample and ./architecture.yaml"
cp -r "$work/run/trace" "$work/evaluate/e2e_sample"
"${REAL_PYTHON_ENV[@]}" bash "$CARET_SOURCE_DIR/tests/unit/test_example_notebook.sh" "$library" "$CARET_SOURCE_DIR" \
	"$CARET_SHARED_DIR" "$notebook" "$work/evaluate" || status=1
exit $status
