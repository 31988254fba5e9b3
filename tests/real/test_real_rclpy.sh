#!/usr/bin/env bash
# rclpy's nodes (tests/real/apps_py) on the jazzy-rclpy tree, each system
# recorded from the start and late, each trace checked against the apps'
# own truth as the rclcpp apps' are (real_check: architecture, callback
# runs, messages, path instances through the Python /filter, service calls,
# `caret check`):
#   1. session first (real_from_start): py-pipeline3 and the mixed chain
#      unmerged (CARET_MERGE=0), the others merged;
#   2. `caret record` started while the apps run (the initialization
#      replayed to it): each system again;
#   3. (Cyclone DDS) on 2's py-mixed trace, where the chain crosses
#      rclcpp -> rclpy -> rclcpp: the report (the path through the Python
#      node; tests/browser/checks.sh without Chromium) and the Trace Event
#      export, and the Python package: the Python callbacks' DataFrames
#      with their symbols.
# Short runs (2 s from the start, 1.5 s late) keep it lean: each system
# costs about 10 s.
# usage: test_real_rclpy.sh RMW   (cyclonedds | fastdds)   [RCLPY_KEEP=1: keep the work folder]
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" jazzy-rclpy "${1:-}"
work=$(mktemp -d)
# RCLPY_KEEP=1: the traces and the apps' truth kept, for a failure's diagnosis
[[ ${RCLPY_KEEP:-0} == 1 ]] && echo "keeping $work" || caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon
# The mixed chain crosses rclcpp -> rclpy -> rclcpp on Cyclone DDS
# (py-mixed), rclpy -> rclcpp -> rclpy on Fast DDS (py-mixed-filter): each
# middleware carries messages both ways between the two. (RCLPY_SYSTEMS="A
# B ...": those alone, by hand)
mixed=py-mixed
[[ $REAL_RMW == fastdds ]] && mixed=py-mixed-filter
read -ra systems <<<"${RCLPY_SYSTEMS:-py-pipeline3 py-pipeline1 $mixed py-services py-executors}"

# from_start SYSTEM: recorded from the start, checked; a pipeline run in
# which /sink took nothing (discovery outlasting 2 s on a busy machine) is
# said and run again, up to three times.
from_start() {
	local system=$1 dir=$work/first-$1 attempt merge=()
	[[ $system == py-pipeline3 || $system == py-mixed* ]] && merge=(CARET_MERGE=0)
	for attempt in 1 2 3; do
		rm -rf "$dir"
		real_from_start "$dir" "$system" "${merge[@]}"
		[[ $system == py-services || $system == py-executors ]] ||
			real_chain_delivered "$dir" || ((attempt == 3)) ||
			{ echo "note: /sink took no message on /topic_b in 2 s (attempt $attempt)"; continue; }
		break
	done
	real_check "$dir/trace" "$dir" "$dir/pids" "$system"
}

# late SYSTEM: the apps first, `caret record` for 1.5 s once they run, the
# apps stopped after it (as Ctrl-C stops them).
late() {
	local system=$1 dir=$work/late-$1 launcher
	mkdir -p "$dir"
	LD_PRELOAD=$CARET_LIB "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" "$system" 120 \
		"$dir" "$dir/pids" >/dev/null &
	launcher=$!
	caret_at_exit "kill -TERM $launcher 2>/dev/null || true"
	sleep 2
	"$BIN/caret" record -o "$dir/trace" --duration 1.5 >/dev/null 2>"$dir/record.err" ||
		{ cat "$dir/record.err"; return 1; }
	grep -q ' 0 discarded$' "$dir/record.err" || { cat "$dir/record.err"; return 1; }
	grep -Eq "(all $(wc -l <"$dir/pids") processes|the 1 process) recording" "$dir/record.err" ||
		{ cat "$dir/record.err"; echo "caret record did not find every process" >&2; return 1; }
	kill -TERM "$launcher"
	wait "$launcher"
	real_check "$dir/trace" "$dir" "$dir/pids" "$system"
}

