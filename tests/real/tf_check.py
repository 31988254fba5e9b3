#!/usr/bin/env python3
"""The tf events of a trace against the real_tf apps' own record of what
they did (their DIR/<process>.tf.<pid> files, tests/real/apps/tf.cpp):

- every transform a broadcaster sent while it was recorded is one
  ros2_caret:send_transform: same broadcaster, stamp, frames, static flag;
- every transform a listener's buffer took in (between the first and the
  last one it took while recorded) is one ros2_caret:tf_set_transform of
  that buffer, and each one is a transform that was sent;
- every lookup that returned is one ros2_caret:tf_lookup_transform of that
  buffer with the stamp the app got, and a lookup that threw is none;
- the frame numbers of both name the right frames through the buffer's
  ros2_caret:init_tf_buffer_frame_id_compact events (replayed when the
  recording began after the buffer had its frames);
- static transforms are ros2_caret:send_static_transform and
  tf_set_static_transform, initialization events: a late recording has
  them too, replayed;
- each tf_lookup_transform comes after what its edges read, in its
  thread: one ros2_caret:tf_buffer_find_closest for odom->base_link (the
  static edge is not one), naming the transform sent last at or before the
  stamp asked, and the next one sent when tf2 interpolated between them.

And with --caret BIN, `caret latency tf --records` on the trace: every
transform a buffer took is a "set" record of its broadcast (none without
one), and every lookup that returned is one "lookup" record for the edge
odom->base_link whose stamp is the one the app got (and, for a lookup in
the past, the newer transform tf2 interpolated with), its age since the
broadcast positive, sent in a run of /odometry's subscription callback
and read in a run of /planner's timer callback; `caret path search` finds
/wheels -> /odometry -> [tf:odom->base_link] -> /planner, and `caret path
latency` on it brings one wheel message to /planner per lookup (the
same with every runtime event kept, and `caret latency tf` too).

`caret arch` writes the tf links' ends (tf_broadcasts of /odometry,
tf_lookups of /planner); a named path through tf:odom->base_link checks
and gives what --nodes gives; with --original ANCHOR, the original
analyzer loads that file.

usage: tf_check.py TRACE TRUTH_DIR [--late] [--caret BIN [--original ANCHOR]]
(--late: recording began while the apps ran; only what happened while it
recorded is required)
"""
import bisect
import glob
import os
import re
import subprocess
import sys
from collections import defaultdict

trace, truth_dir = sys.argv[1], sys.argv[2]
late = '--late' in sys.argv
failures = 0


def check(ok, what):
    global failures
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} {what}")


# ---- the trace --------------------------------------------------------------
event_re = re.compile(r'ros2_caret:(\w+): .*?vpid = (\d+).*?\}, \{ (.*) \}$')
vtid_re = re.compile(r'vtid = (\d+)')
field_re = re.compile(r'(\w+) = ("[^"]*"|[^,]+)')
events = defaultdict(list)
text = subprocess.run(['babeltrace2', trace], capture_output=True, text=True, check=True).stdout
for seq, line in enumerate(text.splitlines()):
    m = event_re.search(line)
    if not m or m.group(1) not in ('send_transform', 'tf_set_transform', 'tf_lookup_transform',
                                   'init_tf_buffer_frame_id_compact', 'send_static_transform',
                                   'tf_set_static_transform', 'tf_buffer_find_closest'):
        continue
    fields = {k: v.strip('"') for k, v in field_re.findall(m.group(3))}
    fields['pid'] = int(m.group(2))
    fields['tid'] = int(vtid_re.search(line).group(1))
    fields['seq'] = seq
    for k in ('tf_broadcaster', 'tf_buffer_core'):
        if k in fields:
            fields[k] = int(fields[k], 16)
    # static transforms are initialization events: one list, with a flag
    name = m.group(1).replace('_static', '')
    fields['is_static'] = int(name != m.group(1))
    events[name].append(fields)

# the edges a lookup read come just before it, in its thread
in_order = sorted(events['tf_buffer_find_closest'] + events['tf_lookup_transform'],
                  key=lambda e: e['seq'])
