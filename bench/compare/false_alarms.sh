#!/usr/bin/env bash
# bench/compare/false_alarms.sh: how often caret compare calls a change
# where there is none. Records the real pipeline3 (/sensor -> /filter ->
# /sink on real rclcpp, tests/real/apps) RUNS times unchanged, from its
# start, SECONDS each, then compares every disjoint pair (1-2, 3-4, ...)
# and every pair (i < j) with the named path of
# tests/data/arch/real-sensor-sink.yaml, at the defaults and with any
# caret compare options given after --; prints per pair the objects
# called slower or faster, and the rates: per object compared and per
# pair (a pair with any such object). Needs an LTTng session daemon and
# the tree's apps built (make build); run it under
# `flock /tmp/caret-lttng.lock` where other tests record.
# usage: bench/compare/false_alarms.sh [BUILD_DIR] [TREE] [RUNS] [SECONDS] [-- OPTIONS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CARET_SOURCE_DIR=$(cd "$here/../.." && pwd)
export CARET_BUILD_DIR=$(cd "${1:-$CARET_SOURCE_DIR/build}" && pwd)
tree=${2:-jazzy}
runs=${3:-12}
seconds=${4:-3}
shift $(($# < 4 ? $# : 4))
[[ ${1:-} == -- ]] && shift
options=("$@")
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-50}
export CARET_TEST_VGID=${CARET_TEST_VGID:-$((60000 + ROS_DOMAIN_ID))}
export CARET_ROS_ROOT=${CARET_ROS_ROOT:-/opt/ros}
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$tree"
caret_lttng_require
caret_lttng_ensure_daemon
work=${CARET_BENCH_WORK:-$(mktemp -d)}
[[ -n ${CARET_BENCH_WORK:-} ]] || caret_at_exit "rm -rf '$work'"
arch=$CARET_SOURCE_DIR/tests/data/arch/real-sensor-sink.yaml

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "pipeline3 on $tree, $runs recordings of $seconds s, options: ${options[*]:-(defaults)}"
for ((i = 1; i <= runs; i++)); do
	dir=$work/run$i
	[[ -d $dir/trace ]] && continue # CARET_BENCH_WORK: recorded before
	mkdir -p "$dir"
	real_record_start "$dir/trace"
	env LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" pipeline3 \
		"$seconds" "$dir" "$dir/pids" >/dev/null
	real_record_stop "$dir/trace"
done

# pair I,J.. K,L..: runs I, J... against K, L...: "objects changed" and the
# changed ones' lines
pair() {
	local sides=() i
	for i in ${1//,/ }; do sides+=(--base "$work/run$i/trace"); done
	for i in ${2//,/ }; do sides+=(--new "$work/run$i/trace"); done
	"$BIN/caret" compare --arch "$arch" --format json "${options[@]}" "${sides[@]}" |
		/usr/bin/python3 -c '
import json, sys
rows = json.load(sys.stdin)["rows"]
changed = [r for r in rows if r["verdict"] in ("slower", "faster")]
tested = [r for r in rows if r["verdict"] in ("slower", "faster", "no change")]
print(len(tested), len(changed))
for r in changed:
    print("   ", r["verdict"], r["kind"], r["name"], "p50 %+.1f us" % (r["change"]["p50"]["ns"] / 1e3),
          "p_adj %.2g" % r["p_adjusted"])'
}

tally() { # LABEL PAIRS...: the rates over the pairs "I:J" (or "I,J,K:L,M,N")
	local label=$1 objects=0 alarms=0 pairs=0 alarmed=0 p n k
	shift
	for p in "$@"; do
		{ read -r n k; cat >"$work/changed"; } < <(pair "${p%:*}" "${p#*:}")
		objects=$((objects + n)) alarms=$((alarms + k)) pairs=$((pairs + 1))
		((k == 0)) || { alarmed=$((alarmed + 1)); echo "  runs ${p%:*} vs ${p#*:}: $k of $n"; cat "$work/changed"; }
	done
	echo "$label: $alarms false alarms in $objects objects compared ($pairs pairs);" \
		"$alarmed of $pairs pairs with any"
}

disjoint=() every=()
for ((i = 1; i + 1 <= runs; i += 2)); do disjoint+=("$i:$((i + 1))"); done
for ((i = 1; i <= runs; i++)); do
	for ((j = i + 1; j <= runs; j++)); do every+=("$i:$j"); done
done
tally "disjoint pairs" "${disjoint[@]}"
tally "every pair" "${every[@]}"
# sets of runs a side (the runs' p50s tested too): three against three in
# four splits, half against half (RUNS 12: 6 against 6) in two
if ((runs >= 6)); then
	threes=(1,2,3:4,5,6 1,3,5:2,4,6 2,3,4:1,5,6 4,5,6:1,2,3)
	((runs >= 12)) && threes+=(7,8,9:10,11,12 7,9,11:8,10,12 1,5,9:2,6,10 3,7,11:4,8,12)
	tally "three runs a side" "${threes[@]}"
	half=$((runs / 2)) first= second= odd= even=
	for ((i = 1; i <= half; i++)); do first+=${first:+,}$i; second+=${second:+,}$((i + half)); done
	for ((i = 1; i + 1 <= runs; i += 2)); do odd+=${odd:+,}$i; even+=${even:+,}$((i + 1)); done
	tally "$half runs a side" "$first:$second" "$odd:$even"
fi

# how far runs of the unchanged system drift: each object's p50 per run,
# their standard deviation, and about the smallest change Welch's t on k
# runs a side calls at alpha 0.01 (t(0.995, 2k - 2) sd sqrt(2 / k))
echo "the runs' p50s (us): mean, sd, range; the smallest change called with 3, 6, 12 runs a side"
for ((i = 1; i <= runs; i++)); do
	"$BIN/caret" compare --arch "$arch" --format csv "$work/run$i/trace" "$work/run$i/trace" \
		2>/dev/null
done | /usr/bin/python3 -c '
import collections, csv, math, statistics, sys
t995 = {4: 4.604, 10: 3.169, 22: 2.819}
p50 = collections.defaultdict(list)
for r in csv.reader(sys.stdin):
    if r[0] != "verdict":
        p50[(r[1], r[2])].append(float(r[6]) / 1e3)
for (kind, name), v in sorted(p50.items()):
    sd = statistics.stdev(v) if len(v) > 1 else 0
    mde = " ".join("%6.1f" % (t995[2 * k - 2] * sd * math.sqrt(2 / k)) for k in (3, 6, 12))
    print("  %-8s %-42s %7.1f %6.1f %6.1f   %s" % (kind, name[:42], statistics.mean(v), sd,
          max(v) - min(v), mde))'
