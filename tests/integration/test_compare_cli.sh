#!/usr/bin/env bash
# caret compare's command line on the real Humble traces of the pipeline
# (shared/data/real-humble: /sensor -> /filter -> /sink recorded four ways):
# each side's numbers are those of caret latency and caret path latency on
# the same trace; a trace against itself is no change everywhere; objects
# of one side only are listed as such; text, CSV and JSON say the same;
# the same seed gives the same intervals; --fail-on fires (exit 3, a line
# each on stderr) or not (0); bad rules and options exit 2 saying what is
# wrong; an unreadable side or no object in common exit 1.
set -euo pipefail
caret=$CARET_BUILD_DIR/bin/caret
shared=$CARET_SHARED_DIR/data/real-humble
arch=$CARET_SOURCE_DIR/tests/data/arch/real-sensor-sink.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inter=$shared/caret-fork-inter plain=$shared/tracetools-fork-inter intra=$shared/caret-fork-intra
fail() { echo "FAIL: $*" >&2; exit 1; }

expect_status() { # STATUS COMMAND...: runs it, its stdout in $work/out, stderr in $work/err
	local want=$1 status=0
	shift
	"$@" >"$work/out" 2>"$work/err" || status=$?
	((status == want)) || { cat "$work/err" >&2; fail "exit $status, not $want: $*"; }
}

echo "== each side's numbers are the verbs' own"
expect_status 0 "$caret" compare --all --arch "$arch" --format csv "$inter" "$plain"
cp "$work/out" "$work/cmp.csv"
expect_status 0 "$caret" compare --arch "$arch" --format csv "$inter" "$plain"
cp "$work/out" "$work/cmp-default.csv"
"$caret" latency callbacks --format csv "$inter" >"$work/callbacks.csv"
"$caret" latency topics --format csv "$inter" >"$work/topics.csv"
"$caret" latency nodes --format csv "$inter" >"$work/nodes.csv"
"$caret" path latency --arch "$arch" --path sensor_to_sink --format csv "$inter" >"$work/path.csv"
/usr/bin/python3 - "$work" <<'EOF'
import csv, sys
w = sys.argv[1]
rows = {(r["kind"], r["name"]): r for r in csv.DictReader(open(f"{w}/cmp.csv"))}
def same(key, count, p50, p99):
    r = rows.get(key)
    assert r, f"no row {key}"
    got = (int(r["base_count"]), float(r["base_p50_ns"]), float(r["base_p99_ns"]))
    want = (int(count), float(p50), float(p99))
    assert got == want, f"{key}: compare says {got}, the verb {want}"
n = 0
for r in csv.DictReader(open(f"{w}/callbacks.csv")):
    if r["count"] != "0":
        same(("callback", r["callback"]), r["count"], r["p50_ns"], r["p99_ns"]); n += 1
for r in csv.DictReader(open(f"{w}/topics.csv")):
    if r["count"] != "0":
        same(("topic", f'{r["topic"]} {r["delivery"]}'), r["count"], r["p50_ns"], r["p99_ns"]); n += 1
for r in csv.DictReader(open(f"{w}/nodes.csv")):
    same(("node", f'{r["callback"]} {r["subscribe_topic"]} -> {r["publish_topic"]}'), r["count"],
         r["p50_ns"], r["p99_ns"]); n += 1
e2e = next(r for r in csv.DictReader(open(f"{w}/path.csv")) if r["hop"] == "end to end")
same(("path", "sensor_to_sink"), e2e["count"], e2e["p50_ns"], e2e["p99_ns"]); n += 1
measured = [k for k, r in rows.items() if r["base_count"] != "0"]
assert n == len(measured), f"{n} rows of the verbs, {len(measured)} of compare"
# without --all: ROS 2's and the tracer's own objects left out
default = [(r["kind"], r["name"]) for r in csv.DictReader(open(f"{w}/cmp-default.csv"))]
hidden = [k for k in default if "ignored_callback" in k[1] or k[1].startswith(("/rosout", "/parameter_events"))]
assert not hidden and len(default) == 7, default
print(f"ok: {n} objects, each side's count, p50 and p99 those of caret latency / path latency")
EOF

echo "== a named path neither side has: said, the rest compared"
{ sed 's/^executors:/- path_name: ghost\n  node_chain:\n  - node_name: \/sensor\n    publish_topic_name: \/topic_a\n  - node_name: \/planner\n    subscribe_topic_name: \/topic_a\nexecutors:/' \
	"$arch"; echo "- node_name: /planner"; } >"$work/ghost.yaml"
expect_status 0 "$caret" compare --arch "$work/ghost.yaml" "$inter" "$plain"
grep -q "^caret compare: note: the path ghost of $work/ghost.yaml was followed in neither side" \
	"$work/err" || fail "no note of the path not followed: $(cat "$work/err")"
grep -qE '^no change +path sensor_to_sink ' "$work/out" || fail "sensor_to_sink not compared"

echo "== a trace against itself: no change, p 1"
expect_status 0 "$caret" compare --arch "$arch" --format json "$inter" "$inter"
/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rows"] and all(r["verdict"] == "no change" and r["p"] == 1 and r["change"]["p50"]["ns"] == 0
    for r in d["rows"]), d["rows"]
assert d["settings"]["alpha"] == 0.01 and d["settings"]["correction"] == "holm"
assert d["settings"]["seed"] == 46 and d["settings"]["tests"] == len(d["rows"])
print("ok:", len(d["rows"]), "objects, no change")' "$work/out"

