#!/usr/bin/env bash
# The native CTF reader on damaged copies of a real trace, next to
# babeltrace2 (ctf_reader_diff --damaged): a stream cut in the middle of a
# packet is a 'truncated' error of both; in 40 copies with random bits
# flipped in a stream or in the metadata, both readers give the same events
# and end the same way, result or one-line error, never a crash (the ASan
# build runs this too); hostile metadata (types nested 100 deep, an
# alignment of 3 bits, events that take no bytes, a sequence of empty
# elements) ends in an error, never a crash or a hang.
# The analyzer's loads (lean_diff --damaged) end alike on each copy.
# usage: test_ctf_native_damaged.sh CTF_READER_DIFF TRACE LEAN_DIFF
set -euo pipefail
diff_tool=$1 trace=$2 lean_tool=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$trace" "$work/t"
chmod -R u+w "$work/t"
dir=$(dirname "$(find "$work/t" -name metadata | head -1)")
stream=$dir/ch0_0

size=$(stat -c %s "$stream")
truncate -s $((size / 2 + 13)) "$stream"
status=0
"$diff_tool" --damaged "$work/t" >"$work/out" 2>&1 || status=$?
cat "$work/out"
((status == 0)) && grep -q "native .*truncated" "$work/out" ||
	{ echo "FAIL: a cut stream should be a 'truncated' error of both readers"; exit 1; }

crashes=0
bash "$(dirname "$0")/damaged_copies.sh" "$diff_tool" "$trace" 1 40 "$lean_tool" ||
	crashes=$((crashes + 1))

# hostile metadata, as plain text, over a stream of one LTTng-framed packet
# of 128 bytes (64 of header and context, then zeros)
# hostile NAME EXPECTED TSDL: the native reader ends with EXPECTED, exit 2
hostile() {
	local name=$1 expected=$2 status=0
	rm -rf "$work/h"
	mkdir -p "$work/h"
	printf '/* CTF 1.8 */\n%s\n' "$3" >"$work/h/metadata"
	/usr/bin/python3 -c 'import struct, sys
sys.stdout.buffer.write(struct.pack("<I16sIQQQQQ", 0xC1FC1FC1, bytes(16), 0, 0, 0, 0, 1024, 1024) + b"\x01" * 64)' >"$work/h/stream_0"
	timeout 20 "$diff_tool" --native-only "$work/h" >"$work/out" 2>&1 || status=$?
	if ((status == 2)) && grep -q -- "$expected" "$work/out"; then
		echo "ok $name: $(cat "$work/out")"
	else
		echo "FAIL $name: exit $status (124: hung): $(head -c 300 "$work/out")"
		crashes=$((crashes + 1))
	fi
}
base='typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
trace { major = 1; minor = 8; byte_order = le; packet.header := struct { uint32_t magic;
	uint8_t uuid[16]; uint32_t stream_id; uint64_t stream_instance_id; }; };
struct packet_context { uint64_t timestamp_begin; uint64_t timestamp_end;
	uint64_t content_size; uint64_t packet_size; };'
nested=$(for i in $(seq 100); do printf 'struct { '; done; printf 'uint32_t x;'; for i in $(seq 100); do printf ' } f%d;' "$i"; done)
hostile "nesting" "nested more than 32 deep" "$base
stream { id = 0; packet.context := struct packet_context; event.header := struct { }; };
event { name = \"e\"; id = 0; stream_id = 0; fields := struct { $nested }; };"
hostile "alignment" "unsupported alignment 3" "$base
stream { id = 0; packet.context := struct packet_context; event.header := struct { } align(3); };"
hostile "events of no size" "an event of no size" "$base
stream { id = 0; packet.context := struct packet_context; event.header := struct { }; };
event { name = \"e\"; id = 0; stream_id = 0; fields := struct { }; };"
hostile "sequence of empty elements" "an array of empty elements" "$base
stream { id = 0; packet.context := struct packet_context; event.header := struct { }; };
event { name = \"e\"; id = 0; stream_id = 0; fields := struct { uint32_t n; struct { } x[n]; }; };"
((crashes == 0))
