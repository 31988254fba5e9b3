#!/usr/bin/env bash
# Events lost by LTTng are reported, not hidden: a flood of events into the
# smallest buffers discards some; `caret check` exits 1 with one error per
# stream that lost events, and their sum equals the discarded count of
# `caret summary events` and of an independent walk (tb_event_counts); the
# native CTF reader decodes the same events and losses as babeltrace2, and
# on damaged copies of the trace ends as babeltrace2 does, after the same
# events.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
caret_lttng_require
caret_lttng_ensure_daemon
CARET_SUBBUF_SIZE=4k CARET_NUM_SUBBUF=2 caret_lttng_start caret-test-discarded 'ros2:*' 'ros2_caret:*'
LD_PRELOAD=$CARET_BUILD_DIR/lib/libcaret.so CARET_MERGE=0 caret_in_test_group \
	"$bin/bench_tracer" 200000 >/dev/null
caret_lttng_stop

walk=$({ "$bin/tb_event_counts" "$CARET_TRACE_DIR" 2>/dev/null || true; } | awk '/^total/ { print $(NF - 1) }')
summary=$("$bin/caret" summary events --format csv "$CARET_TRACE_DIR" | awk -F, '$1 == "discarded" { print $2 }')
status=0
"$bin/caret" check "$CARET_TRACE_DIR" >"$CARET_TRACE_DIR.check" || status=$?
caret_at_exit "rm -f '$CARET_TRACE_DIR.check'"
grep discarded "$CARET_TRACE_DIR.check"
per_stream=$(sed -n 's/^  error: \([0-9]*\) events discarded by LTTng in stream .*/\1/p' \
	"$CARET_TRACE_DIR.check" | awk '{ s += $1 } END { print s + 0 }')
echo "discarded: walk $walk, summary $summary, check $per_stream (exit $status)"
# the native CTF reader finds the same events and the same losses
export CARET_READER_THREADS=2 # the reader as on a large trace: in a second thread
"$bin/ctf_reader_diff" "$CARET_TRACE_DIR"
"$bin/tables_diff" "$CARET_TRACE_DIR"
"$bin/lean_diff" "$CARET_TRACE_DIR"
# a packet cut out of the middle of its largest stream (LTTng's packet
# layout: packet_size 56 bytes in): both readers report one packet lost,
# and so does caret check
cp -r "$CARET_TRACE_DIR" "$CARET_TRACE_DIR.gap"
caret_at_exit "rm -rf '$CARET_TRACE_DIR.gap'"
rm -rf "$CARET_TRACE_DIR.gap"/ust/uid/*/64-bit/index
/usr/bin/python3 - "$(ls -S "$CARET_TRACE_DIR.gap"/ust/uid/*/64-bit/caret_* | head -1)" <<'PY'
import struct, sys
path = sys.argv[1]
data = open(path, 'rb').read()
packets, at = [], 0
while at < len(data):
    size = struct.unpack_from('<Q', data, at + 56)[0] // 8
    packets.append((at, size))
    at += size
at, size = packets[len(packets) // 2]
open(path, 'wb').write(data[:at] + data[at + size:])
PY
"$bin/ctf_reader_diff" "$CARET_TRACE_DIR.gap" | tee "$CARET_TRACE_DIR.gap.out"
grep -q ', 1 packets lost, the same' "$CARET_TRACE_DIR.gap.out"
caret_at_exit "rm -f '$CARET_TRACE_DIR.gap.out'"
for reader in native babeltrace2; do
	"$bin/caret" check --reader "$reader" "$CARET_TRACE_DIR.gap" >"$CARET_TRACE_DIR.gap.out" || true
	grep -q '1 packet lost from stream' "$CARET_TRACE_DIR.gap.out" ||
		{ echo "FAIL: caret check --reader $reader does not report the lost packet"; exit 1; }
done

# damaged copies of this trace of many packets: both readers agree, and
# both loads of the analyzer
bash "$CARET_SOURCE_DIR/tests/unit/damaged_copies.sh" "$bin/ctf_reader_diff" "$CARET_TRACE_DIR" 1 12 \
	"$bin/lean_diff"
((walk > 0 && summary == walk && per_stream == walk && status == 1))
