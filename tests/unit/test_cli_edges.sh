#!/usr/bin/env bash
# What a first user meets (issue 32, items 5 and 7), each case failing
# before its fix: several recordings under a path refused unless --merge,
# and every verb naming the trace folders it read; a sub-verb's mistakes
# blamed on the sub-verb; a time window outside the trace refused; wrong
# --since/--until values said as such; report --arch without --path;
# statistics of nothing empty; frequencies under a second; caret arch on a
# plain ros2_tracing trace; unknown named paths and unlinked --nodes
# pointing to what exists; counts with their noun's number; docs/cli.md
# naming every sub-verb and option --help names.
# usage: test_cli_edges.sh BIN_DIR SHARED_DIR SOURCE_DIR
set -uo pipefail
caret=$1/caret shared=$2 src=$3
real=$shared/data/real-humble/caret-fork-inter
plain=$shared/data/real-humble/tracetools-fork-inter
arch=$src/tests/data/arch/real-sensor-sink.yaml
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}
# run EXPECTED_STATUS COMMAND...: stdout in $work/out, stderr in $work/err
run() {
	local want=$1 status=0
	shift
	"$@" >"$work/out" 2>"$work/err" || status=$?
	((status == want)) || fail "$*: exit $status, expected $want: $(head -c 300 "$work/err")"
}
has() { # FILE TEXT CASE
	grep -qF -- "$2" "$1" || fail "$3: no '$2' in: $(head -c 400 "$1")"
}

# ---- item 5: recordings --------------------------------------------------
# two sessions (as lttng and caret record lay them out), and one session
# with per-pid buffers (two trace directories, one recording)
# (two real traces: copies of one would be refused as one read twice)
other=$shared/data/real-humble/caret-upstream-inter
for run in run1 run2; do
	mkdir -p "$work/traces/$run/ust/uid/0"
	from=$real && [[ $run == run2 ]] && from=$other
	cp -r "$from/ust/uid/0/64-bit" "$work/traces/$run/ust/uid/0/"
done
for proc in sensor-1-20261127-101010 sink-2-20261127-101010; do
	mkdir -p "$work/perpid/ust/pid"
	from=$real && [[ $proc == sink* ]] && from=$other
	cp -r "$from/ust/uid/0/64-bit" "$work/perpid/ust/pid/$proc"
done
chmod -R u+w "$work"
run 1 "$caret" check "$work/traces"
has "$work/err" "holds 2 separate recordings: $work/traces/run1, $work/traces/run2" recordings
has "$work/err" "--merge" recordings
[[ -s $work/out ]] && fail "recordings refused: wrote to stdout"
run 1 "$caret" summary nodes "$work/traces/run1" "$work/traces/run2"
has "$work/err" "the 2 paths given hold 2 separate recordings" "two paths"
run 0 "$caret" check --merge "$work/traces"
[[ $(head -1 "$work/out") == "trace: $work/traces/run1, $work/traces/run2" ]] ||
	fail "--merge: first line $(head -1 "$work/out")"
run 0 "$caret" check "$work/traces/run2"
[[ $(head -1 "$work/out") == "trace: $work/traces/run2" ]] || fail "one recording: $(head -1 "$work/out")"
run 0 "$caret" check "$work/perpid"
[[ $(head -1 "$work/out") == "trace: $work/perpid" ]] || fail "per-pid session: $(head -1 "$work/out")"
# a trace linked where it is read (a notebook's folder): the link followed
ln -s "$real" "$work/linked"
run 0 "$caret" check "$work/linked"
has "$work/out" "result: ok" "a linked trace"
# where each format says it
run 0 "$caret" latency callbacks --format json "$real"
has "$work/out" "{\"trace\": [\"$real\"], \"callbacks\": [" "json trace field"
run 0 "$caret" summary nodes --format csv "$real"
[[ $(head -1 "$work/out") == node,* ]] || fail "csv: first line $(head -1 "$work/out")"
has "$work/err" "caret summary nodes: trace: $real" "csv trace on stderr"
for verb in "summary events" "latency topics" "latency nodes" "latency timers" \
	"path search --from /sensor --to /sink" "path latency --nodes /sensor,/filter,/sink"; do
	# shellcheck disable=SC2086
	run 0 "$caret" $verb "$real"
	[[ $(head -1 "$work/out") == "trace: $real" ]] || fail "$verb: first line $(head -1 "$work/out")"
