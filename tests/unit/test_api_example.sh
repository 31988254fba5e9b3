#!/usr/bin/env bash
# test_api_example: examples/api/trace_summary.c built with the public
# headers alone (include/caret: the ones an install ships, nothing of
# src/), linked with libcaret-analyze, run on the shared real traces; its
# numbers must be the CLI's: each callback's runs and mean latency, each
# topic's messages and mean, the end-to-end latency of /sensor ->
# /filter -> /sink; and a damaged trace must fail naming the stream file
# and the byte (caret/error.h's causes).
# usage: test_api_example.sh SOURCE_DIR BUILD_DIR SHARED_DIR
set -euo pipefail
src=$1 build=$2 shared=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lib=$build/lib
# shellcheck disable=SC2086 # EXAMPLE_CFLAGS: the sanitizers of an ASan build
cc -std=c11 -Wall -Wextra -Werror -pedantic ${EXAMPLE_CFLAGS:-} -I"$src/include" "$src/examples/api/trace_summary.c" \
	"$lib/libcaret_analyze.a" "$lib/libcaret_schema_match.a" "$lib/libcaret_ctf_bt.a" \
	"$lib/libcaret_ctf.a" "$lib/libcaret_schema.a" "$lib/libcaret_common.a" \
	$(pkg-config --libs babeltrace2 yaml-0.1) -lm -lpthread -o "$work/trace_summary"
caret=$build/bin/caret
fails=0
check() { # WHAT EXPECTED GOT
	if [[ $2 != "$3" ]]; then
		echo "FAIL: $1: the CLI says $2, the API $3"
		fails=$((fails + 1))
	fi
}
for trace in caret-fork-inter caret-upstream-inter tracetools-fork-inter; do
	dir=$shared/data/real-humble/$trace
	"$work/trace_summary" "$dir" /sensor /sink >"$work/api.txt"
	"$caret" latency callbacks --format csv "$dir" 2>/dev/null >"$work/callbacks.csv"
	"$caret" latency topics --format csv "$dir" 2>/dev/null >"$work/topics.csv"
	"$caret" path latency --nodes /sensor,/filter,/sink --format csv "$dir" 2>/dev/null \
		>"$work/path.csv"
	n_callbacks=0
	while read -r _ name runs mean; do
		cli=$(awk -F, -v n="$name" '$1 == n { printf "runs=%d mean_ns=%.2f", $2 + $NF, $4 }' \
			"$work/callbacks.csv")
		check "$trace $name" "$cli" "$runs $mean"
		n_callbacks=$((n_callbacks + 1))
	done < <(grep '^callback ' "$work/api.txt")
	((n_callbacks == 3)) || { echo "FAIL: $trace: $n_callbacks callbacks, not 3"; fails=$((fails + 1)); }
	while read -r _ topic _ _ _ messages mean; do
		cli=$(awk -F, -v t="$topic" '$1 == t && $2 == "inter" { printf "messages=%d mean_ns=%.2f", $3, $5 }' \
			"$work/topics.csv")
		check "$trace $topic" "$cli" "$messages $mean"
	done < <(grep '^communication ' "$work/api.txt")
	cli=$(awk -F, '$1 == "end to end" { printf "reached=%d mean_ns=%.2f", $2, $4 }' "$work/path.csv")
	got=$(awk '/^end to end/ { print $5, $7 }' "$work/api.txt")
	check "$trace end to end" "$cli" "$got"
	grep -qx 'path /sensor /filter /sink' "$work/api.txt" || { echo "FAIL: $trace: no path"; fails=$((fails + 1)); }
done

# a damaged copy: the first event's id made one the metadata lacks
leaf=$shared/data/real-humble/caret-fork-inter/ust/uid/0/64-bit
[[ -d $leaf ]] || leaf=$(dirname "$(find "$shared/data/real-humble/caret-fork-inter" -name metadata | head -1)")
mkdir "$work/bad"
cp "$leaf"/metadata "$leaf"/ch0_0 "$work/bad/"
printf '\xfe\xff' | dd of="$work/bad/ch0_0" bs=1 seek=84 conv=notrunc status=none
if "$work/trace_summary" "$work/bad" >/dev/null 2>"$work/err.txt"; then
	echo "FAIL: the damaged trace opened"
	fails=$((fails + 1))
fi
grep -Eq "^  in $work/bad/ch0_0 at byte (8[4-9]|9[0-9])$" "$work/err.txt" ||
	{ echo "FAIL: the error names no stream byte:"; cat "$work/err.txt"; fails=$((fails + 1)); }
grep -q '(format)$' <(head -1 "$work/err.txt") ||
	{ echo "FAIL: not a format error:"; cat "$work/err.txt"; fails=$((fails + 1)); }
((fails == 0)) && echo "api example: the CLI's numbers on 3 traces, and the damaged trace's causes"
exit $((fails > 0))
