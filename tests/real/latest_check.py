#!/usr/bin/env python3
"""A timer-driven node between two chains (the reference system's
pattern): /sensor -> /topic_a -> /filter, whose timer publishes its kept
input on /topic_b -> /sink (launch.sh's latest3 and consume3). Which input
each output carried is the apps' own record: /sink's receives name the
/sensor run that began each message (origin 0: an output that carried
none). The path /sensor -> /filter -> /sink is followed under both latest
message policies and each instance named by its /sensor run and its /sink
run (the trace's times matched to the apps' clock reads):

- keep (latest3: every output carries the latest input):
  use_latest_message gives exactly the apps' pairs; consume_latest_message
  a strict subset (each input's first output only);
- consume (consume3: an input is carried by the next output only):
  consume_latest_message gives exactly the apps' pairs; use_latest_message
  a strict superset (it binds every output to the latest input).

With --original, the original CARET analyzer (caret_analyze on
PYTHONPATH) and caret_c read the same trace with /filter's message context
set to use_latest_message: the path's DataFrame (first and last callback
in and out) and /filter's node path are equal (rows whose first column
ties in any order: the original's sort is not stable), and the original's
instances are the CLI's. caret report's path (the longest chain: this one)
has the CLI's use_latest_message instances too.

With --live LIVE_JSON TRACE (caret live --nodes /sensor,/filter,/sink
--json, the trace it kept with -o): its last window counts every instance
of the kept trace under use_latest_message, once.

usage: latest_check.py TRACE TRUTH_DIR --caret BIN --mode keep|consume [--original]
       latest_check.py --live LIVE_JSON TRACE --caret BIN
"""
import csv
import glob
import os
import shutil
import subprocess
import sys
import tempfile

MATCH = 100_000  # ns: a trace's callback start to the app's clock read in it
NODES = '/sensor,/filter,/sink'
caret = sys.argv[sys.argv.index('--caret') + 1]
failures = 0


def check(ok, what):
    global failures
    print(('ok ' if ok else 'FAIL ') + what)
    failures += not ok


def instances(trace, policy='use_latest_message'):
    """caret path latency's instances that reached the end (CSV rows)."""
    with tempfile.NamedTemporaryFile('r', suffix='.csv') as f:
        subprocess.run([caret, 'path', 'latency', '--nodes', NODES, '--policy', policy,
                        '--records', f.name, trace], check=True, capture_output=True)
        return [r for r in csv.DictReader(open(f.name)) if r['last_callback_start_ns']]


if '--live' in sys.argv:
    import json
    live_json, kept = sys.argv[sys.argv.index('--live') + 1:sys.argv.index('--live') + 3]
    windows = [w for w in map(json.loads, open(live_json)) if w['type'] == 'window']
    path = windows[-1]['paths'][0] if windows and windows[-1]['paths'] else {'total': -1}
    done = instances(kept)
    check(len(done) > 20 and path['total'] == len(done),
          f"caret live: {path['total']} instances of the path, the kept trace's "
          f"{len(done)} under use_latest_message")
    print(f'{failures} failures')
    sys.exit(1 if failures else 0)

trace, truth_dir = sys.argv[1], sys.argv[2]
mode = sys.argv[sys.argv.index('--mode') + 1]


def rows(role, kind):
    out = []
    for path in glob.glob(os.path.join(truth_dir, f'{role}.{kind}.*.csv')):
        out += list(csv.DictReader(open(path)))
    return out


def starts(role):
    return sorted(int(r['start_ns']) for r in rows(role, 'callbacks'))


sensor_starts, sink_starts = starts('sensor'), starts('sink')
truth = {(int(r['origin_ns']), int(r['time_ns'])) for r in rows('sink', 'receives')
         if r['topic'] == '/topic_b' and int(r['origin_ns'])}


def nearest(sorted_starts, t):
    """The app's clock read of the run the trace started at t, or None."""
    import bisect
    i = bisect.bisect_left(sorted_starts, t)
    near = [s for s in sorted_starts[max(i - 1, 0):i + 1] if abs(s - t) <= MATCH]
    return min(near, key=lambda s: abs(s - t)) if near else None


def pairs_of(first_starts, last_starts, what):
    """Instances as (/sensor run, /sink run) in the apps' clock reads."""
    out, unmatched = set(), 0
    for first, last in zip(first_starts, last_starts):
        a, b = nearest(sensor_starts, first), nearest(sink_starts, last)
        if a is None or b is None:
            unmatched += 1
        else:
            out.add((a, b))
    check(unmatched == 0, f'{what}: every instance is a /sensor run and a /sink run of the apps '
          f'({unmatched} not)')
    return out


