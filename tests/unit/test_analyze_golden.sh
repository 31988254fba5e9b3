#!/usr/bin/env bash
# The analyzer's verbs on the real Humble traces: `caret check`, `caret
# summary nodes|topics|events`, `caret arch` and `caret latency
# callbacks|topics` print exactly the golden
# files (tests/data/golden; check's exit status too), event counts agree
# with an independent count (tb_event_counts), statistics equal numpy's on
# the same instances (stats_vs_numpy.py), and what `caret arch` writes
# passes `caret arch --check`. Bad input, for every verb: exit 1, one line
# on stderr naming the problem, nothing on stdout.
# usage: test_analyze_golden.sh BIN_DIR GOLDEN_DIR SHARED_DIR
set -uo pipefail
bin=$1 golden=$2 shared=$3
caret=$bin/caret
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}

# golden NAME COMMAND...: stdout (and the exit status, for check) as in the file.
golden() {
	local name=$1
	shift
	local out status=0
	out=$("$@" 2>"$work/stderr") || status=$?
	# the trace folders every verb names, wherever the shared data is
	out=${out//"$shared"/SHARED}
	[[ $name == check-* ]] && out+=$'\n'"exit $status"
	if [[ ${UPDATE_GOLDEN:-} == 1 ]]; then
		printf '%s\n' "$out" >"$golden/$name"
	elif ! diff -u "$golden/$name" <(printf '%s\n' "$out"); then
		fail "$name: output differs from the golden file"
	fi
}

arch_file=$golden/../arch/real-sensor-sink.yaml
for trace in caret-fork-inter caret-fork-intra caret-upstream-inter tracetools-fork-inter; do
	path=$shared/data/real-humble/$trace
	golden "summary-events-$trace.csv" "$caret" summary events --format csv "$path"
	golden "summary-nodes-$trace.csv" "$caret" summary nodes --format csv "$path"
	golden "summary-topics-$trace.csv" "$caret" summary topics --format csv "$path"
	golden "check-$trace.txt" "$caret" check "$path"
	golden "arch-$trace.yaml" "$caret" arch "$path"
	golden "latency-callbacks-$trace.csv" "$caret" latency callbacks --format csv "$path"
	golden "latency-topics-$trace.csv" "$caret" latency topics --format csv "$path"
	golden "latency-timers-$trace.csv" "$caret" latency timers --format csv "$path"
	golden "path-search-$trace.txt" "$caret" path search --from /sensor --to /sink "$path"
	golden "path-latency-$trace.csv" "$caret" path latency --nodes /sensor,/filter,/sink \
		--format csv "$path"
	if ! diff <("$caret" path latency --arch "$arch_file" --path sensor_to_sink --format csv "$path" \
		2>/dev/null) "$golden/path-latency-$trace.csv"; then
		fail "$trace: path latency from the architecture file differs from --nodes"
	fi
	# every statistic equal to numpy's on the same instances (linear
	# percentiles, as the original CARET publishes them)
	"$caret" latency callbacks --format csv --records "$work/runs.csv" "$path" >"$work/stats.csv"
	/usr/bin/python3 "$(dirname "$0")/stats_vs_numpy.py" "$work/stats.csv" "$work/runs.csv" \
		callback latency_ns >/dev/null || fail "$trace: callback statistics differ from numpy's"
	"$caret" path latency --nodes /sensor,/filter,/sink --format csv --records "$work/msgs.csv" \
		"$path" >"$work/stats.csv"
	/usr/bin/python3 "$(dirname "$0")/stats_vs_numpy.py" "$work/stats.csv" "$work/msgs.csv" \
		- latency_ns "end to end" >/dev/null || fail "$trace: path statistics differ from numpy's"
	if ! diff <("$bin/tb_event_counts" "$path" | awk '$2 > 0 && $1 ~ /:/ { print $1 "," $2 }') \
		<("$caret" summary events --format csv "$path" | grep ':'); then
		fail "$trace: counts differ from tb_event_counts"
	fi
	"$caret" arch -o "$work/arch.yaml" "$path" || fail "$trace: caret arch -o"
	# the report: every section, the named path's messages drawn
	"$caret" report --arch "$arch_file" --path sensor_to_sink -o "$work/report.html" "$path" \
		>/dev/null || fail "$trace: caret report"
	for section in check graph callbacks topics paths; do
		grep -q "<section id='$section'>" "$work/report.html" ||
			fail "$trace: report lacks section $section"
	done
	grep -q "<h3>sensor_to_sink</h3>" "$work/report.html" || fail "$trace: report lacks the path"
	# check, the verbs and the report say the same about how messages were
	# matched: by time on the plain ros2_tracing trace, and only there
	by_time="matched to their publishes by time"
	"$caret" latency topics "$path" 2>"$work/note" >/dev/null
	"$caret" path latency --nodes /sensor,/filter,/sink "$path" 2>>"$work/note" >/dev/null
	notes=$(grep -c "note: .*$by_time" "$work/note")
	in_report=$(grep -c "Note: .*$by_time" "$work/report.html")
	in_check=$("$caret" check "$path" | grep -c "matched by time instead")
	if [[ $trace == tracetools-* ]]; then
		((notes == 2 && in_report == 1 && in_check == 3)) ||
			fail "$trace: matched by time: $notes verb notes, $in_report in the report, $in_check in check"
	elif ((notes + in_report + in_check)); then
		fail "$trace: says messages were matched by time"
	fi
	"$caret" arch --check "$work/arch.yaml" >/dev/null || fail "$trace: arch --check"
	"$caret" arch --all -o "$work/all.yaml" "$path" && "$caret" arch --check "$work/all.yaml" \
		>/dev/null || fail "$trace: arch --all does not check"
done

# ---- bad traces ----------------------------------------------------------
real=$shared/data/real-humble/caret-fork-intra
stream=ust/uid/0/64-bit
mkdir "$work/empty"
cp -r "$real" "$work/other" # the events renamed: no ROS 2 or CARET event left
chmod -R u+w "$work/other"
perl -pi -e 's/name = "ros2/name = "xos2/g' "$work/other/$stream/metadata"
cp -r "$real" "$work/truncated"
chmod -R u+w "$work/truncated"
size=$(stat -c %s "$work/truncated/$stream/ch0_0")
truncate -s $((size / 2 + 7)) "$work/truncated/$stream/ch0_0"
cp -r "$real" "$work/metadata"
chmod -R u+w "$work/metadata"
perl -pi -e 's/struct event_header_large/strukt evnt_header_large/' "$work/metadata/$stream/metadata"

# bad CASE EXPECTED_TEXT COMMAND...
bad() {
	local case=$1 expect=$2
	shift 2
	local status=0
	"$@" >"$work/out" 2>"$work/err" || status=$?
	if ((status != 1)); then
		fail "$case: exit $status, expected 1"
	elif [[ -s $work/out ]]; then
		fail "$case: wrote to stdout"
	elif [[ $(wc -l <"$work/err") != 1 ]] || ! grep -q -- "$expect" "$work/err"; then
		fail "$case: expected one line with '$expect', got: $(cat "$work/err")"
	fi
}

for verb in check "summary events" "summary nodes" arch "latency callbacks" \
	"path search --from /sensor --to /sink"; do
	# shellcheck disable=SC2086
	{
		bad "$verb: missing path" "path=/nonexistent/trace" "$caret" $verb /nonexistent/trace
		bad "$verb: empty directory" "no CTF trace" "$caret" $verb "$work/empty"
		bad "$verb: no ROS 2 events" "no ROS 2 or CARET events" "$caret" $verb "$work/other"
		bad "$verb: truncated stream" "cannot read trace" "$caret" $verb "$work/truncated"
		bad "$verb: corrupted metadata" "cannot read trace" "$caret" $verb "$work/metadata"
	}
done

# ---- bad architecture files ----------------------------------------------
"$caret" arch -o "$work/good.yaml" "$real"
yaml_case() { # NAME EXPECTED_TEXT SED_SCRIPT
	sed "$3" "$work/good.yaml" >"$work/$1.yaml"
	bad "arch --check $1" "$2" "$caret" arch --check "$work/$1.yaml"
}
yaml_case unknown-key "unknown-key.yaml:[0-9]*: unknown key 'callback_nam' in a callback" \
	's/^  - callback_name:/  - callback_nam:/'
yaml_case missing-key "lacks the key 'executors'" '/^executors:/,/^nodes:/{/^nodes:/!d}'
yaml_case not-a-list "'nodes' of the top level must be a list" 's/^nodes:$/nodes: 3\nzzz:/'
yaml_case bad-type "callback_type 'timer' is none of" 's/callback_type: timer_callback/callback_type: timer/'
yaml_case bad-integer "'period_ns' of a callback must be an integer" 's/period_ns: .*/period_ns: fast/'
yaml_case dangling "callback group '/nowhere' is not in any node" '0,/^  - \/sensor\/callback_group_0/s//  - \/nowhere/'
yaml_case syntax "YAML syntax" 's/^nodes:/nodes: [/'
yaml_case bad-context "context_type 'newest' is none of" 's/context_type: callback_chain/context_type: newest/'
bad "arch --check missing file" "cannot open $work/none.yaml" "$caret" arch --check "$work/none.yaml"
: >"$work/empty.yaml"
bad "arch --check empty file" "empty, expected the keys" "$caret" arch --check "$work/empty.yaml"

# ---- bad reports ----------------------------------------------------------
bad "report: missing path" "path=/nonexistent/trace" "$caret" report -o "$work/r.html" /nonexistent/trace
bad "report: unwritable output" "cannot write /nonexistent/dir/r.html" "$caret" report \
	-o /nonexistent/dir/r.html "$real"
bad "report: unknown named path" "no named path other" "$caret" report --arch "$arch_file" \
	--path other -o "$work/r.html" "$real"
[[ ! -e $work/r.html ]] || fail "report: a failed report left a file"

# ---- bad paths ------------------------------------------------------------
bad "path: unknown node" "no node /nowhere in the trace" "$caret" path search --from /sensor \
	--to /nowhere "$real"
bad "path: no topic between" "no topic from /sink to /sensor" "$caret" path latency \
	--nodes /sink,/sensor "$real"
bad "path: unknown named path" "no named path other" "$caret" path latency \
	--arch "$arch_file" --path other "$real"
# a bound that cuts the search says so
"$caret" path search --from /sensor --to /sink --max-depth 1 "$real" >"$work/out"
grep -q "paths longer than 1 topic were not searched (--max-depth)" "$work/out" ||
	fail "path search: --max-depth cut not reported"

# ---- usage errors: exit 2 ------------------------------------------------
for args in "check" "summary" "summary bogus $real" "summary events --format xml $real" "arch" \
	"arch --check" "latency" "latency paths $real" "latency topics --format yaml $real" \
	"path" "path find $real" "path search --from /sensor $real" \
	"path search --from /sensor --to /sink --max-depth 0 $real" "path latency --nodes /sensor $real" \
	"path latency --nodes /sensor,/sink --policy newest $real" "report $real" \
	"report -o $work/r.html --path x $real"; do
	# shellcheck disable=SC2086
	"$caret" $args >/dev/null 2>&1
	status=$?
	((status == 2)) || fail "caret $args: exit $status, expected 2"
done

echo "$failures failures"
((failures == 0))
