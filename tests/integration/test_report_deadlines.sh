#!/usr/bin/env bash
# The report's deadlines on the real Humble trace caret-fork-inter
# (shared/data/real-humble), copied as a snapshot of caret live would
# leave it: its miss file (caret-live-miss.json, the JSON line of the
# path's worst instance, as caret live --json prints it) beside the trace,
# and an architecture file with requirements on the path and on a
# callback. In headless Chromium (tests/browser/report_deadline.mjs): each
# deadline's dashed line on its timeline, the instances over it red, as
# many as the table's misses and the records over it say, the histogram's
# marker; the snapshot's instance ringed and named in the header; then the
# generic checks of every report (report_checks). A report without the
# file or the requirements draws none of it.
set -euo pipefail
. "$CARET_SOURCE_DIR/tests/browser/checks.sh"
caret=$CARET_BUILD_DIR/bin/caret
shared=$CARET_SHARED_DIR/data/real-humble/caret-fork-inter
arch=$CARET_SOURCE_DIR/tests/data/arch/real-sensor-sink.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

cp -r "$shared" "$work/miss-1"
{ cat "$arch"; printf '%s\n' "deadlines:" "- path_name: sensor_to_sink" "  deadline: 700us" \
	"  miss_ratio: 20%" "  p99: 1ms" "- callback_name: /filter/callback_0" \
	"  deadline: 200us"; } >"$work/req.yaml"
"$caret" path latency --arch "$arch" --path sensor_to_sink --records "$work/path.csv" \
	"$work/miss-1" >/dev/null
"$caret" latency callbacks --records "$work/runs.csv" "$work/miss-1" >/dev/null
path_over=$(awk -F, 'NR > 1 && $7 + 0 > 700000' "$work/path.csv" | wc -l)
runs_over=$(awk -F, '$1 == "/filter/callback_0" && $6 + 0 > 200000' "$work/runs.csv" | wc -l)
# the snapshot's miss: the path's worst instance (start, end, latency)
read -r start end latency < <(sort -t, -k7 -n "$work/path.csv" | tail -1 |
	awk -F, '{ print $5, $6, $7 }')
printf '{"type": "miss", "path": "sensor_to_sink", "start_ns": %s, "end_ns": %s, "latency_ns": %s, "deadline_ns": 700000, "detected_after_ns": 1000000000, "hops": [{"hop": "topic /topic_a", "ns": 1}], "worst_hop": "topic /topic_a", "snapshot": "%s"}\n' \
	"$start" "$end" "$latency" "$work/miss-1" >"$work/miss-1/caret-live-miss.json"
echo "the path: $path_over instances over 700 us; /filter/callback_0: $runs_over runs over" \
	"200 us; the snapshot's miss at $start ($latency ns)"

"$caret" report --arch "$work/req.yaml" -o "$work/report.html" "$work/miss-1" >/dev/null
grep -qF "<td class='misses over'>$path_over</td>" "$work/report.html" ||
	fail "the path's table does not count $path_over misses"
grep -qF "<b>$runs_over</b> of 50 runs over it" "$work/report.html" ||
	fail "the callback's card does not count $runs_over misses"
node "$CARET_SOURCE_DIR/tests/browser/report_deadline.mjs" "$work/report.html" --deadlines 2 \
	--snapshot sensor_to_sink ${REPORT_SHOTS:+--screenshots "$REPORT_SHOTS"}

echo "== the generic checks of a report, with the requirements and the snapshot's miss"
report_checks "$caret" "$work/miss-1" "$work/checks" --expect-node /filter -- \
	--arch "$work/req.yaml" --path sensor_to_sink

echo "== without the file and the requirements: none of it"
rm "$work/miss-1/caret-live-miss.json"
"$caret" report --arch "$arch" -o "$work/plain.html" "$work/miss-1" >/dev/null
! grep -qE "snapshot-miss|class='deadline'|<th>misses</th>|\"dl\":|\"snap\":" \
	"$work/plain.html" || fail "a report without requirements draws a deadline"
echo "ok"