# lagged_truth DIR: records_check on DIR's trace with a truth in which one
# /listener run's first clock read came late, 0.1 ms before its end (a
# Python thread that waited for the GIL after callback_start, as threads do
# on a busy machine: docs/dev/rclpy.md). The run is one whose app's start
# is then nearer the next run of its callback in its thread than its own
# traced run is, by start and end together, and its own traced run more
# than 10 ms from the next one's start (what the checker once matched by:
# CI's 'not found' beside 'not in the truth'); a truth without one is said,
# and not checked. Each run must still be found as its own.
lagged_truth() {
	local dir=$1 lagged=$work/lagged status=0
	rm -rf "$lagged"
	cp -r "$dir" "$lagged"
	/usr/bin/python3 - "$lagged" <<'PY' || status=$?
import csv, glob, sys
path = glob.glob(f'{sys.argv[1]}/executors.callbacks.*.csv')[0]
head, *rows = list(csv.reader(open(path)))
runs = {}
for i, r in enumerate(rows):
    if r[1] == '/listener':
        runs.setdefault((r[2], r[5]), []).append(i)
for ids in runs.values():
    ids.sort(key=lambda i: int(rows[i][6]))
    for a, b in zip(ids, ids[1:]):
        start, end, next_start, next_end = (int(rows[a][6]), int(rows[a][7]),
                                            int(rows[b][6]), int(rows[b][7]))
        late = end - 100_000
        if end < next_start and next_start - late <= 10_000_000 and \
                next_start - start > 10_000_000 and \
                (next_start - late) + (next_end - end) < late - start:
            rows[a][6] = str(late)
            csv.writer(open(path, 'w', newline='')).writerows([head] + rows)
            print(f'lagged: {rows[a][2]} (tid {rows[a][5]}) started 0.1 ms before its end, '
                  f'{(next_start - late) / 1e6:.1f} ms before the next run')
            sys.exit(0)
print('lagged: no /listener run a late first read would bring nearer the next; not checked')
sys.exit(3)
PY
	((status == 3)) && return 0
	((status == 0)) || return 1
	"$BIN/records_check" "$lagged/trace" "$lagged" "$lagged/pids" >/dev/null || {
		echo "records_check took a run with a late first read for another run" >&2
		return 1
	}
}

for system in "${systems[@]}"; do
	echo "== $system: session first"
	from_start "$system"
	if [[ $system == py-executors ]]; then lagged_truth "$work/first-$system"; fi
	echo "== $system: caret record while the apps run"
	late "$system"
	if [[ $system == py-executors ]]; then lagged_truth "$work/late-$system"; fi
done

[[ $REAL_RMW != cyclonedds ]] && exit 0
echo "== py-mixed: the report, the export, the Python package"
trace=$work/late-py-mixed/trace
. "$CARET_SOURCE_DIR/tests/browser/checks.sh"
report_checks "$BIN/caret" "$trace" "$work/report" --no-browser \
	--expect-node /sensor --expect-node /filter --expect-node /sink
# the chain through the Python node, a path card of the report, and its
# callback by its Python name
/usr/bin/python3 - "$work/report/report.html" <<'PY'
import html
import re
import sys

page = html.unescape(open(sys.argv[1], encoding='utf-8').read())
cards = re.findall(r"<div class='card path'.*?<div class='flows'>", page, re.S)
through = [c for c in cards if all(n in c for n in ('/sensor', '/filter', '/sink'))]
print('report: path cards', [re.search(r'<h3>(.*?)</h3>', c).group(1) for c in cards])
assert through, 'no path card through /sensor, /filter and /sink'
assert 'Relay.on_input' in page, "the Python /filter's callback is not named in the report"
PY
CARET_ANALYZE_LIBRARY=$CARET_BUILD_DIR/lib/libcaret-analyze.so.0 PYTHONPATH=$CARET_SOURCE_DIR/python \
	"${REAL_PYTHON[@]}" - "$trace" "$work/late-py-mixed" <<'EOF'
# The Python /filter's callback through caret_c as a user reads it: its
# symbol (module.qualname), and its runs (on the system clock) the app's
# own consecutive runs: the same gaps between their starts within 1 ms, the
# same lengths within records_check's 50 us (the median difference).
import glob
import sys

import caret_c

trace, truth = sys.argv[1], sys.argv[2]
app = caret_c.Application(caret_c.Architecture('lttng', trace), caret_c.Lttng(trace))
cbs = [cb for cb in app.callbacks
       if cb.node_name == '/filter' and cb.subscribe_topic_name == '/topic_a']
assert len(cbs) == 1, [cb.callback_name for cb in cbs]
cb = cbs[0]
assert cb.symbol == '__main__.Relay.on_input', cb.symbol
df = cb.to_dataframe().dropna()
ours = list(zip(df.iloc[:, 0].astype('int64'), df.iloc[:, 1].astype('int64')))
runs = sorted((int(f[6]), int(f[7])) for path in glob.glob(f'{truth}/filter.callbacks.*.csv')
              for f in (line.strip().split(',') for line in open(path))
              if f[2] == 'subscription_callback_0')
assert len(ours) >= 20, len(ours)


def differences(k):
    """The runs from the app's k-th on against caret_c's: lengths' differences,
    or None where the starts' gaps differ."""
    if k + len(ours) > len(runs):
        return None
    d = []
    for (s, e), (ts, te) in zip(ours, runs[k:]):
        if abs((s - ours[0][0]) - (ts - runs[k][0])) > 1_000_000:
            return None
        d.append(abs((e - s) - (te - ts)))
    return sorted(d)


aligned = [d for d in map(differences, range(len(runs))) if d]
assert aligned, 'caret_c\'s runs are no consecutive runs of the app'
best = min(aligned, key=lambda d: d[len(d) // 2])
assert best[len(best) // 2] <= 50_000, best[len(best) // 2]
print(f'caret_c: /filter {cb.callback_name} {cb.symbol}: {len(ours)} runs, the app\'s '
      f'({len(runs)} in all); lengths differ by {best[len(best) // 2]} ns (median), '
      f'{best[-1]} ns at most')
EOF
