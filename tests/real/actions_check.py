#!/usr/bin/env python3
"""The goals caret-c follows (`caret latency actions --records`) against
what the actions app recorded of itself (tests/real/apps/actions.cpp:
DIR/<process>.goals.<pid>.csv):

- every goal the client sent in the window the trace shows (from the first
  goal it has whole to the last) is one goal of /lookup from
  /action_client to /action_server, with its send_goal request, the goal
  response, the get_result request and the result: each goal of the trace
  is the app's last goal sent before it, one to one;
- its send_goal request just after the client's own clock read before
  async_send_goal, and its take of the result just before the result
  callback started, each within TOLERANCE, and the server's handle_goal
  began between the two (at most NOISY_SHARE of these, or NOISY_MIN, off:
  a thread preempted between the two, or the process's first request,
  which the tracer records once written, hooks_services.c);
- `caret latency actions` counts them, and `caret latency services` shows
  the action's two services between the same nodes.

usage: actions_check.py TRACE TRUTH_DIR --caret BIN
(the window is the trace's: recorded from the start or while the apps ran alike)
"""
import bisect
import csv
import glob
import os
import subprocess
import sys
import tempfile

TOLERANCE = 200_000  # ns
NOISY_SHARE, NOISY_MIN = 0.10, 5

trace, truth_dir = sys.argv[1], sys.argv[2]
caret = sys.argv[sys.argv.index('--caret') + 1]
failures = 0


def check(ok, what):
    global failures
    print(('ok ' if ok else 'FAIL ') + what)
    failures += not ok


def truth(role):
    rows = {}
    for path in glob.glob(os.path.join(truth_dir, f'{role}.goals.*.csv')):
        for r in csv.DictReader(open(path)):
            rows[r['goal_id']] = (int(r['start_ns']), int(r['end_ns']))
    return rows


client, server = truth('action_client'), truth('action_server')
with tempfile.NamedTemporaryFile('r', suffix='.csv') as records:
    out = subprocess.run([caret, 'latency', 'actions', '--format', 'csv', '--records',
                          records.name, trace], capture_output=True, text=True)
    if out.returncode:
        sys.exit(f'FAIL caret latency actions: {out.stderr.strip()}')
    goals = list(csv.DictReader(open(records.name)))
summary = list(csv.DictReader(out.stdout.splitlines()))
services = list(csv.DictReader(subprocess.run(
    [caret, 'latency', 'services', '--format', 'csv', trace], capture_output=True, text=True,
    check=True).stdout.splitlines()))

ENDS = ('goal_send_ns', 'goal_accepted_ns', 'result_request_ns', 'result_ns')
whole = sorted((g for g in goals if all(g[k] for k in ENDS)),
               key=lambda g: int(g['goal_send_ns']))
check(len(whole) >= 5 and all((g['action'], g['client'], g['server']) ==
                              ('/lookup', '/action_client', '/action_server') for g in whole),
      f'{len(whole)} goals of /lookup from /action_client to /action_server, whole, in the '
      f'trace ({len(goals)} in all)')
sent = sorted((v[0], k) for k, v in client.items())
starts = [s for s, _ in sent]
matched, off, n, worst, early = {}, 0, 0, [0, 0], []
for g in whole:
    i = bisect.bisect_right(starts, int(g['goal_send_ns'])) - 1
    if i < 0:
        check(False, f'a goal at {g["goal_send_ns"]} before any the client sent')
        continue
    goal_id = sent[i][1]
    if goal_id in matched:
        check(False, f'goal {goal_id} is two goals of the trace')
    matched[goal_id] = g
    app_sent, app_result = client[goal_id]
    gaps = [int(g['goal_send_ns']) - app_sent, app_result - int(g['result_ns'])]
    if min(gaps) < 0:
        check(False, f'goal {goal_id}: an end on the wrong side of the app\'s clock read {gaps}')
    worst = [max(w, x) for w, x in zip(worst, gaps)]
    off += sum(x > TOLERANCE for x in gaps)
    n += 2
    # the server began between the two; a process's first request is
    # recorded once written, after the server may have begun
    if goal_id in server:
        n += 1
        if not int(g['goal_send_ns']) <= server[goal_id][0] <= int(g['result_ns']):
            off += 1
            early.append(goal_id)
if whole:
    first, last = int(whole[0]['goal_send_ns']), int(whole[-1]['result_ns'])
    # the app's goals whose trace goal lies in the window: sent just before
    # the first, answered by the last
    made = [k for k, (s, e) in client.items()
            if s >= first - TOLERANCE and e <= last + TOLERANCE and s < last]
    missing = [k for k in made if k not in matched]
    check(not missing, f'every goal the client sent in the window is followed ({len(made)} '
          f'sent, {len(matched)} matched, missing {missing[:3]})')
allowed = max(NOISY_MIN, int(NOISY_SHARE * n))
check(off <= allowed, f'{len(matched)} goals: the send_goal request and the result within '
      f'{TOLERANCE} ns of the app\'s reads, the server\'s start between them, but {off} of '
      f'{n} (at most {allowed}); worst {worst[0]} ns, {worst[1]} ns; server outside '
      f'{early[:3]}')
to_result = [r for r in summary if r['measure'] == 'goal_to_result' and
             r['server'] == '/action_server']
check(len(to_result) == 1 and int(to_result[0]['count']) == len(whole),
      f'latency actions counts the {len(whole)} goals whole')
pairs = {(r['service'], r['client'], r['server']) for r in services
         if r['measure'] == 'round_trip' and int(r['count'])}
check({('/lookup/_action/send_goal', '/action_client', '/action_server'),
       ('/lookup/_action/get_result', '/action_client', '/action_server')} <= pairs,
      f'latency services shows the action\'s send_goal and get_result calls ({sorted(pairs)})')
print(f'{failures} failures')
sys.exit(1 if failures else 0)
