#!/usr/bin/env bash
# A name that is not in the trace (issue 44, item 6): every verb that takes
# node, topic or path names says, in one line and with exit 1, the nearest
# names ("did you mean") and, as there are few, the names there are (the
# user's nodes, not the tracer's own): caret path latency --nodes, caret path
# search --from/--to, an architecture file's path whose node or topic the
# trace lacks (path latency, report, export), --path NAME of --arch, and a
# deadline naming no path.
# usage: test_cli_names.sh BIN_DIR SHARED_DIR SOURCE_DIR
set -uo pipefail
caret=$1/caret shared=$2 src=$3
trace=$shared/data/real-humble/caret-fork-inter
arch=$src/tests/data/arch/real-sensor-sink.yaml
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}
# says STATUS TEXT CASE COMMAND...: exits STATUS with one line on stderr
# holding TEXT
says() {
	local want=$1 text=$2 case=$3 status=0 before=$failures
	shift 3
	"$@" >"$work/out" 2>"$work/err" || status=$?
	((status == want)) || fail "$case: exit $status, expected $want"
	grep -qF -- "$text" "$work/err" || fail "$case: no '$text' in: $(head -c 400 "$work/err")"
	(($(grep -c . "$work/err") == 1)) || fail "$case: not one line: $(cat "$work/err")"
	grep -q caret_trace_ "$work/err" && fail "$case: the tracer's own nodes offered"
	((failures > before)) || echo "ok $case: $(cat "$work/err")"
}
nodes="its nodes: /filter, /sensor, /sink"

says 1 "no node /filtr in the trace (did you mean /filter? $nodes)" "path latency --nodes" \
	"$caret" path latency --nodes /sensor,/filtr,/sink "$trace"
says 1 "no node filter in the trace (did you mean /filter? $nodes)" "a name without its /" \
	"$caret" path latency --nodes /sensor,filter "$trace"
says 1 "no node /sensr in the trace (did you mean /sensor? $nodes)" "path search --from" \
	"$caret" path search --from /sensr --to /sink "$trace"
says 1 "no node /planner in the trace ($nodes)" "path search --to, nothing close" \
	"$caret" path search --from /sensor --to /planner "$trace"

# an architecture file's path through a node, or on a topic, the trace lacks
sed 's|/filter\b|/filtr|g' "$arch" >"$work/node.yaml"
sed 's|/topic_a\b|/topic_x|g' "$arch" >"$work/topic.yaml"
says 1 "no node /filtr in the trace (did you mean /filter? $nodes)" "path latency --arch" \
	"$caret" path latency --arch "$work/node.yaml" --path sensor_to_sink "$trace"
says 1 "no topic /topic_x in the trace (did you mean /topic_a or /topic_b? its topics: /topic_a, /topic_b)" \
	"path latency --arch, a topic" \
	"$caret" path latency --arch "$work/topic.yaml" --path sensor_to_sink "$trace"
says 1 "no node /filtr in the trace (did you mean /filter? $nodes)" "export --arch" \
	"$caret" export --format chrome-trace -o "$work/out.json" --arch "$work/node.yaml" \
	--path sensor_to_sink "$trace"

# a named path the file does not have
named="(did you mean sensor_to_sink? its named paths: sensor_to_sink)"
says 1 "no named path sensor_to_snk $named" "path latency --path" \
	"$caret" path latency --arch "$arch" --path sensor_to_snk "$trace"
says 1 "no named path sensr_to_sink $named" "report --path" \
	"$caret" report -o "$work/r.html" --arch "$arch" --path sensr_to_sink "$trace"
{ cat "$arch"; printf 'deadlines:\n- path_name: sensor_to_snk\n  deadline: 50ms\n'; } \
	>"$work/deadline.yaml"
says 1 "deadline of 'sensor_to_snk': no named path of that name $named" "a deadline's path" \
	"$caret" arch --check "$work/deadline.yaml"

echo "$failures failures"
((failures == 0))
