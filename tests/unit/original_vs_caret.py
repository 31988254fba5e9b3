#!/usr/bin/env python3
"""The original CARET analyzer (shared/anchors: caret_analyze 0.7.3) as the
oracle: on one trace, caret-c must give the original's answers.

- architecture: `caret arch` writes the original's export (names, objects,
  order, keys; compared parsed, named paths aside);
- every callback the original reports: `caret latency callbacks`, same
  name, count, min, mean, p50, p99, max;
- every communication (topic, subscriber callback): the latencies of
  `caret latency topics --records` for it, same statistics;
- every node path the original computes (callback_chain): `caret latency
  nodes`, same statistics;
- every path from a node that subscribes to nothing to a node that
  publishes nothing (the original's search): `caret path latency --arch`
  on the original's own architecture file naming it, the end-to-end
  latency and the four response-time cases, for the four spans.

Rows only caret-c has are the documented decisions (docs/dev/
original-architecture.md): callbacks of services and of the ignored
topics, node paths of subscription callbacks the original leaves
UNDEFINED. Everything else must be equal: count, min and max exactly,
mean and percentiles to 1e-9 relative.

usage: PYTHONPATH=ANCHOR original_vs_caret.py CARET TRACE [--architecture-only]
                         [--strip L R | --window OFFSET DURATION]
Prints one "ok ..." or "FAIL ..." line per comparison; exit 1 on a FAIL.
--strip L R: the original's strip_filter(L, R) and caret-c's --strip-start
L --strip-end R; --window OFFSET DURATION: its duration_filter(DURATION,
OFFSET) and --since OFFSET --until OFFSET+DURATION (seconds).
--architecture-only: the architecture file alone (a system where the
original's numbers are known to be wrong: a callback running in two
threads at once, whose starts and ends it pairs across the threads).
"""
import csv
import io
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from collections import defaultdict

import numpy
import yaml

caret, trace = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
work = tempfile.mkdtemp()
# The original's logging config opens ./caret.log where it is imported.
os.chdir(work)
logging.getLogger().setLevel(logging.ERROR)
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    from caret_analyze import Application, Architecture, Lttng  # noqa: E402
    from caret_analyze.infra.lttng.lttng_event_filter import LttngEventFilter  # noqa: E402
    from caret_analyze.exceptions import InvalidTraceFormatError  # noqa: E402
    from caret_analyze.record import ResponseTime  # noqa: E402

failures = 0
# the time window, for both
filters, window = [], []
if '--strip' in sys.argv:
    k = sys.argv.index('--strip')
    left, right = float(sys.argv[k + 1]), float(sys.argv[k + 2])
    filters = [LttngEventFilter.strip_filter(left, right)]
    window = ['--strip-start', str(left), '--strip-end', str(right)]
if '--window' in sys.argv:
    k = sys.argv.index('--window')
    offset, duration = float(sys.argv[k + 1]), float(sys.argv[k + 2])
    filters = [LttngEventFilter.duration_filter(duration, offset)]
    window = ['--since', str(offset), '--until', str(offset + duration)]
LABELS = ('count', 'min', 'mean', 'p50', 'p99', 'max')


def report(ok, what):
    global failures
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} {what}")


def stats(values):
    v = numpy.array(values, dtype=numpy.int64)
    if len(v) == 0:
        return (0, 0, 0.0, 0.0, 0.0, 0)
    p50, p99 = numpy.percentile(v, [50, 99])
    return (len(v), int(v.min()), float(v.mean()), float(p50), float(p99), int(v.max()))


def of_row(row, first):
    """count, min, mean, p50, p99, max of a caret CSV row whose count is at
    row[first] (then min, mean, p50, p90, p99, max)."""
    c, mn, mean, p50, _, p99, mx = row[first:first + 7]
    return (int(c), int(mn), float(mean), float(p50), float(p99), int(mx))


def same(a, b):
    return a[0] == b[0] and a[1] == b[1] and a[5] == b[5] and all(
        abs(x - y) <= 1e-9 * max(1.0, abs(x)) for x, y in zip(a[2:5], b[2:5]))


def compare(what, theirs, ours):
    if ours is None and theirs[0] == 0:
        report(True, f'{what}: no instance in either')
    elif ours is None:
        report(False, f'{what}: not in caret-c (original: {theirs[0]} instances)')
    elif same(theirs, ours):
        report(True, f'{what}: {ours[0]} instances, mean {ours[2]:.1f} ns')
    else:
        report(False, f'{what}: differs\n  original: ' +
               ' '.join(f'{k}={v}' for k, v in zip(LABELS, theirs)) + '\n  caret-c:  ' +
               ' '.join(f'{k}={v}' for k, v in zip(LABELS, ours)))


def run(*args):
    return subprocess.run([caret, *args, *window, trace], check=True, capture_output=True,
                          text=True).stdout


def csv_rows(text):
    return list(csv.reader(io.StringIO(text)))[1:]


def latencies(df):
    df = df.dropna()
    return (df.iloc[:, -1] - df.iloc[:, 0]).astype('int64').to_numpy() if len(df) else []


# ---- the original, on a copy (it writes a cache into the trace) ----------
copy = os.path.join(work, 'trace')
shutil.copytree(trace, copy)
os.chmod(copy, 0o755)
refused = None
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    try:
        lttng = Lttng(copy, force_conversion=True, event_filters=filters)
    except InvalidTraceFormatError as e:
        # plain ros2_tracing: the original refuses such a trace unless told
        # not to check it; what it then computes is compared all the same
        refused = str(e)
        print(f'note: the original refuses this trace ("{refused}"); compared with '
              'validate=False')
        lttng = Lttng(copy, force_conversion=True, validate=False, event_filters=filters)
    arch = Architecture('lttng', copy)
    app = Application(arch, lttng)

