#!/usr/bin/env python3
"""caret live's JSON lines on the rclpy program against the trace it kept
(test_real_rclpy_live.sh).

usage: live_check.py CARET LIVE_JSON TRACE NODES MIN_RUNS DEADLINE_MS

- the last window (it covers the whole run) counts every callback run of
  the Python nodes and every instance of the path NODES, once: what caret
  latency callbacks and caret path latency find in the whole trace;
- the path's first and last nodes' callbacks (timer, subscription) and the
  path itself counted MIN_RUNS times at least; the service's callback and
  its calls counted too;
- the misses counted (caret live --deadline) are the instances over
  DEADLINE_MS in the trace, those described among them, each found within
  2 s of its end.
"""
import csv
import json
import subprocess
import sys
import tempfile

caret, live_json, trace, nodes, min_runs, deadline_ms = sys.argv[1:7]
min_runs, deadline = int(min_runs), float(deadline_ms) * 1e6
failures = []


def fail(what):
    failures.append(what)
    print('FAIL', what)


def records(*args):
    with tempfile.NamedTemporaryFile('r', suffix='.csv') as out:
        subprocess.run([caret, *args, '--records', out.name, trace], check=True,
                       capture_output=True)
        return list(csv.DictReader(out))


lines = [json.loads(line) for line in open(live_json)]
windows = [x for x in lines if x['type'] == 'window']
misses = [x for x in lines if x['type'] == 'miss']
if not windows:
    sys.exit('FAIL: no window in caret live\'s output')
last = windows[-1]

ended = {}
for row in records('latency', 'callbacks'):
    if row['end_ns']:
        ended[row['callback']] = ended.get(row['callback'], 0) + 1
live = {cb['name']: cb['total'] for cb in last['callbacks']}
for name, total in live.items():
    if total != ended.get(name, 0):
        fail(f'callback {name}: live counted {total} runs, the trace has {ended.get(name, 0)}')
first, *_, final = nodes.split(',')
for name in (f'{first}/callback_0', f'{final}/callback_0'):
    if live.get(name, 0) < min_runs:
        fail(f'{name}: {live.get(name, 0)} runs counted, not {min_runs} at least')
served = [name for name, total in live.items() if '/service_callback_' in name and total > 0]
calls = [s for s in last.get('services', []) if s['count'] > 0]
if not served or not calls:
    fail(f'no service callback ({served}) or call ({len(calls)} services) counted')

rows = records('path', 'latency', '--nodes', nodes)
ends = [r for r in rows if r['last_callback_start_ns']]
path = last['paths'][0]
if path['total'] != len(ends):
    fail(f"path {nodes}: live counted {path['total']} instances, the trace has {len(ends)}")
if len(ends) < min_runs:
    fail(f'path {nodes}: {len(ends)} instances, not {min_runs} at least')
over = sorted(int(r['first_publish_ns']) for r in ends
              if int(r['last_callback_start_ns']) - int(r['first_publish_ns']) > deadline)
# (caret live describes a few misses a look, counts them all)
if path['total_misses'] != len(over) or not {m['start_ns'] for m in misses} <= set(over) \
        or not misses:
    fail(f"path {nodes}: {len(misses)} misses reported ({path['total_misses']} counted), the "
         f"trace has {len(over)} instances over {deadline_ms} ms")
late = [m for m in misses if m['detected_after_ns'] > 2e9]
if late:
    fail(f'{len(late)} misses found over 2 s after they ended')
blamed = {}
for m in misses:
    blamed[m['worst_hop']] = blamed.get(m['worst_hop'], 0) + 1
print(f"{path['total_misses']} misses over {deadline_ms} ms, as in the trace, {len(misses)} "
      f'described; worst hops: {blamed}')
print(f"{len(windows)} windows; callbacks counted as the trace has them: " +
      ', '.join(f'{name} {total}' for name, total in sorted(live.items())) +
      f"; path {nodes}: {path['total']} instances, p50 {path.get('p50_ns')} ns")
if failures:
    sys.exit(1)
print('ok')
