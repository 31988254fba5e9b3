#!/usr/bin/env bash
# caret check --requirements on the real Humble trace caret-fork-inter
# (shared/data/real-humble): requirements that hold exit 0; a violated one
# exits 3 with its measured value, its bound and its worst instances, which
# are those of caret path latency --records and caret latency callbacks
# --records; a path through a node the trace does not have, or a callback
# it does not have, exits 1 with the nearest names (3 when another is
# violated); the JUnit XML parsed (python3 xml.etree): one test case per
# bound, the failures' and errors' counts, the worst instances in the
# failure's text, names with XML's special characters intact; the example
# of docs/requirements.md as it is printed there; usage errors.
set -euo pipefail
caret=$CARET_BUILD_DIR/bin/caret
trace=$CARET_SHARED_DIR/data/real-humble/caret-fork-inter
arch=$CARET_SOURCE_DIR/tests/data/arch/real-sensor-sink.yaml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}
# requirements NAME ENTRIES...: the arch file with these deadlines: entries
requirements() {
	local file=$work/$1.yaml
	shift
	{ cat "$arch"; echo "deadlines:"; printf '%s\n' "$@"; } >"$file"
}
# run EXPECTED NAME [JUNIT]: caret check --requirements, stdout in NAME.out
run() {
	local want=$1 name=$2 status=0
	shift 2
	"$caret" check --requirements "$work/$name.yaml" "$@" "$trace" >"$work/$name.out" \
		2>"$work/$name.err" || status=$?
	cat "$work/$name.out" "$work/$name.err"
	((status == want)) || fail "$name: exit $status, expected $want"
}
has() { # NAME TEXT
	grep -qF -- "$2" "$work/$1.out" || fail "$1: no '$2' in its output"
}
# junit FILE PYTHON: the XML parsed, then PYTHON run on its root (suite)
junit() {
	/usr/bin/python3 - "$1" <<PY || fail "JUnit XML $1"
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot()
assert suite.tag == 'testsuite', suite.tag
cases = suite.findall('testcase')
assert int(suite.get('tests')) == len(cases), (suite.get('tests'), len(cases))
def case(cls, name):
    found = [c for c in cases if c.get('classname') == cls and c.get('name') == name]
    assert len(found) == 1, (cls, name, [(c.get('classname'), c.get('name')) for c in cases])
    return found[0]
$2
PY
}

# the truth: every instance of the path and every run of /filter's callback
"$caret" path latency --arch "$arch" --path sensor_to_sink --records "$work/path.csv" "$trace" \
	>/dev/null
"$caret" latency callbacks --records "$work/runs.csv" "$trace" >/dev/null
read -r worst_start worst_ns over_700 < <(awk -F, 'NR > 1 && $7 != "" {
	if ($7 + 0 > max) { max = $7 + 0; at = $5 } if ($7 + 0 > 700000) over++ }
	END { print at, max, over }' "$work/path.csv")
read -r cb_start cb_ns < <(awk -F, '$1 == "/filter/callback_0" && $6 + 0 > max {
	max = $6 + 0; at = $4 } END { print at, max }' "$work/runs.csv")
echo "path: the worst $worst_ns ns at $worst_start, $over_700 over 700 us; /filter/callback_0's" \
	"worst run $cb_ns ns at $cb_start"

echo "== requirements that hold: exit 0"
requirements pass "- path_name: sensor_to_sink" "  deadline: 2ms" "  p99: 1.5ms" "  max: 2ms" \
	"- callback_name: /filter/callback_0" "  deadline: 1ms" "  miss_ratio: 0" \
	"- callback_name: /sink/callback_0" "  p99: 100us"
"$caret" arch --check "$work/pass.yaml"
run 0 pass --junit "$work/pass.xml"
has pass "PASS path sensor_to_sink: deadline 2 ms: 0 of 50 instances over 2.000 ms"
has pass "PASS callback /sink/callback_0: p99 <= 100 us"
has pass "result: 5 passed, 0 failed, 0 not judged"
junit "$work/pass.xml" "
assert suite.get('failures') == '0' and suite.get('errors') == '0'
case('sensor_to_sink', 'deadline 2 ms'); case('sensor_to_sink', 'p99 <= 1.5 ms')
case('sensor_to_sink', 'max <= 2 ms'); case('/filter/callback_0', 'deadline 1 ms, misses <= 0%')
case('/sink/callback_0', 'p99 <= 100 us')
assert all(not list(c) for c in cases)"

echo "== violated: exit 3, measured against the bound, the worst instances"
requirements violated "- path_name: sensor_to_sink" "  deadline: 700us" "  max: 900us" \
	"- callback_name: /filter/callback_0" "  max: 250us"
run 3 violated --junit "$work/violated.xml"
has violated "FAIL path sensor_to_sink: deadline 700 us: $over_700 of 50 instances over 0.700 ms"
has violated "$(printf '%.3f ms at %s ns' "$(bc -l <<<"$worst_ns / 1000000")" "$worst_start")"
has violated "FAIL callback /filter/callback_0: max <= 250 us: max $(printf '%.3f' \
	"$(bc -l <<<"$cb_ns / 1000000")") ms"
