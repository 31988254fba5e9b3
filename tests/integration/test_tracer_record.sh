#!/usr/bin/env bash
# A testbed system with libcaret.so preloaded, the session started first:
# initialization events as ros2_caret with init_timestamp, in creation order;
# executor and callback-group structure as in the truth; every callback run
# recorded; every DDS take matched to the publishing side's source stamp.
# The analyzer rebuilds the architecture of the truth (analyze_checks.sh).
# Merged: a stage time damaged refuses the trace, whatever the verb.
# usage: test_tracer_record.sh SYSTEM MERGE(0|1) [DURATION]
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/integration/analyze_checks.sh"
system=$1 merge=$2 duration=${3:-3}
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"

caret_lttng_require
caret_lttng_ensure_daemon
caret_lttng_start "caret-test-tracer-$system" 'ros2:*' 'ros2_caret:*'
CARET_MERGE=$merge caret_in_test_group "$bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/$system.yaml" \
	--duration "$duration" --truth "$work/truth" --pid-file "$work/pids" \
	--preload "$CARET_BUILD_DIR/lib/libcaret.so"
caret_lttng_stop
"$bin/tb_trace_check" --tracer "$CARET_SOURCE_DIR/testbed/systems/$system.yaml" \
	"$CARET_TRACE_DIR" "$work/truth" "$work/pids"
caret_check_analysis "$CARET_TRACE_DIR" "$work/truth" "$work/pids" "$system"

# The form asked for, and only that one.
merged=0 plain=0
while read -r _ pid; do
	counts=$("$bin/tb_event_counts" --vpid "$pid" "$CARET_TRACE_DIR")
	merged=$((merged + $(awk '$1 == "ros2_caret:merged_callback_timing" { print $2 }' <<<"$counts")))
	plain=$((plain + $(awk '$1 == "ros2:callback_start" { print $2 }' <<<"$counts")))
done <"$work/pids"
echo "merged_callback_timing $merged, callback_start $plain"
if [[ $merge == 1 ]]; then ((merged > 0 && plain == 0)); else ((merged == 0 && plain > 0)); fi

# Trace size per callback instance (the stream files, packets included).
bytes=$(find "$CARET_TRACE_DIR" -type f ! -name metadata ! -path '*/index/*' -printf '%s\n' |
	awk '{ s += $1 } END { print s + 0 }')
runs=$(cat "$work"/truth/*.callbacks.*.csv | grep -vc '^pid,')
echo "trace: $bytes bytes of streams for $runs callback instances (merge=$merge)"

# A merged event's stage time damaged (issue 45): bit 62 of a merged
# callback's start flipped, 146 years after its end. Every
# latency verb printed a callback of -4.6e15 us as its minimum, exit 0, and
# caret check said "ok"; now every verb, with either reader, refuses the
# trace in one line naming the event.
if [[ $merge == 1 ]]; then
	damaged=$work/damaged
	cp -r "$CARET_TRACE_DIR" "$damaged"
	# the largest stream of events (the one holding most)
	/usr/bin/python3 - "$damaged"/ust/uid/*/64-bit/metadata \
		"$(ls -S "$damaged"/ust/uid/*/64-bit/caret_[0-9]* | head -1)" <<'PY'
import re, struct, sys
# the first merged_callback_timing's callback_start_timestamp: its event's
# id from the metadata (LTTng's packets of a 37-byte header), its header
# found (LTTng's large one: a 16-bit id and a 32-bit time, or 0xffff, a
# 32-bit id and a 64-bit time), then past the context (vpid, vtid,
# procname[17]) and the callback's address, a time inside its packet's
raw, text, at = open(sys.argv[1], 'rb').read(), b'', 0
while at < len(raw):
    content, packet = struct.unpack_from('<II', raw, at + 24)
    text += raw[at + 37:at + content // 8]
    at += packet // 8
ident = int(re.search(rb'name = "ros2_caret:merged_callback_timing";\s*id = (\d+);', text).group(1))
path = sys.argv[2]
d = bytearray(open(path, 'rb').read())
at = 0
while at < len(d):
    begin, end, content, size = struct.unpack_from('<QQQQ', d, at + 32)
    for i in range(at + 64, at + content // 8 - 80):
        h = struct.unpack_from('<H', d, i)[0]
        if h == ident:
            after = i + 6
        elif h == 0xffff and struct.unpack_from('<I', d, i + 2)[0] == ident:
            after = i + 14
        else:
            continue
        k = after + 4 + 4 + 17 + 8
        if begin < struct.unpack_from('<Q', d, k)[0] < end:
            d[k + 7] ^= 0x40
            open(path, 'wb').write(d)
            sys.exit(0)
    at += size // 8
sys.exit('no merged callback found')
PY
	for reader in native babeltrace2; do
		for verb in check "latency callbacks" "latency topics" "report -o $work/damaged.html"; do
			status=0
			# shellcheck disable=SC2086 # the verb's words
			"$bin/caret" $verb --reader "$reader" "$damaged" >/dev/null 2>"$work/err" || status=$?
			if ((status != 1)) || (($(wc -l <"$work/err") != 1)) ||
			   ! grep -q "damaged: a ros2_caret:merged_callback_timing event of process .* has its callback_start_timestamp 146 years after" "$work/err"; then
				echo "FAIL $reader $verb of a damaged stage time: exit $status: $(cat "$work/err")"
				exit 1
			fi
		done
	done
	echo "ok damaged stage time: $(cat "$work/err")"
fi