done
run 0 "$caret" arch "$real"
[[ $(head -1 "$work/out") == "# trace: $real" ]] || fail "arch: first line $(head -1 "$work/out")"

# ---- item 7 --------------------------------------------------------------
# a sub-verb's mistakes name the sub-verb
for args in "latency callbacks --frmat x" "latency nodes --format x" "latency tf --frmat x" \
	"path search --frmat x" "path latency --format x --nodes /a,/b" "summary nodes --frmat x"; do
	read -r verb sub _ <<<"$args"
	# shellcheck disable=SC2086
	run 2 "$caret" $args "$real"
	[[ $(head -1 "$work/err") == "caret $verb $sub: "* ]] ||
		fail "$args: blames $(head -1 "$work/err" | cut -d: -f1)"
done
# a window outside the trace (about 6 s long) is a mistake, not an empty result
run 1 "$caret" latency callbacks --since 100 "$real"
has "$work/err" "the time window starts at 100 s, past the trace's end at 6.095 s" "--since 100"
run 1 "$caret" check --until 0 "$real"
has "$work/err" "the time window ends at 0 s, at the trace's start" "--until 0"
run 2 "$caret" check --since 10 --until 5 "$real"
has "$work/err" "--until 5 must be later than --since 10" "--since 10 --until 5"
grep -q "must come before" "$work/err" && fail "--since 10 --until 5 still says 'must come before'"
# report --arch alone: every named path of the file
run 0 "$caret" report --arch "$arch" -o "$work/r.html" "$real"
grep -q "<h3>sensor_to_sink</h3>" "$work/r.html" || fail "report --arch alone: no named path shown"
"$caret" report --help | grep -q "those" || fail "report --help: --arch without --path not said"
# statistics of no sample: empty, null, "-"
window="--since 2 --until 2.001"
# shellcheck disable=SC2086
run 0 "$caret" path latency --nodes /sensor,/filter,/sink --format json $window "$real"
has "$work/out" '{"hop": "end to end", "count": 0, "min_ns": null, "mean_ns": null, "p50_ns": null, "p90_ns": null, "p99_ns": null, "max_ns": null}' "json of nothing"
# shellcheck disable=SC2086
run 0 "$caret" path latency --nodes /sensor,/filter,/sink --format csv $window "$real"
has "$work/out" "end to end,0,,,,,," "csv of nothing"
# shellcheck disable=SC2086
run 0 "$caret" path latency --nodes /sensor,/filter,/sink $window "$real"
grep -qE '^end to end +0 +- +- +- +- +- +-$' "$work/out" || fail "text of nothing: $(grep '^end' "$work/out")"
# frequency of runs spanning under a second: runs per second, not 0
run 0 "$caret" latency callbacks --format csv --since 2 --until 2.5 "$real"
has "$work/out" ",10.0,," "frequency under a second"
# caret arch on plain ros2_tracing: written, and what it lacks said
run 0 "$caret" arch "$plain"
has "$work/err" "no executor or callback group events (ros2_caret:construct_executor" "arch plain"
# an unknown named path lists those there are
run 1 "$caret" path latency --arch "$arch" --path nope "$real"
has "$work/err" "no named path nope (its named paths: sensor_to_sink)" "path latency --path nope"
run 1 "$caret" report --arch "$arch" --path nope -o "$work/r.html" "$real"
has "$work/err" "(its named paths: sensor_to_sink)" "report --path nope"
run 1 "$caret" export --format chrome-trace --arch "$arch" --path nope "$real"
has "$work/err" "(its named paths: sensor_to_sink)" "export --path nope"
# nodes with no topic between them: path search finds what stands between
run 1 "$caret" path latency --nodes /sensor,/sink "$real"
has "$work/err" "'caret path search --from /sensor --to /sink'" "--nodes /sensor,/sink"
# counts and their nouns
run 0 "$caret" path search --from /sensor --to /sink --max-depth 1 "$real"
has "$work/out" "paths longer than 1 topic were not searched" "1 topic"
run 0 "$caret" arch --check "$arch"
has "$work/out" "ok: 1 named path, 0 executors" "1 named path"
# docs/cli.md names every sub-verb and every option of every --help
for verb in check summary arch latency path report export record live; do
	help=$("$caret" $verb --help)
	for opt in $(grep -oE -- '--[a-z][a-z0-9-]+' <<<"$help" | sort -u); do
		grep -qF -- "$opt" "$src/docs/cli.md" || fail "docs/cli.md: caret $verb $opt missing"
	done