# ---- architecture names ------------------------------------------------------
theirs_yaml, ours_yaml = os.path.join(work, 'theirs.yaml'), os.path.join(work, 'ours.yaml')
arch.export(theirs_yaml, force=True)
subprocess.run([caret, 'arch', '-o', ours_yaml, trace], check=True)
with open(theirs_yaml) as f:
    a = yaml.safe_load(f)
with open(ours_yaml) as f:
    b = yaml.safe_load(f)
a['named_paths'] = b['named_paths'] = []
detail = ''
for key in ('executors', 'nodes'):
    if len(a[key]) != len(b[key]):
        detail += f'\n  {key}: {len(b[key])} in caret-c, {len(a[key])} in the original'
    for x, y in zip(a[key], b[key]):
        if x != y:
            detail += f'\n  first difference in {key}:\n    original: {x}\n    caret-c:  {y}'
            break
report(a == b, f'architecture: {len(a["executors"])} executors, {len(a["nodes"])} nodes, '
       'the same names, objects and keys' + detail)

if '--architecture-only' in sys.argv:
    shutil.rmtree(work)
    print(f'{failures} differences from the original (architecture only)')
    sys.exit(1 if failures else 0)

# ---- callbacks -------------------------------------------------------------
ours = {r[0]: of_row(r, 1) for r in csv_rows(run('latency', 'callbacks', '--format', 'csv'))}
theirs = {}
for cb in app.callbacks:
    theirs[cb.callback_name] = stats(latencies(cb.to_dataframe()))
    compare(f'callback {cb.callback_name}', theirs[cb.callback_name], ours.get(cb.callback_name))
PLAIN = ' (a plain ros2_tracing trace: the original refuses it, and finds no callback ' \
    'without callback groups; caret-c analyzes it)'
for name in sorted(set(ours) - set(theirs)):
    hidden = '/service_callback_' in name or '/ignored_callback_' in name or \
        name.startswith('/caret_trace_')
    report(hidden or refused, f'callback {name}: only in caret-c' + (
        ' (a service or an ignored topic: the original leaves it out)' if hidden else
        PLAIN if refused else ''))

# ---- communications --------------------------------------------------------
records = os.path.join(work, 'topics.csv')
run('latency', 'topics', '--format', 'csv', '--records', records)
ours = defaultdict(list)
with open(records) as f:
    for r in csv.DictReader(f):
        ours[(r['topic'], r['callback'])].append(int(r['latency_ns']))
theirs = set()
for comm in app.communications:
    sub = comm.callback_subscription
    key = (comm.topic_name, sub.callback_name if sub else '')
    theirs.add(key)
    mine = ours.get(key)
    compare(f'communication {key[0]} -> {key[1]}', stats(latencies(comm.to_dataframe())),
            stats(mine) if mine else None)
for key in sorted(set(ours) - theirs):
    hidden = '/ignored_callback_' in key[1] or key[1].startswith('/caret_trace_')
    report(hidden or refused, f'communication {key[0]} -> {key[1]}: only in caret-c' + (
        ' (an ignored topic)' if hidden else PLAIN if refused else ''))

# ---- node paths ------------------------------------------------------------
ours = {(r[0], r[1], r[2]): of_row(r, 3)
        for r in csv_rows(run('latency', 'nodes', '--format', 'csv'))}
for path in app.node_paths:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        df = path.to_dataframe()
    if not len(df.columns):
        continue  # no message context: the original computes nothing
    key = (path.callbacks[0].callback_name, path.subscribe_topic_name, path.publish_topic_name)
    compare(f'node path {key[0]} {key[1]} -> {key[2]}', stats(latencies(df)), ours.get(key))

# ---- paths -----------------------------------------------------------------
nodes = arch.nodes
sources = [n.node_name for n in nodes
           if n.publishers and not [s for s in n.subscriptions if s.callback_name]]
sinks = [n.node_name for n in nodes if n.subscriptions and not n.publishers]
named = []
for src in sources:
    for dst in sinks:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            found = arch.search_paths(src, dst)
        for i, p in enumerate(found):
            name = f'path_{len(named)}'
            arch.add_path(name, p)
            named.append((name, f'{src} -> {dst} #{i}'))
paths_yaml = os.path.join(work, 'paths.yaml')
arch.export(paths_yaml, force=True)
app = Application(arch, lttng)
for name, label in named:
    path = app.get_path(name)
    for first in (False, True):
        for last in (False, True):
            path.include_first_callback, path.include_last_callback = first, last
            flags = ['--include-first-callback'] * first + ['--include-last-callback'] * last
            rows = {r[0]: of_row(r, 1) for r in csv_rows(run(
                'path', 'latency', '--arch', paths_yaml, '--path', name, *flags,
                '--format', 'csv')) if len(r) == 8 and r[2]}
            span = f'first={int(first)} last={int(last)}'
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                compare(f'path {label} {span} end to end', stats(latencies(path.to_dataframe())),
                        rows.get('end to end'))
                rt = ResponseTime(path.to_records())
                for case, method in (('all', rt.to_all_records),
                                     ('best', rt.to_best_case_records),
                                     ('worst', rt.to_worst_case_records),
                                     ('worst-with-external-latency',
                                      rt.to_worst_with_external_latency_case_records)):
                    row = f'response time ({case})'
                    compare(f'path {label} {span} {row}',
                            stats(method().to_dataframe()['response_time'].to_numpy()),
                            rows.get(row))
if not named:
    print(f'(no path from a node that subscribes to nothing to one that publishes nothing)')
shutil.rmtree(work)
print(f'{failures} differences from the original')
sys.exit(1 if failures else 0)