def cli_pairs(policy):
    done = instances(trace, policy)
    return pairs_of([int(r['first_callback_start_ns']) for r in done],
                    [int(r['last_callback_start_ns']) for r in done], f'caret --policy {policy}')


# 2 s of /sensor at 50 ms is 40 inputs at most; under make test's load
# discovery once took half of them (consume: 20 carried), enough to compare
# sets but not the rates, hence a floor of 10.
check(len(truth) >= 10, f'{mode}: /sink took {len(truth)} messages that carried an input')
latest, consume = cli_pairs('use_latest_message'), cli_pairs('consume_latest_message')
with tempfile.TemporaryDirectory() as out:  # the report's path: its chart's instances
    import re
    page = os.path.join(out, 'report.html')
    subprocess.run([caret, 'report', '-o', page, trace], check=True, capture_output=True)
    shown = re.search(r'"end to end":\{"x":\[[^\]]*\],"y":\[[^\]]*\],"n":(\d+)',
                      open(page).read())
    check(shown and int(shown.group(1)) == len(latest),
          f"caret report: {shown and shown.group(1)} instances of the path, "
          f"caret path latency's {len(latest)}")
if mode == 'keep':
    check(latest == truth, f'use_latest_message: {len(latest)} instances, the apps\' '
          f'{len(truth)} ({len(latest - truth)} more, {len(truth - latest)} missing)')
    check(consume < truth, f'consume_latest_message: {len(consume)} instances, a strict subset '
          f'of the apps\' {len(truth)}')
else:
    check(consume == truth, f'consume_latest_message: {len(consume)} instances, the apps\' '
          f'{len(truth)} ({len(consume - truth)} more, {len(truth - consume)} missing)')
    check(latest > truth, f'use_latest_message: {len(latest)} instances, a strict superset of '
          f'the apps\' {len(truth)}')


def tie_sorted(df):
    """Rows in a defined order: the original's sort leaves ties as they fall."""
    return df.sort_values(list(df.columns)).reset_index(drop=True)


def same_frame(a, b, what):
    import pandas
    ok = list(a.columns) == list(b.columns) and list(a.dtypes) == list(b.dtypes) and \
        len(a) == len(b)
    if ok:
        a, b = tie_sorted(a), tie_sorted(b)
        for c in a.columns:  # exactly: Int64 compared as integers, not floats
            x, y = a[c], b[c]
            ok = ok and bool((x.isna() == y.isna()).all()) and \
                bool((x.dropna().astype('int64').to_numpy() ==
                      y.dropna().astype('int64').to_numpy()).all())
    check(ok, f'{what}: {len(a)} rows x {len(a.columns)} columns, the original\'s '
          f'{len(b)} x {len(b.columns)}')


def frames(module, directory):
    """The path and /filter's node path as module (caret_analyze or caret_c) gives them."""
    lttng = module.Lttng(directory)
    arch = module.Architecture('lttng', directory)
    arch.update_message_context('/filter', 'use_latest_message', '/topic_a', '/topic_b')
    arch.add_path('p', arch.search_paths('/sensor', '/sink')[0])
    app = module.Application(arch, lttng)
    path = app.get_path('p')
    out = {}
    for first, last in ((False, False), (True, True)):
        path.include_first_callback, path.include_last_callback = first, last
        out[f'path (first {first}, last {last})'] = path.to_dataframe()
    out['node path /filter'] = app.get_node_path('/filter', '/topic_a', '/topic_b').to_dataframe()
    return out, lttng


if '--original' in sys.argv:
    import logging
    logging.getLogger().setLevel(logging.ERROR)
    import contextlib
    import io
    import caret_analyze
    import caret_c
    with tempfile.TemporaryDirectory() as scratch:  # the original writes into the trace
        copy = os.path.join(scratch, 'trace')
        shutil.copytree(trace, copy)
        with contextlib.redirect_stdout(io.StringIO()):
            theirs, _ = frames(caret_analyze, copy)
    ours, lttng = frames(caret_c, trace)
    for what in theirs:
        same_frame(ours[what], theirs[what], what)
    df = theirs['path (first True, last True)'].dropna()
    offset = lttng.summary()['epoch_offset_ns']
    original = pairs_of([int(v) - offset for v in df.iloc[:, 0]],
                        [int(v) - offset for v in df.iloc[:, -2]], 'the original')
    check(original == latest, f'the original\'s use_latest_message: {len(original)} instances, '
          f'caret\'s')

print(f'{failures} failures')
sys.exit(1 if failures else 0)
