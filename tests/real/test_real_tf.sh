#!/usr/bin/env bash
# tf on real tf2_ros (tests/real/apps/tf.cpp): a broadcaster of odom ->
# base_link driven by a subscription at 50 Hz, a static broadcaster of
# map -> odom, and a listener whose timer looks up map -> base_link (and
# a frame no one broadcasts, which throws through the tracer's hooks every
# time; and a lookup through the fixed frame odom). The tf events, and
# `caret latency tf`, `caret path` and `caret arch` on them, must be what
# the apps record of themselves (tf_check.py): in four processes and in one, recorded from the start;
# and in one process recorded while it runs, the buffer's frame numbers
# then coming from the replayed initialization events.
# usage: test_real_tf.sh TREE [RMW]   (RMW: see real_env.sh)
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${2:-}"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

# the original analyzer, to load caret-c's architecture file with tf keys
real_anchor "$work/anchor"

for system in tf4 tf1; do
	echo "== $system, recorded from the start"
	# tf4 for 4 s: in 2 s, on a busy machine, discovery between its four
	# processes may not bring /planner a dynamic transform (a CI run: all
	# 40 lookups threw)
	REAL_RUN_S=$([[ $system == tf4 ]] && echo 4 || echo 2) real_from_start "$work/$system" "$system"
	/usr/bin/python3 "$CARET_SOURCE_DIR/tests/real/tf_check.py" "$work/$system/trace" \
		"$work/$system" --caret "$BIN/caret" --original "$work/anchor"
	# the report's tf tree: both edges, who broadcasts the dynamic one, at 50 Hz;
	# its longest chain through tf
	"$BIN/caret" report -o "$work/$system/report.html" "$work/$system/trace" >/dev/null
	/usr/bin/python3 - "$work/$system/report.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
tf = page[page.index("<section id='tf'>"):]
rows = re.findall(r'<tr><td>([^<]*)</td><td>(yes|no)</td><td>([^<]*)</td><td>(\d+)</td>'
                  r'<td>([\d.]+)</td></tr>', tf)
edges = {r[0]: r for r in rows}
static, dynamic = edges.get('map → odom'), edges.get('odom → base_link')
# and the chain it shows, the longest, goes through tf. (The rate is the
# app's 50 Hz timer as it ran: on a machine busy with three other tests it
# fell behind once, 43.1 Hz; the count of transforms is checked exactly
# above, by tf_check.py.)
chain = '/odometry → [tf:odom-&gt;base_link] → /planner' in re.sub(r'<[^>]+>', '', page)
ok = (static and static[1] == 'yes' and dynamic and dynamic[1] == 'no' and
      dynamic[2].endswith('/odometry/callback_0') and 35 <= float(dynamic[4]) <= 55 and
      'odom → base_link: age at lookup' in tf and chain)
print(f"{'ok' if ok else 'FAIL'} report: the tf tree {sorted(edges)}, "
      f"odom -> base_link at {dynamic[4] if dynamic else '?'} Hz; the chain through tf: {chain}")
sys.exit(0 if ok else 1)
PY
done

echo "== tf1, recorded while it runs"
mkdir -p "$work/late"
# (the app runs until the recording is done, then stopped as Ctrl-C would)
LD_PRELOAD=$CARET_LIB "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" tf1 120 "$work/late" \
	"$work/late/pids" >/dev/null &
launcher=$!
caret_at_exit "kill -TERM $launcher 2>/dev/null || true"
sleep 2.5
"$BIN/caret" record -o "$work/late/trace" --duration 2 >/dev/null 2>"$work/record.err" ||
	{ cat "$work/record.err"; exit 1; }
kill -TERM "$launcher"
wait "$launcher"
/usr/bin/python3 "$CARET_SOURCE_DIR/tests/real/tf_check.py" "$work/late/trace" "$work/late" \
	--late --caret "$BIN/caret"

echo "== tf1, the broadcasting and the looking-up nodes left out by the filters"
real_from_start "$work/filtered" tf1 'CARET_IGNORE_NODES=^/odometry$:^/planner$'
# tf events follow the callback run they happen in: none from /odometry's
# subscription or /planner's timer; the static broadcast (made outside any
# run) and the listener's buffer (its own node) stay
counts=$(babeltrace2 "$work/filtered/trace" |
	grep -oE 'ros2_caret:(send_transform|tf_set_transform|tf_lookup_transform|send_static_transform|tf_set_static_transform):' |
	sort | uniq -c | awk '{ printf "%s%s ", $2, $1 }')
echo "filtered: $counts"
[[ $counts == *"ros2_caret:send_static_transform:1 "* && $counts != *"ros2_caret:send_transform:"* &&
   $counts != *"tf_lookup_transform"* && $counts == *"ros2_caret:tf_set_transform:"* ]] ||
	{ echo "FAIL: the filters should leave out /odometry's broadcasts and /planner's lookups"; exit 1; }
echo "ok filters: no broadcast of /odometry, no lookup of /planner; the static one and the buffer's sets stay"