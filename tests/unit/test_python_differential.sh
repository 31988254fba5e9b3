#!/usr/bin/env bash
# caret_c, the Python package over libcaret-analyze (python/), against the
# original CARET analyzer (shared/anchors, caret_analyze 0.7.3) on the four
# real Humble traces of shared/data/real-humble: python_vs_original.py
# requires the original's DataFrames, equal in columns, dtypes, rows and
# values, for every callback, communication, node path and path (with and
# without the first and the last callback, and under the use_latest_message
# and inherit_unique_stamp contexts). The same again with the
# original's strip_filter and duration_filter as LttngEventFilter; one
# window ends after a filter run, before the sink's, so the sink callback
# never runs and the original leaves out the path's last end column.
# usage: test_python_differential.sh LIBRARY SOURCE_DIR SHARED_DIR
set -uo pipefail
library=$(realpath "$1") source=$2 shared=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
anchor=$shared/anchors/caret_analyze-0.7.3.tar.zst
[[ -f $anchor ]] || { echo "FAIL: $anchor missing"; exit 1; }
[[ -f $library ]] || { echo "FAIL: $library missing (build caret_analyze_shared)"; exit 1; }
tar --zstd -xf "$anchor" -C "$work" || exit 1

compare() { # TRACE [WINDOW...]
	local trace=$1 status
	shift
	echo "== $trace $*"
	CARET_ANALYZE_LIBRARY=$library PYTHONPATH=$work:$source/python /usr/bin/python3 \
		"$(dirname "$0")/python_vs_original.py" "$shared/data/real-humble/$trace" "$@" \
		2>"$work/err" >"$work/out"
	status=$?
	grep -E '^(ok|FAIL|note|  )|compared' "$work/out"
	if ((status != 0)); then
		grep -q compared "$work/out" || tail -n 5 "$work/err"
		failures=$((failures + 1))
	fi
}

for trace in caret-fork-inter caret-fork-intra caret-upstream-inter tracetools-fork-inter; do
	compare "$trace"
done
compare caret-fork-inter --strip 1 1.5
compare caret-upstream-inter --window 0.3 2
compare tracetools-fork-inter --window 2.2 1.7
# one sensor run and its filter run (2.419 s), ~84 us before the sink's take
compare caret-fork-inter --window 2.365 0.05453
# an intra-process publish (2.117145 s) 30 us before its callback starts:
# the original's path from the first publish has no row for it
compare caret-fork-intra --window 0.5 1.61717462
echo "$failures traces differ"
((failures == 0))
