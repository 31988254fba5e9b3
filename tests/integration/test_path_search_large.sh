#!/usr/bin/env bash
# caret path search on the architecture of a generated 100-process x
# 10-node system (tb-gen, seed 7), traced by bench_arch (the system's
# initialization from one process: 100 real processes are too many for this
# machine): the paths a graph walk of the description finds, and each bound
# reported when it cuts the search. The time and memory are in bench/analyze.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon
"$bin/tb-gen" --processes 100 --nodes 10 --seed 7 -o "$work/gen.yaml"
caret_lttng_start caret-test-path-large 'ros2:*' 'ros2_caret:*'
LD_PRELOAD=$CARET_BUILD_DIR/lib/libcaret.so caret_in_test_group "$bin/bench_arch" "$work/gen.yaml"
caret_lttng_stop

search() { "$bin/caret" path search --from /gen/p3/n33 --to /gen/p93/n937 "$@" "$CARET_TRACE_DIR"; }
[[ $("$bin/caret" arch "$CARET_TRACE_DIR" | grep -c node_name) == 1000 ]]
out=$(search)
echo "$out"
# As many as a walk of the description itself finds (count_paths.awk).
expected=$(awk -v from=/gen/p3/n33 -v to=/gen/p93/n937 \
	-f "$CARET_SOURCE_DIR/tests/integration/count_paths.awk" "$work/gen.yaml")
echo "expected $expected paths"
((expected > 0))
[[ $(grep -c ' -> ' <<<"$out") == "$expected" ]]
grep -q "^$expected paths\? from /gen/p3/n33 to /gen/p93/n937$" <<<"$out"
((expected > 1))
search --max-paths 1 | grep -q 'search stopped at 1 path (--max-paths): there are more'
search --max-depth 2 | grep -q 'paths longer than 2 topics were not searched (--max-depth)'