done
for sub in callbacks topics timers nodes tf services actions; do
	grep -qF "caret latency $sub" "$src/docs/cli.md" || fail "docs/cli.md: caret latency $sub missing"
done
for sub in "summary nodes" "summary topics" "summary events" "path search" "path latency"; do
	grep -qF "caret $sub" "$src/docs/cli.md" || fail "docs/cli.md: caret $sub missing"
done

# ---- caret live: what it is asked, refused before any session ---------------
run 0 "$caret" live --help
has "$work/out" "--deadline" "live --help"
run 2 "$caret" live --deadline 50ms
has "$work/err" "--deadline goes with --nodes or --path" "live --deadline alone"
run 2 "$caret" live --nodes /sensor --deadline 50ms
has "$work/err" "--nodes takes 2 to" "live one node"
run 2 "$caret" live --nodes /sensor,/sink --deadline 50
has "$work/err" "bad value '50' for --deadline" "live deadline without a unit"
run 2 "$caret" live --nodes /sensor,/sink --lookback 0.5
has "$work/err" "bad value '0.5' for --lookback" "live lookback under a second"
run 2 "$caret" live --arch "$arch"
has "$work/err" "no deadlines: key" "live --arch without deadlines"
# the deadlines: key: each names a named path, once, with a duration
deadlines() { # FILE ENTRIES...
	local file=$1
	shift
	{ cat "$arch"; echo "deadlines:"; printf '%s\n' "$@"; } >"$file"
}
deadlines "$work/d-ok.yaml" "- path_name: sensor_to_sink" "  deadline: 50ms"
run 0 "$caret" arch --check "$work/d-ok.yaml"
deadlines "$work/d-name.yaml" "- path_name: nowhere" "  deadline: 50ms"
run 1 "$caret" arch --check "$work/d-name.yaml"
has "$work/err" "deadline of 'nowhere': no named path of that name" "deadline of no path"
run 1 "$caret" live --arch "$work/d-name.yaml"
has "$work/err" "no named path of that name" "live, a deadline of no path"
deadlines "$work/d-unit.yaml" "- path_name: sensor_to_sink" "  deadline: fast"
run 1 "$caret" arch --check "$work/d-unit.yaml"
has "$work/err" "deadline 'fast' of 'sensor_to_sink' is not a duration" "deadline not a duration"
deadlines "$work/d-twice.yaml" "- path_name: sensor_to_sink" "  deadline: 50ms" \
	"- path_name: sensor_to_sink" "  deadline: 60ms"
run 1 "$caret" arch --check "$work/d-twice.yaml"
has "$work/err" "two deadlines for the path 'sensor_to_sink'" "two deadlines"
deadlines "$work/d-key.yaml" "- path_name: sensor_to_sink" "  deadline: 50ms" "  slack: 1ms"
run 1 "$caret" arch --check "$work/d-key.yaml"
has "$work/err" "unknown key 'slack' in a deadline" "deadline's unknown key"

echo "$failures failures"
((failures == 0))
