#!/usr/bin/env bash
# caret_c.plot and caret_c.record against the original's (shared/anchors,
# caret_analyze 0.7.3, bokeh stood in by bokeh_stub.py): the plots'
# DataFrames on the four real Humble traces of shared/data/real-humble
# and one of them stripped (python_plot_vs_original.py), and the records
# helpers on generated records with losses, shared outputs and stages out
# of order (python_records_vs_original.py).
# usage: test_python_plot_differential.sh LIBRARY SOURCE_DIR SHARED_DIR
set -uo pipefail
library=$(realpath "$1") source=$2 shared=$3 here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
anchor=$shared/anchors/caret_analyze-0.7.3.tar.zst
[[ -f $anchor ]] || { echo "FAIL: $anchor missing"; exit 1; }
[[ -f $library ]] || { echo "FAIL: $library missing (build caret_analyze_shared)"; exit 1; }
tar --zstd -xf "$anchor" -C "$work" || exit 1

run() { # WHAT SCRIPT ARGS...
	local what=$1 script=$2 status
	shift 2
	echo "== $what"
	CARET_ANALYZE_LIBRARY=$library PYTHONPATH=$work:$source/python:$here /usr/bin/python3 \
		"$here/$script" "$@" 2>"$work/err" >"$work/out"
	status=$?
	grep -E '^(FAIL|note|  )|compared' "$work/out"
	if ((status != 0)); then
		grep -q compared "$work/out" || tail -n 5 "$work/err"
		failures=$((failures + 1))
	fi
}

for trace in caret-fork-inter caret-fork-intra caret-upstream-inter tracetools-fork-inter; do
	run "$trace" python_plot_vs_original.py "$shared/data/real-humble/$trace"
done
run "caret-fork-inter --strip 1 1.5" python_plot_vs_original.py \
	"$shared/data/real-humble/caret-fork-inter" --strip 1 1.5
run "generated records" python_records_vs_original.py 100
echo "$failures runs differ"
((failures == 0))