pending = defaultdict(list)
for e in in_order:
    if 'stamp_' in e:
        pending[(e['pid'], e['tid'])].append(e)
    else:
        e['reads'] = pending.pop((e['pid'], e['tid']), [])
names = defaultdict(dict)  # (pid, buffer) -> number -> frame
for e in events['init_tf_buffer_frame_id_compact']:
    key = (e['pid'], e['tf_buffer_core'])
    number = int(e['frame_id_compact'])
    if number in names[key]:  # announced again (a replay): the same name
        check(names[key][number] == e['frame_id'],
              f"buffer {key[1]:#x}: frame {number} is {e['frame_id']} again")
    names[key][number] = e['frame_id']


def frame(pid, buffer, number):
    return names[(pid, buffer)].get(int(number), f'?{number}')


# ---- the apps' record ---------------------------------------------------------
sends, buffers, lookups, failed = [], [], defaultdict(list), defaultdict(int)
for path in glob.glob(os.path.join(truth_dir, '*.tf.*')):
    pid = int(path.rsplit('.', 1)[1])
    for row in open(path).read().split('\n'):
        f = row.split(',')
        if f[0] == 'send':
            sends.append((pid, int(f[1], 16), int(f[2]), f[3], f[4], int(f[5])))
        elif f[0] == 'buffer':
            buffers.append((pid, int(f[1], 16)))
        elif f[0] == 'lookup':
            lookups[(pid, int(f[1], 16))].append((f[2], f[3], int(f[4])))
        elif f[0] == 'lookup_failed':
            failed[(pid, int(f[1], 16))] += 1

# The odom -> base_link transform a lookup returning STAMP read: the latest
# sent at or before it (the stamp itself for a lookup of the latest; for
# one in the past, tf2 interpolates from it and the next).
dynamic_stamps = sorted(s[2] for s in sends if (s[3], s[4]) == ('odom', 'base_link'))


def read(stamp):
    i = bisect.bisect_right(dynamic_stamps, stamp)
    return dynamic_stamps[i - 1] if i else None


def next_sent(stamp):
    i = bisect.bisect_right(dynamic_stamps, stamp) if stamp is not None else 0
    return dynamic_stamps[i] if stamp is not None and i < len(dynamic_stamps) else None


def first_difference(got, want):
    i = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
    return f'{i}: trace {got[i:i + 2]}, app {want[i:i + 2]}'


def recorded(got, want):
    """What of the app's lookups (in order) a recording holds: all of them,
    or with --late the run of them that starts where the trace's does."""
    if not late or not got:
        return want
    for i in range(len(want)):
        if want[i] == got[0]:
            return want[i:i + len(got)]
    return want


# ---- sends ---------------------------------------------------------------------
traced = [(e['pid'], e['tf_broadcaster'], int(e['stamp']), e['frame_id'], e['child_frame_id'],
           int(e['is_static'])) for e in events['send_transform']]
window = {}
for s in traced:
    lo, hi = window.get(s[:2], (s[2], s[2]))
    window[s[:2]] = (min(lo, s[2]), max(hi, s[2]))
expected = [s for s in sends if not late or
            (s[:2] in window and window[s[:2]][0] <= s[2] <= window[s[:2]][1])]
check(sorted(expected) == sorted(traced),
      f'send_transform: {len(traced)} events for the {len(expected)} transforms sent '
      f'({sum(s[5] for s in expected)} static)')

