#!/usr/bin/env python3
"""caret live's JSON lines against the trace it kept (test_real_live.sh).

usage: live_check.py CARET LIVE_JSON TRACE NODES DEADLINE_MS STALL_MS [--no-snapshot]
                     [--policy P]
--policy P: the node policy caret live was given, for caret path latency too
TRACE: a trace folder, or several joined by ':' (read with --merge: the
chunks of several hosts' sessions, caret live --watch)

- every line is a JSON object, a window a second at least;
- the last window (its window covers the whole run) counts every callback
  run and every path instance of the trace, once: what caret latency
  callbacks and caret path latency find in the whole trace;
- the misses are the instances over the deadline in the trace, each found
  within 2 s of its end; the stall's (the stalled message and those
  queued behind it) each blaming the stalled /filter: its node hop (the
  stalled run, at least STALL_MS) or the topic into it (the messages
  queued behind that run); any other (an app of a loaded machine not
  scheduled for the deadline) is said, on whatever hop;
- the first miss's snapshot is a trace holding that instance: caret path
  latency finds it there, and caret report writes a page of it; beside it
  the misses it was written for (caret-live-miss.json, the lines --json
  printed), which the page names in its header and marks on the path's
  timeline, with the deadline drawn.
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

caret, live_json, trace, nodes, deadline_ms, stall_ms = sys.argv[1:7]
snapshots = '--no-snapshot' not in sys.argv
policy = ['--policy', sys.argv[sys.argv.index('--policy') + 1]] if '--policy' in sys.argv else []
traces = trace.split(':')
merge = ['--merge'] if len(traces) > 1 else []
deadline, stall = float(deadline_ms) * 1e6, float(stall_ms) * 1e6
failures = []


def fail(what):
    failures.append(what)
    print('FAIL', what)


def run(*args):
    return subprocess.run([caret, *args], check=True, capture_output=True, text=True).stdout


lines = [json.loads(line) for line in open(live_json)]
windows = [x for x in lines if x['type'] == 'window']
misses = [x for x in lines if x['type'] == 'miss']
print(f'{len(windows)} windows, {len(misses)} misses')
if len(windows) < 6:
    fail(f'{len(windows)} windows in an 8 s run')
last = windows[-1]

# callbacks: every run that ended, as in the whole trace
with tempfile.NamedTemporaryFile('r', suffix='.csv') as records:
    run('latency', 'callbacks', *merge, '--records', records.name, *traces)
    ended = {}
    for row in csv.DictReader(records):
        if row['end_ns']:
            ended[row['callback']] = ended.get(row['callback'], 0) + 1
for cb in last['callbacks']:
    if cb['total'] != ended.get(cb['name'], 0):
        fail(f"callback {cb['name']}: live counted {cb['total']} runs, the trace has "
             f"{ended.get(cb['name'], 0)}")
for name in ('/sensor/callback_0', '/filter/callback_0', '/sink/callback_0'):
    if not any(cb['name'] == name and cb['total'] > 300 for cb in last['callbacks']):
        fail(f'{name}: not counted (or under 300 runs in 8 s at 100 Hz)')

# the path: every instance that reached the end, once; the misses
with tempfile.NamedTemporaryFile('r', suffix='.csv') as records:
    run('path', 'latency', *merge, *policy, '--nodes', nodes, '--records', records.name,
        *traces)
    rows = list(csv.DictReader(records))
ends = [r for r in rows if r['last_callback_start_ns']]
latency = [int(r['last_callback_start_ns']) - int(r['first_publish_ns']) for r in ends]
over = sorted(int(r['first_publish_ns']) for r, v in zip(ends, latency) if v > deadline)
path = last['paths'][0]
print(f"path: live {path['total']} instances, {path['total_misses']} misses; trace "
      f"{len(ends)} instances, {len(over)} over {deadline_ms} ms")
if path['total'] != len(ends):
    fail(f"path: live counted {path['total']} instances, the trace has {len(ends)}")
if path['total_misses'] != len(over) or len(misses) != len(over):
    fail(f"path: {len(misses)} misses reported ({path['total_misses']} counted), the trace "
         f"has {len(over)} instances over the deadline")
if sorted(m['start_ns'] for m in misses) != over:
    fail('the misses reported are not the instances over the deadline')
for m in misses:
    if m['detected_after_ns'] > 2e9:
        fail(f"a miss found {m['detected_after_ns'] / 1e9:.2f} s after it ended")
def filter_hop(m):
    return max([h['ns'] for h in m['hops'] if h['hop'] == 'node /filter'] or [0])


# the stall's hops: /filter's own (the stalled run), or the topic into it
# (the messages waiting behind the stalled run: a subscriber whose executor
# was busy); never the sensor's or the sink's
STALL_HOPS = ('node /filter', 'topic /topic_a')
if misses:
    first = max(misses, key=lambda m: (filter_hop(m), m['worst_hop'] in STALL_HOPS,
                                       m['latency_ns']))
    print(f"the stall's miss: {first['latency_ns'] / 1e6:.1f} ms, worst hop {first['worst_hop']}, "
          f"found {first['detected_after_ns'] / 1e9:.2f} s after its end")
    if filter_hop(first) < stall:
        # the stalled message itself did not reach the end (its successor
        # lost in the queue): the ones behind it tell the stall
        print(f"  the stalled message did not reach the end; {len(misses)} behind it missed")
    # the stall's misses: its message and those queued behind it; a miss
    # before or after them is one of a loaded machine's (an app not
    # scheduled for 50 ms): in the trace (checked above), blamed on any hop
    stalls = [m for m in misses
              if first['start_ns'] <= m['start_ns'] <= first['start_ns'] + stall + deadline]
    others = [m for m in misses if m not in stalls]
    if others:
        print(f'{len(others)} misses outside the stall (a loaded machine): ' +
              ', '.join(f"{m['latency_ns'] / 1e6:.1f} ms at {m['worst_hop']}" for m in others))
    wrong = [m for m in stalls if m['worst_hop'] not in STALL_HOPS]
    if wrong or first['worst_hop'] not in STALL_HOPS:
        fail(f"misses blamed on {[m['worst_hop'] for m in wrong] or first['worst_hop']}, not "
             f"the stalled /filter or the topic into it")
        for m in misses:
            print(f"  miss at {m['start_ns']}: {m['latency_ns'] / 1e6:.1f} ms, " +
                  ', '.join(f"{h['hop']} {h['ns'] / 1e6:.1f} ms" for h in m['hops']))
    snap = first['snapshot']
    if not snapshots:
        pass
    elif not snap or not os.path.isdir(snap):
        fail(f'no snapshot written for the miss ({snap})')
    else:
        with tempfile.NamedTemporaryFile('r', suffix='.csv') as records:
            run('path', 'latency', *policy, '--nodes', nodes, '--records', records.name, snap)
            inside = [r for r in csv.DictReader(records)
                      if r['first_publish_ns'] == str(first['start_ns'])
                      and r['last_callback_start_ns'] == str(first['end_ns'])]
        if not inside:
            fail(f'the snapshot {snap} does not hold the instance that missed')
        # beside it, the misses it was written for, as --json printed them
        written = [m for m in misses if m['snapshot'] == snap]
        miss_file = os.path.join(snap, 'caret-live-miss.json')
        kept = [json.loads(line) for line in open(miss_file)] if os.path.isfile(miss_file) else []
        if not kept or kept != written[:len(kept)] or first not in kept:
            fail(f'{miss_file}: {len(kept)} misses, not the {len(written)} printed for {snap}')
        with tempfile.TemporaryDirectory() as out:
            run('report', '-o', os.path.join(out, 'miss.html'), snap)
            if os.path.getsize(os.path.join(out, 'miss.html')) < 10000:
                fail('caret report of the snapshot wrote next to nothing')
            page = open(os.path.join(out, 'miss.html'), encoding='utf-8').read()
            # named in the header, marked on its path's timeline with the
            # deadline drawn (the longest chain found: the watched nodes)
            if f"start_ns {first['start_ns']}, end_ns {first['end_ns']}" not in page:
                fail("the snapshot's report does not name its miss in the header")
            if '"snap":[{"x":' not in page or f'"dl":{{"m":"end to end","v":{deadline / 1e3:g}' \
                    not in page:
                fail("the snapshot's report marks no miss, or draws no deadline, on the path")
            else:
                print(f"the snapshot's report names and marks the miss at {first['start_ns']}")
else:
    fail('no miss reported: the stall went unseen')
if failures:
    sys.exit(1)
print('ok')
