#!/usr/bin/env bash
# `make demo` keeps its DDS traffic on this machine: captured on every
# interface while the demo runs (tcpdump -i any), the UDP packets of the
# demo's DDS domain (sent to its ports 7400 + 100 x domain ... + 99: the
# domain gain of scripts/cyclonedds-loopback.xml and fastdds-loopback.xml)
# are all on the loopback interface, between 127.0.0.1 addresses, none
# multicast; and there are such packets (the capture did see the demo).
# (By destination, and never DNS: another program's query from, or its
# answer to, an ephemeral port that falls in the range is not the demo's.)
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
command -v tcpdump >/dev/null || { echo "tcpdump missing: run 'make deps'" >&2; exit 1; }
out=$(mktemp -d)
caret_at_exit "rm -rf '$out'"
domain=${ROS_DOMAIN_ID:?}
low=$((7400 + 100 * domain)) high=$((7400 + 100 * domain + 99))

tcpdump -i any -nn -l -q "udp and dst portrange $low-$high and not port 53" >"$out/capture" 2>"$out/tcpdump.err" &
capture=$!
caret_at_exit "kill $capture 2>/dev/null || true"
for _ in $(seq 50); do grep -q 'listening on' "$out/tcpdump.err" && break; sleep 0.1; done
CARET_DEMO_OUT=$out/demo "$CARET_SOURCE_DIR/scripts/demo.sh" "$CARET_BUILD_DIR" >"$out/stdout" \
	2>"$out/stderr" || { cat "$out/stdout" "$out/stderr"; exit 1; }
sleep 0.5
kill -INT "$capture"
wait "$capture" || true

# Lines: TIME IFACE DIRECTION IP SRC.PORT > DST.PORT: UDP, length N (and
# an empty one when tcpdump stops)
sed -i '/^$/d' "$out/capture"
total=$(wc -l <"$out/capture")
on_lo=$(awk '$2 == "lo"' "$out/capture" | wc -l)
elsewhere=$(awk '$2 != "lo"' "$out/capture")
foreign=$(awk '{ src = $5; dst = $7; sub(/\.[0-9]+$/, "", src); sub(/\.[0-9]+:?$/, "", dst)
	if (src != "127.0.0.1" || dst != "127.0.0.1") print }' "$out/capture")
echo "demo's DDS packets (ports $low-$high): $total captured, $on_lo on lo"
if [[ -n $elsewhere || -n $foreign ]]; then
	echo "DDS packets left the loopback interface or address:" >&2
	printf '%s\n%s\n' "$elsewhere" "$foreign" | head -20 >&2
	exit 1
fi
((on_lo > 0)) || { echo "no DDS packet captured at all: the capture proves nothing" >&2; exit 1; }