# ---- what each buffer took in ---------------------------------------------------
sent = {(s[2], s[3], s[4], s[5]) for s in sends}
for pid, buffer in buffers:
    sets = [(int(e['stamp']), frame(pid, buffer, e['frame_id_compact']),
             frame(pid, buffer, e['child_frame_id_compact']), int(e['is_static']))
            for e in events['tf_set_transform']
            if e['pid'] == pid and e['tf_buffer_core'] == buffer]
    check(bool(sets) and all(s in sent for s in sets),
          f'buffer {buffer:#x}: {len(sets)} tf_set_transform, each a transform that was sent')
    dynamic = sorted(s[0] for s in sets if not s[3])
    if dynamic:
        between = {s for s in sent if not s[3] and dynamic[0] <= s[0] <= dynamic[-1]}
        missing = between - set(sets)
        check(not missing, f'buffer {buffer:#x}: every transform sent from the first to the '
              f'last it took ({len(between)}) was taken'
              + (f'; missing e.g. {sorted(missing)[:3]}' if missing else ''))
    # taken once at the start: a late recording has it replayed
    check(any(s[3] for s in sets), f'buffer {buffer:#x}: the static transform was taken')

    # ---- lookups
    got = [(frame(pid, buffer, e['target_frame_id_compact']),
            frame(pid, buffer, e['source_frame_id_compact']), int(e['stamp']))
           for e in events['tf_lookup_transform']
           if e['pid'] == pid and e['tf_buffer_core'] == buffer]
    want = recorded(got, lookups[(pid, buffer)])
    check(got == want, f'buffer {buffer:#x}: {len(got)} tf_lookup_transform for the '
          f'{len(want)} lookups that returned (and none for the {failed[(pid, buffer)]} '
          'that threw), frames and stamps as the app got them')
    wrong, interpolated = [], 0
    for e in events['tf_lookup_transform']:
        if e['pid'] != pid or e['tf_buffer_core'] != buffer:
            continue
        asked = int(e['stamp'])
        reads = [(frame(pid, buffer, r['frame_id_compact']),
                  frame(pid, buffer, r['child_frame_id_compact']), int(r['stamp']),
                  frame(pid, buffer, r['frame_id_compact_']) if int(r['stamp_']) else '',
                  int(r['stamp_'])) for r in e['reads']]
        older = read(asked)
        newer = next_sent(older)
        # an exact stamp: tf2 takes it alone, or with its newer neighbour
        # when it is neither the newest nor the oldest it holds
        fits = older == asked and (reads[0][4] if reads else 0) in (0, newer)
        ok = (len(reads) == 1 and reads[0][:3] == ('odom', 'base_link', older) and
              (fits or reads[0][3:] == ('odom', newer)))
        interpolated += ok and reads[0][4] != 0
        if not ok:
            wrong.append((asked, reads))
    check(not wrong, f'buffer {buffer:#x}: each lookup read odom->base_link: '
          f'tf_buffer_find_closest names the transform sent at or before the stamp asked '
          f'({interpolated} interpolated with the next one)' +
          (f'; {len(wrong)} wrong, e.g. {wrong[:2]}' if wrong else ''))
check(bool(buffers) and bool(sends), f'{len(buffers)} buffers, {len(sends)} transforms sent')

