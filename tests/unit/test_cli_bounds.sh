#!/usr/bin/env bash
# Every verb's duration, count, size and offset options out of range (issue
# 45, item 10): inf, nan, 1e300, negative, past 32 bits, under the least.
# Each is refused before anything runs: exit 2, one line naming the verb,
# the option, the value and the range. Before, `--window inf` wrote
# "window_s": inf, `--hosts 4294967296` wrapped to 0, `--max-snapshots
# 1e300` gave 0 snapshots, `--rotate inf` rotated without end, all silently.
# Where a verb would run on an accepted value, its other arguments make it
# stop at once (an option clash, a trace that is not there), so that a
# value let through fails this test without recording anything.
# usage: test_cli_bounds.sh BIN_DIR
set -uo pipefail
caret=$1/caret
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
checked=0

# refused OPTION VALUE CMD...: CMD exits 2 with one line "caret VERB: bad
# value 'VALUE' for OPTION: WHY (RANGE)" (OPTION as the message names it)
refused() {
	local option=$1 value=$2 status=0
	shift 2
	(cd "$work" && timeout 10 "$caret" "$@" >"$work/out" 2>"$work/err" </dev/null) || status=$?
	checked=$((checked + 1))
	if ((status != 2)) || (($(grep -c . "$work/err") != 1)) ||
	   ! grep -qE "^caret [a-z_ ]+: bad value '$(sed 's/[.[*^$]/\\&/g' <<<"$value")' for $option: [a-z0-9 ]+ \(.+\)$" "$work/err"; then
		echo "FAIL caret $*: exit $status: $(head -c 300 "$work/err")"
		failures=$((failures + 1))
	fi
}

# ---- caret record: --relayd with --output stops one let through (a clash)
rec=(--relayd nowhere.invalid --output "$work/t")
for v in inf nan 1e300 0 -1 0x10 10m; do
	refused --duration "$v" record --duration "$v" "${rec[@]}"
	refused --duration "$v" record -d "$v" "${rec[@]}"
done
for v in inf 1e300 -1 86401; do
	refused --wait "$v" record --wait "$v" "${rec[@]}"
done
for v in inf 1e300 0 0.01 -1 nan; do
	refused --rotate "$v" record --rotate "$v" "${rec[@]}"
done
for v in 1e300 4294967296 1.5 -1 inf; do
	refused --frequency "$v" record --frequency "$v" "${rec[@]}"
	refused --frequency "$v" record -f "$v" "${rec[@]}"
	refused --frequency "$v" record --recording-frequency "$v" "${rec[@]}"
done
for v in 99999999999999G 18446744073709551616 4T inf 0 1K; do
	refused --subbuf-size "$v" record --subbuf-size "$v" "${rec[@]}"
done
for v in 1e300 inf 0; do
	refused --subbuffer-size-ust "$v" record --subbuffer-size-ust "$v" "${rec[@]}"
done
for v in 1e300 4294967296 0 -1; do
	refused --num-subbuf "$v" record --num-subbuf "$v" "${rec[@]}"
done

# ---- caret live: --watch with --output stops one let through
live=(--watch "$work/w" --output "$work/o")
for v in inf 1e300s 30 0.1ns nan 0ms -5ms; do
	refused --deadline "$v" live --nodes /a,/b --deadline "$v" "${live[@]}"
done
for v in inf nan 1e300 0 -1; do
	refused --duration "$v" live --duration "$v" "${live[@]}"
	refused --window "$v" live --window "$v" "${live[@]}"
	refused --period "$v" live --period "$v" "${live[@]}"
	refused --wait "$v" live --wait "$v" "${live[@]}"
done
for v in inf 0.5 1e300; do
	refused --lookback "$v" live --lookback "$v" "${live[@]}"
done
for v in 1e300 4294967296 0 inf 2.5; do
	refused --max-snapshots "$v" live --max-snapshots "$v" "${live[@]}"
done
for v in 1e300 4294967296 0 33 -1; do
	refused --hosts "$v" live --hosts "$v" "${live[@]}"
done
for v in 0 65536 4294967296 1e300 inf -1 1.5; do
	refused "--metrics port" "$v" live --metrics "127.0.0.1:$v" "${live[@]}"
done
refused --subbuf-size 8E live --subbuf-size 8E "${live[@]}"
refused --num-subbuf 1e300 live --num-subbuf 1e300 "${live[@]}"

# ---- the analyzer verbs' time window (main.c takes it for each): a trace
# that is not there stops one let through
none=$work/no-trace
verbs=("check" "summary nodes" "arch" "latency callbacks" "latency topics"
	"path search --from /a --to /b" "path latency --nodes /a,/b" "report -o $work/r.html"
	"export --format chrome-trace -o $work/e.json" "check_ctf" "node_summary"
	"topic_summary" "trace_point_summary" "create_architecture_file -o $work/a.yaml")
for words in "${verbs[@]}"; do
	read -ra verb <<<"$words"
	for option in --since --until --strip-start --strip-end; do
		refused "$option" inf "${verb[@]}" "$option" inf "$none"
		refused "$option" 1e300 "${verb[@]}" "$option=1e300" "$none"
	done
	refused --since nan "${verb[@]}" --since nan "$none"
	refused --strip-end -1 "${verb[@]}" --strip-end=-1 "$none"
done

# ---- each verb's own numbers
for v in 1e300 99999999999999999999 0 -1 2.5 inf; do
	refused --max-depth "$v" path search --from /a --to /b --max-depth "$v" "$none"
	refused --max-paths "$v" path search --from /a --to /b --max-paths "$v" "$none"
done
for v in inf 1e300; do
	refused --duration_filter "$v" node_summary --duration_filter 1 "$v" "$none"
	refused --strip_filter "$v" topic_summary --strip_filter "$v" 0 "$none"
done
m='-m \(--max_callback_construction_order_on_path_searching\)'
for v in 1e300 4294967296 -1 inf; do
	refused "$m" "$v" check_ctf -m "$v" "$none"
	refused "$m" "$v" create_architecture_file -m "$v" "$none"
	refused "$m" "$v" verify_paths "$none" -m "$v"
done

# the message whole, once
timeout 10 "$caret" live --window inf "${live[@]}" 2>"$work/err" >/dev/null
expected="caret live: bad value 'inf' for --window: not finite (seconds, more than 0 and at most 86400, or with a unit: ns, us, ms, s)"
[[ $(cat "$work/err") == "$expected" ]] || {
	echo "FAIL the message: $(cat "$work/err")"
	failures=$((failures + 1))
}

echo "$checked values refused, $failures failures"
((failures == 0))