echo "== one side only, and the text's order"
expect_status 0 "$caret" compare "$inter" "$intra"
grep -qE '^base only +topic /topic_a inter ' "$work/out" || { cat "$work/out"; fail "no base only row"; }
grep -qE '^new only +topic /topic_a intra ' "$work/out" || { cat "$work/out"; fail "no new only row"; }
# slower, faster, no change, too few, base only, new only: never back
awk 'NR > 5 { split("slower faster no too base new", order, " ")
	for (i = 1; i <= 6; i++) if (index($0, order[i]) == 1) rank = i
	if (rank < last) { print "out of order: " $0; exit 1 } last = rank }' "$work/out"
expect_status 0 "$caret" compare --format csv "$inter" "$intra"
[[ $(grep -c '^base only,topic,"/topic_a inter"' "$work/out") == 1 ]] || fail "CSV: no base only row"
# the CSV one table; the folders said on stderr, as the other verbs say them
grep -qx "caret compare: base: $inter" "$work/err" && grep -qx "caret compare: new: $intra" "$work/err" ||
	fail "CSV: the folders not on stderr: $(cat "$work/err")"
[[ $(head -c 8 "$work/out") == verdict, ]] || fail "CSV: not its header first"
expect_status 0 "$caret" compare --format json "$inter" "$intra"
/usr/bin/python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
only = [r for r in rows if r["verdict"] == "new only"]
assert only and all(r["base"] is None and r["change"]["p50"]["ns"] is None for r in only), only
print("ok:", len(only), "new only in JSON")' "$work/out"

echo "== the same seed, the same intervals; another seed, others"
"$caret" compare --format csv --seed 7 "$inter" "$plain" >"$work/seed7a"
"$caret" compare --format csv --seed 7 "$inter" "$plain" >"$work/seed7b"
"$caret" compare --format csv --seed 8 "$inter" "$plain" >"$work/seed8"
cmp -s "$work/seed7a" "$work/seed7b" || fail "--seed 7 twice gave two answers"
! cmp -s "$work/seed7a" "$work/seed8" || fail "--seed 7 and 8 gave the same intervals"

echo "== two runs a side, pooled"
expect_status 0 "$caret" compare --base "$inter" --base "$plain" --new "$shared/caret-upstream-inter" \
	--new "$plain" --format csv
awk -F, 'NR > 1 && $3 == "\"/sensor/callback_0\"" { exit !($4 == 100 && $11 == 100) }' "$work/out" ||
	{ cat "$work/out"; fail "the pooled sides do not hold both runs' 50 runs each"; }
expect_status 0 "$caret" compare --base "$inter" --base "$plain" --new "$plain" "--kinds=callbacks"
grep -q '^base: .*, .* (2 runs, pooled)$' "$work/out" || fail "the text does not say the runs pooled"

echo "== --fail-on"
expect_status 3 "$caret" compare --arch "$arch" --fail-on 'path:sensor_* p50 +1%' \
	--fail-on 'callback:/nothing/* mean +1us' "$inter" "$plain"
grep -q "^caret compare: --fail-on 'path:sensor_\* p50 +1%' fired: path sensor_to_sink: p50 590.4 us -> 668.1 us" \
	"$work/err" || { cat "$work/err"; fail "the firing is not said"; }
[[ $(grep -c 'fired:' "$work/err") == 1 ]] || fail "more than the one firing"
expect_status 0 "$caret" compare --arch "$arch" --fail-on 'path:* p50 +50%' --fail-on \
	'callback:* count -10' "$inter" "$plain"
# a fall: the intra-process trace's callbacks are faster
expect_status 3 "$caret" compare --fail-on 'callback:/filter/* p50 -50%' "$inter" "$intra"

echo "== usage errors (2)"
for rule in 'path p99 +10%' 'hop:* p99 +10%' 'path:* p98 +10%' 'path:* p99 10%' \
	'path:* p99 +10' 'path:* p99 +10xs' 'path:*' 'path:* p99 +10% more' 'path:* p99 +-5%' \
	'callback:* count +1.5'; do
	expect_status 2 "$caret" compare --fail-on "$rule" "$inter" "$plain"
	grep -q "^caret compare: --fail-on '.*': " "$work/err" || fail "rule '$rule': $(cat "$work/err")"
	[[ $(wc -l <"$work/err") == 1 ]] || fail "rule '$rule': more than one line"
done
expect_status 2 "$caret" compare "$inter"
expect_status 2 "$caret" compare "$inter" "$plain" "$intra"
expect_status 2 "$caret" compare --base "$inter" "$plain" "$intra"
expect_status 2 "$caret" compare --alpha 0 "$inter" "$plain"
expect_status 2 "$caret" compare --min-change 5%,20 "$inter" "$plain"
expect_status 2 "$caret" compare --kinds hops "$inter" "$plain"
expect_status 2 "$caret" compare --kinds paths "$inter" "$plain"
expect_status 2 "$caret" compare --correction sidak "$inter" "$plain"
expect_status 0 "$caret" compare --help
grep -q -- '--fail-on RULE' "$work/out" || fail "--help says no --fail-on"

echo "== a side unreadable, nothing in common (1)"
expect_status 1 "$caret" compare "$work/none" "$plain"
grep -q "^caret compare: BASE $work/none: cannot read trace" "$work/err" || fail "$(cat "$work/err")"
expect_status 1 "$caret" compare --kinds topics "$inter" "$intra"
grep -q "no object in common" "$work/err" || fail "$(cat "$work/err")"
[[ $(wc -l <"$work/err") == 1 ]] || fail "more than one line: $(cat "$work/err")"
echo "ok"
