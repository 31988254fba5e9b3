#!/usr/bin/env bash
# `make demo`'s script end to end: the pipeline runs with libcaret.so, a
# recording starts while it runs, `caret check` is fine, the callback and
# path latency are printed, and the report shows the five nodes and a
# non-empty end-to-end path. The report, rendered by headless Chromium
# (a screenshot and the DOM), has every section with data points in its
# charts, logs no console error and requests nothing from the network.
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
# Self-contained: no address to fetch anything from.
if grep -Eq "(https?|ftp)://|src=|@import|<link|<script" "$report"; then
	echo "the report refers to something outside itself" >&2
	exit 1
fi

# Headless Chromium, every network request refused and logged (its net
# log), console messages logged.
chrome=(chromium --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$out/profile"
	--proxy-server=127.0.0.1:9 --host-resolver-rules='MAP * ~NOTFOUND'
	--enable-logging=stderr --v=0 --window-size=1400,4000)
"${chrome[@]}" --screenshot="$out/report.png" "file://$report" 2>"$out/screenshot.log" >/dev/null
[[ $(stat -c %s "$out/report.png") -gt 20000 ]]
"${chrome[@]}" --log-net-log="$out/net.json" --dump-dom "file://$report" >"$out/dom.html" \
	2>"$out/chrome.log"
if grep -E 'CONSOLE|Uncaught' "$out/chrome.log" "$out/screenshot.log"; then
	echo "the page logged to the console" >&2
	exit 1
fi
# Requests in Chromium's network log, but for its own services (updates,
# accounts, time): none may come from the page.
requests=$(grep -o '"url":"[^"]*"' "$out/net.json" | sort -u |
	grep -Ev '"url":"https?://([a-z0-9-]+\.)*(google\.com|googleapis\.com|gvt1\.com)[/:"]' || true)
if [[ -n $requests ]]; then
	echo "the page made requests: $requests" >&2
	exit 1
fi
# Every section, each with data points drawn (class "pt") in its charts.
for section in check graph callbacks topics paths; do
	grep -q "<section id=\"$section\">" "$out/dom.html" || { echo "no section $section" >&2; exit 1; }
done
points() { # SECTION: data points drawn in it
	awk -v s="$1" '/<section id="/ { on = index($0, "<section id=\"" s "\"") > 0 }
		on { n += gsub(/class="pt/, "") } END { print n + 0 }' \
		<(sed 's/<section/\n<section/g' "$out/dom.html")
}
for section in graph callbacks topics paths; do
	n=$(points "$section")
	echo "section $section: $n data points"
	((n > 0))
done
echo "report: rendered, $(stat -c %s "$out/report.png") bytes of screenshot"
