#!/usr/bin/env bash
# The original CARET analyzer (shared/anchors, caret_analyze 0.7.3) as the
# oracle on the four real Humble traces of shared/data/real-humble:
# original_vs_caret.py requires the original's architecture file from
# `caret arch`, and the original's numbers (count, min, mean, p50, p99,
# max) for every callback, communication, node path and path (its latency
# and four response-time cases, with and without the first and the last
# callback, through `caret path latency --arch` on the original's own
# architecture file). What only caret-c reports is a documented decision
# that the script names. The same again with a time window, the original's
# strip_filter and duration_filter against caret-c's --strip-start/
# --strip-end and --since/--until.
# usage: test_original_differential.sh BIN_DIR SHARED_DIR
set -uo pipefail
bin=$1 shared=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
anchor=$shared/anchors/caret_analyze-0.7.3.tar.zst
[[ -f $anchor ]] || { echo "FAIL: $anchor missing"; exit 1; }
tar --zstd -xf "$anchor" -C "$work" || exit 1

compare() { # TRACE [WINDOW...]
	local trace=$1 status
	shift
	echo "== $trace $*"
	PYTHONPATH=$work /usr/bin/python3 "$(dirname "$0")/original_vs_caret.py" "$bin/caret" \
		"$shared/data/real-humble/$trace" "$@" 2>"$work/err" >"$work/out"
	status=$?
	grep -E '^(ok|FAIL|note|  )|differences' "$work/out"
	if ((status != 0)); then
		grep -q differences "$work/out" || tail -n 5 "$work/err"
		failures=$((failures + 1))
	fi
}

for trace in caret-fork-inter caret-fork-intra caret-upstream-inter tracetools-fork-inter; do
	compare "$trace"
done
compare caret-fork-inter --strip 1 1.5
compare tracetools-fork-inter --window 2.2 1.7
echo "$failures traces differ"
((failures == 0))
