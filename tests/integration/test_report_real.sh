#!/usr/bin/env bash
# The report and the Trace Event export of the real Humble traces
# (shared/data/real-humble), as a person opens them: the report in headless
# Chromium (tests/browser/report_check.mjs: no console message, no request,
# every chart drawn, a zoom moves every time axis, hovers show values, the
# search filters, 1280 px), the tracer's and ROS 2's own objects left out
# unless --all, nothing of where messages waited (no reception recorded:
# report_split.py); the export against the Trace Event format's rules and
# the callbacks' runs. Then the rule checker on broken exports (it must
# fail) and caret export's usage errors.
set -euo pipefail
. "$CARET_SOURCE_DIR/tests/browser/checks.sh"
caret=$CARET_BUILD_DIR/bin/caret
shared=$CARET_SHARED_DIR/data/real-humble
arch=$CARET_SOURCE_DIR/tests/data/arch/real-sensor-sink.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== caret-fork-inter (the original tracer), the named path sensor_to_sink"
report_checks "$caret" "$shared/caret-fork-inter" "$work/inter" --expect-node /sensor \
	--expect-node /filter --expect-node /sink -- --arch "$arch" --path sensor_to_sink
grep -q "<h3>sensor_to_sink</h3>" "$work/inter/report.html"
# no reception recorded (the original tracer): nothing of the split on the page
/usr/bin/python3 "$CARET_SOURCE_DIR/tests/browser/report_split.py" "$work/inter/report.html"
echo "== tracetools-fork-inter (plain ros2_tracing), the longest chain"
report_checks "$caret" "$shared/tracetools-fork-inter" "$work/plain" --expect-node /sink

echo "== the checker fails on broken exports"
check=$CARET_SOURCE_DIR/tests/unit/chrome_trace_check.py
broken() { # NAME PYTHON: the export changed by PYTHON (on `events`) must fail
	/usr/bin/python3 - "$work/inter/export.json" "$work/$1.json" <<PY
import json, sys
doc = json.load(open(sys.argv[1]))
events = doc["traceEvents"]
$2
json.dump(doc, open(sys.argv[2], "w"))
PY
	if /usr/bin/python3 "$check" "$work/$1.json" >"$work/$1.out"; then
		echo "FAIL: the checker passed an export with $1" >&2
		exit 1
	fi
	echo "ok an export with $1 fails: $(sed -n 2p "$work/$1.out")"
}
broken "a flow without its end" 'events.remove(next(e for e in events if e["ph"] == "f"))'
broken "overlapping slices" '
xs = [e for e in events if e["ph"] == "X" and e["cat"] == "callback"]
xs[1]["ts"] = xs[0]["ts"] + xs[0]["dur"] / 2; xs[1]["dur"] = xs[0]["dur"] * 4'
broken "negative durations" '
for e in events:
    if e["ph"] == "X": e["dur"] = -1'
broken "an async slice never ended" 'events.remove(next(e for e in events if e["ph"] == "e"))'
broken "a thread without a name" 'events.remove(next(e for e in events if e.get("name") == "thread_name"))'

echo "== caret export: usage errors"
for args in "" "--format json $shared/caret-fork-inter" "--format chrome-trace" \
	"--format chrome-trace --path x $shared/caret-fork-inter"; do
	status=0
	# shellcheck disable=SC2086 # words on purpose
	"$caret" export $args >"$work/out" 2>"$work/err" || status=$?
	((status == 2)) && [[ ! -s $work/out && -s $work/err ]] ||
		{ echo "FAIL: caret export $args: exit $status" >&2; exit 1; }
done
status=0
"$caret" export --format chrome-trace "$work/missing" >"$work/out" 2>"$work/err" || status=$?
((status == 1)) && grep -q "cannot" "$work/err" ||
	{ echo "FAIL: caret export of a missing trace: exit $status" >&2; exit 1; }
"$caret" export --help | grep -q 'chrome-trace'
echo "ok caret export's usage errors"