# ---- caret latency tf ---------------------------------------------------------------
if '--caret' in sys.argv:
    import csv
    caret = sys.argv[sys.argv.index('--caret') + 1]
    records = os.path.join(os.path.dirname(os.path.abspath(trace)), 'tf-records.csv')
    subprocess.run([caret, 'latency', 'tf', '--format', 'csv', '--records', records, trace],
                   check=True, capture_output=True)
    rows = list(csv.DictReader(open(records)))
    os.remove(records)
    for pid, buffer in buffers:
        # a set record needs its broadcast: with --late, a transform sent
        # just before the recording began may be taken just after it
        broadcast = {s[2:5] for s in traced}
        n_sets = sum(1 for e in events['tf_set_transform']
                     if e['pid'] == pid and e['tf_buffer_core'] == buffer and
                     (not late or (int(e['stamp']), frame(pid, buffer, e['frame_id_compact']),
                                   frame(pid, buffer, e['child_frame_id_compact'])) in broadcast))
        mine = [r for r in rows if r['what'] == 'set' and int(r['pid']) == pid]
        check(len(mine) == n_sets and all(int(r['latency_ns']) > 0 for r in mine),
              f'latency tf: {len(mine)} set records of their broadcast for the {n_sets} '
              f'transforms buffer {buffer:#x} took')
        got = [(r['lookup'], int(r['stamp'])) for r in
               sorted(rows, key=lambda r: int(r['lookup_ns'] or 0))
               if r['what'] == 'lookup' and int(r['pid']) == pid and
               r['frame_id'] == 'odom' and r['child_frame_id'] == 'base_link']
        ages = [int(r['latency_ns']) for r in rows if r['what'] == 'lookup' and int(r['pid']) == pid]
        want = [(f'{w[0]}<-{w[1]}', read(w[2])) for w in lookups[(pid, buffer)]]
        if late:
            # a transform taken before the recording began is not in it
            first = min((int(r['stamp']) for r in mine if r['child_frame_id'] == 'base_link'),
                        default=0)
            want = [w for w in want if w[1] is not None and w[1] >= first]
        want = recorded(got, want)
        past = sum(1 for w in lookups[(pid, buffer)] if w[:2] == ('odom', 'base_link'))
        check(got == want and all(a > 0 for a in ages),
              f'latency tf: {len(got)} lookups read odom->base_link, the transform the app got '
              f'({len(want)}, {past} of them 30 ms in the past through the fixed frame odom), '
              'ages since the broadcast positive' +
              ('' if got == want else f'; first difference at {first_difference(got, want)}'))
        # a lookup in the past interpolates: the newer transform is named
        # too; a lookup of the latest reads one
        newer = [(r['lookup'], r['newer_stamp'], next_sent(int(r['stamp']))) for r in rows
                 if r['what'] == 'lookup' and int(r['pid']) == pid]
        off = [n for n in newer if n[1] != (str(n[2]) if n[0] == 'odom<-base_link' else '')]
        check(bool(newer) and not off,
              f'latency tf: the {sum(1 for n in newer if n[1])} lookups in the past name the '
              'transform tf2 interpolated with (the next one sent), the others none' +
              (f'; {len(off)} differ, e.g. {off[:2]}' if off else ''))
        mine = [r for r in rows if r['what'] == 'lookup' and int(r['pid']) == pid]
        if late:
            # the lookups of a run that began before the recording are in none
            placed = [int(r['lookup_ns']) for r in mine if r['lookup_callback']]
            mine = [r for r in mine if placed and int(r['lookup_ns']) >= min(placed)]
        runs = {(r['send_callback'], r['lookup_callback']) for r in mine}
        check(runs == {('/odometry/callback_0', '/planner/callback_0')},
              f'latency tf: each lookup depends on a run of /odometry\'s subscription, made '
              f'in a run of /planner\'s timer ({sorted(runs)})')
if '--caret' in sys.argv:
    # chains through tf: /wheels -> [/wheel_odom] -> /odometry -> [tf] -> /planner
    found = subprocess.run([caret, 'path', 'search', '--from', '/wheels', '--to', '/planner',
                            trace], capture_output=True, text=True).stdout
    check('-> /odometry -> [tf:odom->base_link] -> /planner' in found,
          f'path search finds the chain through tf: {found.splitlines()[:1]}')
    records = os.path.join(os.path.dirname(os.path.abspath(trace)), 'tf-path.csv')
    subprocess.run([caret, 'path', 'latency', '--nodes', '/wheels,/odometry,/planner',
                    '--records', records, trace], check=True, capture_output=True)
    rows = list(csv.DictReader(open(records)))
    os.remove(records)
    reached = [r for r in rows if r['latency_ns']]
    hop = [int(r['topic tf:odom->base_link']) for r in reached]
    want = len({read(w[2]) for v in lookups.values() for w in v})
    check((len(reached) <= want if late else len(reached) == want) and bool(reached) and
          all(h > 0 for h in hop),
          f'path latency through tf: {len(reached)} wheel messages reach /planner, one per '
          f'transform the lookups read ({want}), the tf hop positive')