has violated "result: 0 passed, 3 failed, 0 not judged"
junit "$work/violated.xml" "
assert suite.get('failures') == '3' and suite.get('errors') == '0'
f = case('sensor_to_sink', 'max <= 900 us').find('failure')
assert f is not None and 'bound 0.900 ms' in f.get('message'), f
assert '$worst_start $worst_ns' in f.text, f.text
f = case('/filter/callback_0', 'max <= 250 us').find('failure')
assert '$cb_start $cb_ns' in f.text, f.text
f = case('sensor_to_sink', 'deadline 700 us').find('failure')
assert '$over_700 of 50 instances' in f.get('message'), f.get('message')"
# the share allowed over the deadline
requirements allowed "- path_name: sensor_to_sink" "  deadline: 700us" "  miss_ratio: 20%"
run 0 allowed
requirements tight "- path_name: sensor_to_sink" "  deadline: 700us" "  miss_ratio: 0.01"
run 3 tight

echo "== not in the trace: exit 1 with the nearest names; 3 when another is violated"
sed 's|/filter|/filtr|' "$arch" >"$work/typo-arch.yaml"
{ cat "$work/typo-arch.yaml"; printf '%s\n' "deadlines:" "- path_name: sensor_to_sink" \
	"  deadline: 1ms" "  p99: 1ms"; } >"$work/missing-path.yaml"
run 1 missing-path --junit "$work/missing-path.xml"
has missing-path "MISSING path sensor_to_sink: no node /filtr in the trace (did you mean /filter?"
junit "$work/missing-path.xml" "
assert suite.get('errors') == '2' and suite.get('failures') == '0', suite.attrib
e = case('sensor_to_sink', 'p99 <= 1 ms').find('error')
assert 'did you mean /filter?' in e.get('message'), e.attrib"
requirements missing-cb "- callback_name: /sink/callback_7" "  max: 1ms"
run 1 missing-cb
has missing-cb "MISSING callback /sink/callback_7: no callback /sink/callback_7 in the trace (did you mean /sink/callback_0"
requirements missing-and-violated "- callback_name: /sink/callback_7" "  max: 1ms" \
	"- path_name: sensor_to_sink" "  max: 100us"
run 3 missing-and-violated

echo "== names with XML's characters: the XML stays valid, the names intact"
/usr/bin/python3 - "$arch" "$work/odd.yaml" <<'PY'
import sys
name = 'path_name: "a<b>&c\'\\"d"'  # YAML: a<b>&c'"d
text = open(sys.argv[1]).read().replace('path_name: sensor_to_sink', name)
open(sys.argv[2], 'w').write(text + 'deadlines:\n- ' + name + '\n  max: 100us\n')
PY
run 3 odd --junit "$work/odd.xml"
junit "$work/odd.xml" "
f = case('a<b>&c\'\"d', 'max <= 100 us').find('failure')
assert f is not None"

echo "== more paths than ride along the load's pass (8): each judged, the same"
/usr/bin/python3 - "$arch" "$work/many.yaml" <<'PY'
import sys
base = open(sys.argv[1]).read()
chain = base[base.index('- path_name: sensor_to_sink'):base.index('executors:')]
text = base.replace(chain, ''.join(chain.replace('sensor_to_sink', f'p{i}') for i in range(10)))
open(sys.argv[2], 'w').write(text + 'deadlines:\n' +
                              ''.join(f'- path_name: p{i}\n  max: 900us\n' for i in range(10)))
PY
run 3 many
(($(grep -c "^FAIL path p[0-9]: max <= 900 us: max $(printf '%.3f' \
	"$(bc -l <<<"$worst_ns / 1000000")") ms" "$work/many.out") == 10)) ||
	fail "not every one of 10 paths judged as the one"

echo "== the example of docs/requirements.md, as it prints it and as its JUnit XML"
example=$CARET_SOURCE_DIR/tests/data/arch/real-sensor-sink-requirements.yaml
doc=$CARET_SOURCE_DIR/docs/requirements.md
status=0
"$caret" check --requirements "$example" --junit "$work/example.xml" "$trace" \
	>"$work/example.out" || status=$?
((status == 3)) || fail "the example: exit $status, not 3"
sed -n '/^\$ caret check --requirements real-sensor-sink-requirements.yaml/,/^```$/p' "$doc" |
	sed '1d;$d' | sed "s|/home/me/traces/caret-fork-inter|$trace|" >"$work/example.doc"
diff "$work/example.doc" "$work/example.out" || fail "docs/requirements.md's example differs"
sed -n '/^```xml$/,/^```$/p' "$doc" | sed '1d;$d' >"$work/example-xml.doc"
sed "s|$example|real-sensor-sink-requirements.yaml|" "$work/example.xml" |
	diff "$work/example-xml.doc" - || fail "docs/requirements.md's JUnit XML differs"

echo "== usage and bad files"
status=0
"$caret" check --junit "$work/x.xml" "$trace" >/dev/null 2>"$work/usage.err" || status=$?
((status == 2)) && grep -qF -- "--junit goes with --requirements FILE" "$work/usage.err" ||
	fail "--junit alone: exit $status"
requirements bad "- path_name: sensor_to_sink" "  p99: 40"
run 1 bad
grep -qF "bad.yaml:20: p99 '40' of 'sensor_to_sink' is not a duration" "$work/bad.err" ||
	fail "the bad file's line and reason"
cp "$arch" "$work/none.yaml"
run 1 none
grep -qF "has no deadlines: key" "$work/none.err" || fail "a file without requirements"
status=0
"$caret" check --requirements "$work/pass.yaml" --junit /nonexistent/dir/x.xml "$trace" \
	>/dev/null 2>"$work/unwritable.err" || status=$?
((status == 1)) && grep -qF "cannot write /nonexistent/dir/x.xml" "$work/unwritable.err" ||
	fail "an unwritable --junit: exit $status"
echo "ok"
