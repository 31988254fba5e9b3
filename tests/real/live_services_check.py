#!/usr/bin/env python3
"""caret live's JSON lines of a system with services and an action, against
the trace it kept (test_real_live.sh).

usage: live_services_check.py CARET LIVE_JSON TRACE GONE_PID JOINED_PIDS

- the user's service callbacks are among the callbacks, the calls of each
  service (client -> server) and the goals of the action are rows of their
  own, each counting what `caret latency callbacks|services|actions` finds
  in the whole trace; no row of ROS 2's own services (the parameters');
- a row without a sample in its window has no percentile or maximum
  (null), never 0;
- the window says what it covers so far (about a second at the first
  look), up to --window;
- the process killed while caret live watched is said gone, once, with its
  pid; the processes started meanwhile are said joined, once each.
"""
import csv
import json
import subprocess
import sys
import tempfile

caret, live_json, trace, gone_pid = sys.argv[1:5]
joined_pids = set(int(p) for p in sys.argv[5].split(','))
ROS2_OWN = ('/describe_parameters', '/get_parameters', '/get_parameter_types',
            '/list_parameters', '/set_parameters', '/set_parameters_atomically',
            '/get_type_description')
failures = []


def fail(what):
    failures.append(what)
    print('FAIL', what)


def records(*verb):
    with tempfile.NamedTemporaryFile('r', suffix='.csv') as out:
        subprocess.run([caret, *verb, '--records', out.name, trace], check=True,
                       capture_output=True)
        return list(csv.DictReader(out))


lines = [json.loads(line) for line in open(live_json)]
windows = [x for x in lines if x['type'] == 'window']
changes = [x for x in lines if x['type'] == 'process']
last = windows[-1]
print(f"{len(windows)} windows; processes {last['processes']}, gone {last.get('gone')}; "
      f"changes: {[(c['change'], c['pid']) for c in changes]}")

# what the window covers: about a look at first, then growing (a window
# that does not say claims all of it)
first = windows[0].get('covered_s', windows[0]['window_s'])
if first > 2.5 or first >= windows[0]['window_s']:
    fail(f"the first window says it covers {first} s of {windows[0]['window_s']}")
if last.get('covered_s', 0) < 5:
    fail(f"the last window covers {last.get('covered_s')} s of a run of 10")

# no value for no sample
for w in windows:
    for row in w['callbacks'] + w.get('services', []) + w.get('actions', []) + w['paths']:
        empty = row['count'] == 0
        for key in ('p50_ns', 'p99_ns', 'max_ns'):
            if (row[key] is None) != empty:
                fail(f"{row['name']}: count {row['count']}, {key} {row[key]}")
                break

# callbacks: the service's among them, each counting the trace's runs
ended = {}
for r in records('latency', 'callbacks'):
    if r['end_ns']:
        ended[r['callback']] = ended.get(r['callback'], 0) + 1
names = [cb['name'] for cb in last['callbacks']]
if not any(n.startswith('/server/service_callback_') for n in names):
    fail(f"no service callback of /server among {names}")
for cb in last['callbacks']:
    if cb['total'] != ended.get(cb['name'], 0):
        fail(f"callback {cb['name']}: live counted {cb['total']}, the trace has "
             f"{ended.get(cb['name'], 0)}")

# services: a row a service, client and server; each complete call once
calls = {}
for r in records('latency', 'services'):
    if r['send_request_ns'] and r['take_response_ns']:
        key = f"{r['service']}: {r['client']} -> {r['server']}"
        calls[key] = calls.get(key, 0) + 1
rows = {s['name']: s['total'] for s in last.get('services', [])}
print(f'services: live {rows}; trace {calls}')
if rows != calls:
    fail(f'the services counted are not the trace\'s calls')
if not any(name.startswith('/list_nodes: /client -> /server') for name in rows):
    fail('no row of the /list_nodes service')
if any(name.split(':')[0].endswith(ROS2_OWN) for name in rows):
    fail("a row of ROS 2's own services")

# actions: each goal from its request to the take of its result
goals = {}
for r in records('latency', 'actions'):
    if r['goal_send_ns'] and r['result_ns']:
        key = f"{r['action']}: {r['client']} -> {r['server']}"
        goals[key] = goals.get(key, 0) + 1
rows = {a['name']: a['total'] for a in last.get('actions', [])}
print(f'actions: live {rows}; trace {goals}')
if rows != goals or '/lookup: /action_client -> /action_server' not in rows:
    fail('the actions counted are not the trace\'s goals')

# processes: the killed one gone, the started ones joined, each said once
said = [(c['change'], c['pid']) for c in changes]
if said.count(('gone', int(gone_pid))) != 1:
    fail(f'the process killed (pid {gone_pid}) not said gone once')
for pid in joined_pids:
    if said.count(('joined', pid)) != 1:
        fail(f'the process started (pid {pid}) not said joined once')
if len(said) != 1 + len(joined_pids):
    fail(f'changes said that did not happen: {said}')
if last.get('gone') != 1:
    fail(f"the last window counts {last.get('gone')} processes gone")
if failures:
    sys.exit(1)
print('ok')
