#!/usr/bin/env bash
# caret_c's HTML plots as a person opens them: every kind saved as a page
# (python_plot_pages.py) and opened offline in headless Chromium
# (tests/browser/plot_check.mjs: drawn, no error, nothing fetched, a drag
# zooms and a double-click shows all).
# usage: test_python_plot_html.sh LIBRARY SOURCE_DIR SHARED_DIR [SCREENSHOT_DIR]
set -uo pipefail
library=$(realpath "$1") source=$2 shared=$3 shots=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CARET_ANALYZE_LIBRARY=$library PYTHONPATH=$source/python /usr/bin/python3 \
	"$source/tests/unit/python_plot_pages.py" "$shared/data/real-humble/caret-fork-inter" \
	"$work" || { echo "FAIL: the pages were not written"; exit 1; }
args=("$work"/*.html)
[[ -n $shots ]] && args+=(--screenshots "$shots")
# (without the sanitizers' runtimes an ASan build preloads for Python:
# Chromium does not start under them)
env -u LD_PRELOAD node "$source/tests/browser/plot_check.mjs" "${args[@]}" >"$work/out" 2>&1
status=$?
grep -v '^ok ' "$work/out"
echo "caret_c plots in Chromium: $(grep -c '^ok ' "$work/out") checks ok"
exit $status