if '--caret' in sys.argv:
    # the architecture file: the tf links' two ends, and a named path through
    # tf that path latency takes as it takes --nodes
    import yaml
    arch = os.path.join(os.path.dirname(os.path.abspath(trace)), 'tf-arch.yaml')
    subprocess.run([caret, 'arch', '-o', arch, trace], check=True, capture_output=True)
    doc = yaml.safe_load(open(arch))
    nodes = {n['node_name']: n for n in doc['nodes']}
    edge = {'frame_id': 'odom', 'child_frame_id': 'base_link'}
    sent = nodes.get('/odometry', {}).get('tf_broadcasts')
    read_by = nodes.get('/planner', {}).get('tf_lookups')
    others = [n for n in nodes if n not in ('/odometry', '/planner') and
              ('tf_broadcasts' in nodes[n] or 'tf_lookups' in nodes[n])]
    check(sent == [dict(edge, callback_names=['/odometry/callback_0'])] and
          read_by == [dict(edge, callback_names=['/planner/callback_0'])] and not others,
          f'arch: /odometry tf_broadcasts {sent}, /planner tf_lookups {read_by}, '
          f'no other node with tf keys {others}')
    doc['named_paths'] = [{'path_name': 'through_tf', 'node_chain': [
        {'node_name': '/wheels', 'publish_topic_name': '/wheel_odom',
         'subscribe_topic_name': 'UNDEFINED'},
        {'node_name': '/odometry', 'subscribe_topic_name': '/wheel_odom',
         'publish_topic_name': 'tf:odom->base_link'},
        {'node_name': '/planner', 'subscribe_topic_name': 'tf:odom->base_link',
         'publish_topic_name': 'UNDEFINED'}]}]
    yaml.safe_dump(doc, open(arch, 'w'), sort_keys=False)
    checked = subprocess.run([caret, 'arch', '--check', arch], capture_output=True, text=True)
    by_arch = subprocess.run([caret, 'path', 'latency', '--arch', arch, '--path', 'through_tf',
                              '--format', 'csv', trace], capture_output=True, text=True)
    by_nodes = subprocess.run([caret, 'path', 'latency', '--nodes', '/wheels,/odometry,/planner',
                               '--format', 'csv', trace], capture_output=True, text=True)
    # with every runtime event kept in tables (by default, only the tf
    # events are), the same path, named and by its nodes; tf's latencies too
    kept = dict(os.environ, CARET_KEEP_EVENTS='1')
    for how in (['--arch', arch, '--path', 'through_tf'], ['--nodes', '/wheels,/odometry,/planner']):
        every = subprocess.run([caret, 'path', 'latency'] + how + ['--format', 'csv', trace],
                               capture_output=True, text=True, env=kept)
        check(every.returncode == 0 and every.stdout == by_nodes.stdout,
              f'path latency through tf ({how[0]}) with the runtime events kept gives the same: '
              f'{every.stdout.splitlines()[-1:] or every.stderr.strip()}')
    tf_kept, tf_lean = (subprocess.run([caret, 'latency', 'tf', '--format', 'csv', trace],
                                       capture_output=True, text=True, env=e)
                        for e in (kept, os.environ))
    check(tf_kept.returncode == 0 and tf_kept.stdout == tf_lean.stdout and
          'lookup' in tf_lean.stdout,
          'latency tf with every runtime event kept gives the same as with the tf events alone')
    check(checked.returncode == 0 and by_arch.returncode == 0 and
          by_arch.stdout == by_nodes.stdout and 'tf:odom->base_link' in by_arch.stdout,
          f'arch: the file checks ({checked.stdout.strip() or checked.stderr.strip()}); its '
          f'named path through tf gives what --nodes gives: '
          f'{by_arch.stdout.splitlines()[-1:] or by_arch.stderr.strip()}')
    if '--original' in sys.argv:
        # the original's reader passes over our tf keys and loads the rest
        anchor = sys.argv[sys.argv.index('--original') + 1]
        probe = ('import atexit, logging, os, shutil, sys, tempfile\n'
                 'os.chdir(tempfile.mkdtemp())\n'  # its logging opens ./caret.log
                 'atexit.register(shutil.rmtree, os.getcwd(), True)\n'
                 'logging.disable(logging.CRITICAL)\n'
                 'from caret_analyze import Architecture\n'
                 'a = Architecture("yaml", sys.argv[1])\n'
                 'print(" ".join(sorted(a.node_names)))\n')
        loaded = subprocess.run(['/usr/bin/python3', '-c', probe, arch], capture_output=True,
                                text=True, env=dict(os.environ, PYTHONPATH=anchor))
        names = (loaded.stdout.strip().splitlines() or [''])[-1]
        check(loaded.returncode == 0 and '/planner' in names.split(),
              f'arch: the original loads the file: nodes {names} '
              f'{loaded.stderr.strip().splitlines()[-1:]}')
    os.remove(arch)
print(f'{failures} failures')
sys.exit(1 if failures else 0)
