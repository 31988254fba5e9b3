#!/usr/bin/env bash
# bench/compare: what `caret compare` costs against analyzing the two
# recordings one after the other with the verbs it replaces, in the same
# run (the issue's bound: at most 2 times):
#   two recordings of bench_chain (6 nodes, 5 intra-process hops, 23 events
#   a message), each of at least 5 million events; `caret compare --arch`
#   (every callback, topic, node path and the named path /bench/n0 ->
#   /bench/n5) against `caret latency callbacks`, `latency topics`,
#   `latency nodes` and `path latency --arch --path` on each, seconds and
#   peak memory (/usr/bin/time), median of REPEAT runs, each run's
#   seconds listed
# usage: bench/compare/run.sh [BUILD_DIR] [ITERATIONS] [REPEAT]
# (run it under `flock /tmp/caret-lttng.lock` where other tests record)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
iterations=${2:-230000}
repeat=${3:-5}
. "$source_dir/scripts/lttng-session.sh"
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
export CARET_SUBBUF_SIZE=8M CARET_NUM_SUBBUF=32
caret=$build/bin/caret
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() { # COMMAND...: "SECONDS MAXRSS_KB"
	/usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>&1
	cat "$work/time"
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
for side in base new; do
	CARET_TRACE_DIR=$work/$side caret_lttng_start "caret-bench-compare-$side" 'ros2:*' \
		'ros2_caret:*' >/dev/null
	LD_PRELOAD=$build/lib/libcaret.so CARET_MERGE=0 "${CARET_GROUP[@]}" \
		"$build/bin/bench_chain" "$iterations"
	caret_lttng_stop
	read -r events discarded < <("$build/bin/tb_event_counts" "$work/$side" |
		awk '/^total/ { print $2, $(NF - 1) }')
	((discarded == 0)) || { echo "bench: $discarded events discarded" >&2; exit 1; }
	echo "$side: $events events, $(du -sm "$work/$side" | cut -f1) MB"
done
cat >"$work/arch.yaml" <<'EOF'
named_paths:
- path_name: chain
  node_chain:
  - node_name: /bench/n0
    publish_topic_name: /hop1
  - node_name: /bench/n1
    subscribe_topic_name: /hop1
    publish_topic_name: /hop2
  - node_name: /bench/n2
    subscribe_topic_name: /hop2
    publish_topic_name: /hop3
  - node_name: /bench/n3
    subscribe_topic_name: /hop3
    publish_topic_name: /hop4
  - node_name: /bench/n4
    subscribe_topic_name: /hop4
    publish_topic_name: /hop5
  - node_name: /bench/n5
    subscribe_topic_name: /hop5
executors: []
nodes:
- node_name: /bench/n0
- node_name: /bench/n1
- node_name: /bench/n2
- node_name: /bench/n3
- node_name: /bench/n4
- node_name: /bench/n5
EOF
# the verbs compare replaces, on both recordings one after the other
verbs() {
	local side
	for side in base new; do
		"$caret" latency callbacks "$work/$side"
		"$caret" latency topics "$work/$side"
		"$caret" latency nodes "$work/$side"
		"$caret" path latency --arch "$work/arch.yaml" --path chain "$work/$side"
	done
}
export -f verbs
export caret work
"$caret" compare --arch "$work/arch.yaml" "$work/base" "$work/new" >"$work/compare.out" # warm the page cache
rows=$(awk 'NR > 6' "$work/compare.out" | wc -l) # past the header
cmp=() seq=() cmp_kb=() seq_kb=()
for ((r = 0; r < repeat; r++)); do
	read -r s kb < <(timed "$caret" compare --arch "$work/arch.yaml" "$work/base" "$work/new")
	cmp+=("$s") cmp_kb+=("$kb")
	read -r s kb < <(timed bash -c verbs)
	seq+=("$s") seq_kb+=("$kb")
done
c=$(printf '%s\n' "${cmp[@]}" | median) v=$(printf '%s\n' "${seq[@]}" | median)
ck=$(printf '%s\n' "${cmp_kb[@]}" | median) vk=$(printf '%s\n' "${seq_kb[@]}" | median)
echo "caret compare --arch (both, $rows objects): ${c} s (runs: ${cmp[*]}), $((ck / 1024)) MB peak"
echo "the verbs on each, one after the other:     ${v} s (runs: ${seq[*]}), $((vk / 1024)) MB peak (the largest one)"
awk -v a="$c" -v b="$v" 'BEGIN { printf "compare / verbs: %.2f (bound: 2)\n", a / b }'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
