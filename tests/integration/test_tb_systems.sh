#!/usr/bin/env bash
# Runs a testbed system under a real LTTng session, with the testbed's
# tracetools (and tb_probe recording the DDS source timestamps), and checks
# from the trace alone that it matches the description and the ground truth.
# usage: test_tb_systems.sh SYSTEM [DURATION]
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
system=$1 duration=${2:-3}
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
mkdir "$work/probe"

caret_lttng_require
caret_lttng_ensure_daemon
caret_lttng_start "caret-test-tb-$system" 'ros2:*' 'ros2_caret:*'
TB_PROBE_DIR=$work/probe caret_in_test_group "$bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/$system.yaml" \
	--duration "$duration" --truth "$work/truth" --pid-file "$work/pids" \
	--preload "$CARET_BUILD_DIR/lib/libtb_probe.so"
caret_lttng_stop
"$bin/tb_trace_check" "$CARET_SOURCE_DIR/testbed/systems/$system.yaml" \
	"$CARET_TRACE_DIR" "$work/truth" "$work/pids"

# The pipeline's requirements judged against the ground truth: every run of
# /sensing/image_filter's subscription (800 +- 200 us of work) over a 100 us
# deadline, as many as the truth ran, the worst one the truth's longest run
# (its start and length within 100 us: the tracepoints sit just inside the
# truth's clock readings); a generous max holds (exit 3 for the one violated).
if [[ $system == pipeline ]]; then
	caret=$bin/caret
	"$caret" arch -o "$work/arch.yaml" "$CARET_TRACE_DIR" >/dev/null
	"$caret" latency callbacks --records "$work/runs.csv" "$CARET_TRACE_DIR" >/dev/null
	filter=$(awk -F, 'index($1, "/sensing/image_filter/") == 1 { print $1; exit }' "$work/runs.csv")
	{ cat "$work/arch.yaml"; printf '%s\n' "deadlines:" "- callback_name: $filter" \
		"  deadline: 100us" "  max: 1s"; } >"$work/req.yaml"
	status=0
	"$caret" check --requirements "$work/req.yaml" --junit "$work/req.xml" "$CARET_TRACE_DIR" \
		>"$work/req.out" || status=$?
	cat "$work/req.out"
	read -r runs start length < <(awk -F, 'FNR > 1 && $2 == "/sensing/image_filter" && $8 > 0 {
		n++; if ($8 - $7 > max) { max = $8 - $7; at = $7 } } END { print n, at, max }' \
		"$work"/truth/*.callbacks.*.csv)
	echo "truth: $runs runs of $filter, the longest $length ns at $start"
	/usr/bin/python3 - "$work/req.out" "$work/req.xml" "$status" "$filter" "$runs" "$start" \
		"$length" <<'PY'
import re, sys, xml.etree.ElementTree as ET
out, xml, status, name, runs, start, length = sys.argv[1:]
text = open(out).read()
m = re.search(rf'FAIL callback {re.escape(name)}: deadline 100 us: (\d+) of (\d+) runs over.*'
              r'worst: [\d.]+ ms at (\d+) ns', text)
assert status == '3', f'exit {status}'
assert m and m.group(1) == m.group(2) == runs, (m and m.groups(), runs)
assert f'PASS callback {name}: max <= 1 s: max ' in text, text
failure = ET.parse(xml).getroot().find('testcase/failure')
worst = failure.text.split('\n')[2].split()
assert abs(int(worst[0]) - int(start)) < 100000, (worst, start)
assert abs(int(worst[1]) - int(length)) < 100000, (worst, length)
print(f'ok: {runs} runs over the deadline, the worst {worst[1]} ns at {worst[0]} '
      f'(the truth: {length} ns at {start})')
PY
fi
