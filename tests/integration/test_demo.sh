#!/usr/bin/env bash
# `make demo`'s script end to end: the pipeline runs with libcaret.so, a
# recording starts while it runs, `caret check` is fine, the callback and
# path latency are printed, and the report shows the five nodes and a
# non-empty end-to-end path. The report, opened in headless Chromium as a
# person would (tests/browser/report_check.mjs), draws every chart, zooms,
# hovers, searches, logs nothing and requests nothing.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
out=$(mktemp -d)
caret_at_exit "rm -rf '$out'"
CARET_DEMO_OUT=$out/demo "$CARET_SOURCE_DIR/scripts/demo.sh" "$CARET_BUILD_DIR" >"$out/stdout" \
	2>"$out/stderr"
cat "$out/stdout" "$out/stderr"
# It cleaned up: the processes it started are gone, its session destroyed.
while read -r _ pid; do
	! kill -0 "$pid" 2>/dev/null || { echo "process $pid still runs" >&2; exit 1; }
done <"$out/demo/pids"
session=$(sed -n 's/^caret record: session \([^,]*\),.*/\1/p' "$out/stderr")
[[ -n $session ]]
! lttng list 2>/dev/null | grep -q "$session" || { echo "session $session left" >&2; exit 1; }
grep -q '^result: ok' "$out/stdout"
grep -Eq '^end to end +[1-9][0-9]* ' "$out/stdout"
report=$out/demo/report.html
[[ -s $report ]]
for node in /sensing/camera /sensing/image_filter /perception/fusion /planning/planner \
	/control/actuator; do
	grep -q ">$node<" "$report" || { echo "report lacks node $node" >&2; exit 1; }
done
# Self-contained: no element refers to anything outside the page.
if grep -Eq "<script[^>]* src=|<link|@import|<img|<iframe" "$report"; then
	echo "the report refers to something outside itself" >&2
	exit 1
fi
# Opened in headless Chromium (tests/browser/report_check.mjs): no console
# message, no request leaves the page, every chart drawn, a drag zooms
# every time axis at once, hovers show values, a click on the end-to-end
# timeline draws that instance's flow, the search filters, 1280 px wide.
node "$CARET_SOURCE_DIR/tests/browser/report_check.mjs" "$report" --expect-node /sensing/camera \
	--expect-node /control/actuator --screenshot "$out/report.png" --timing
