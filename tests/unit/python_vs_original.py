#!/usr/bin/env python3
"""caret_c (python/, over libcaret-analyze's C API) against the original
CARET analyzer (shared/anchors: caret_analyze 0.7.3) on one trace: every
DataFrame the original gives must be caret_c's, equal in columns, dtypes,
row order and every value.

- every callback of the original's application: to_dataframe();
- every communication (topic, publishing node, subscribing node);
- every node path (node, subscribed topic, published topic), those the
  original computes nothing for too (both empty);
- every path from a node that subscribes to nothing to a node that
  publishes nothing (the original's search, as original_vs_caret.py),
  found by both searches and added under the same name, with and without
  the first and the last callback, and its four response-time cases
  (ResponseTime's all, best, worst, worst with external latency); and
  the same paths from the original's own architecture file (its export,
  read by caret_c's Architecture('yaml')); and that file again with every
  message context made use_latest_message, then inherit_unique_stamp:
  each node path with a context and each named path (both flags' four
  combinations), both reading the file.

What only caret-c has is a documented decision that this script names
(docs/dev/original-architecture.md). A plain ros2_tracing trace, which
the original refuses, is compared with its validate=False.

usage: PYTHONPATH=ANCHOR:PYTHON python_vs_original.py TRACE
                         [--strip L R | --window OFFSET DURATION] [--no-path]
--no-path: the system has no path from a source to a sink (a service
alone); without it, a trace with no path fails, lest nothing be compared.
Prints one "ok ..." or "FAIL ..." line per DataFrame; exit 1 on a FAIL.
"""
import logging
import os
import shutil
import sys
import tempfile
import warnings

import yaml

trace = os.path.abspath(sys.argv[1])
work = tempfile.mkdtemp()
os.chdir(work)  # the original's logging config opens ./caret.log
logging.getLogger().setLevel(logging.ERROR)
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    import caret_analyze as original  # noqa: E402
    from caret_analyze.infra.lttng.lttng_event_filter import LttngEventFilter  # noqa: E402
    from caret_analyze.exceptions import InvalidTraceFormatError  # noqa: E402
    from caret_analyze.record import ResponseTime  # noqa: E402
import caret_c  # noqa: E402
import caret_c.record  # noqa: E402
from python_api_compare import Checks, quiet  # noqa: E402

checks = Checks()
report, compare = checks.report, checks.compare


def window(module_filter):
    if '--strip' in sys.argv:
        k = sys.argv.index('--strip')
        return [module_filter.strip_filter(float(sys.argv[k + 1]), float(sys.argv[k + 2]))]
    if '--window' in sys.argv:
        k = sys.argv.index('--window')
        offset, duration = float(sys.argv[k + 1]), float(sys.argv[k + 2])
        return [module_filter.duration_filter(duration, offset)]
    return []


def node_path(app, node, sub, pub):
    """caret_c's node path (node, sub, pub); None topics too (the
    original's get_node_path takes strings only)."""
    for p in app.node_paths:
        if (p.node_name, p.subscribe_topic_name, p.publish_topic_name) == (node, sub, pub):
            return p
    raise caret_c.CaretError(f'no node path {node}: {sub} -> {pub}', 'not found')


# ---- both, on the same trace (the original on a copy: it writes a cache) -----
copy = os.path.join(work, 'trace')
shutil.copytree(trace, copy)
refused = None
try:
    lt = quiet(original.Lttng, copy, force_conversion=True, event_filters=window(LttngEventFilter))
except InvalidTraceFormatError as e:
    refused = str(e)
    print(f'note: the original refuses this trace ("{refused}"); compared with validate=False')
    lt = quiet(original.Lttng, copy, force_conversion=True, validate=False,
               event_filters=window(LttngEventFilter))
arch = quiet(original.Architecture, 'lttng', copy)
app = quiet(original.Application, arch, lt)
ours_lttng = caret_c.Lttng(trace, event_filters=window(caret_c.LttngEventFilter))
ours_arch = caret_c.Architecture('lttng', trace)
ours = caret_c.Application(ours_arch, ours_lttng)

# ---- callbacks ----------------------------------------------------------------
theirs_cbs = {cb.callback_name for cb in app.callbacks}
for cb in app.callbacks:
    try:
        mine = ours.get_callback(cb.callback_name).to_dataframe()
    except caret_c.CaretError as e:
        report(False, f'callback {cb.callback_name}: not in caret_c ({e})')
        continue
    compare(f'callback {cb.callback_name}', quiet(cb.to_dataframe), mine)
PLAIN = ' (a plain ros2_tracing trace: the original refuses it and, told not to check, finds ' \
    'no callback without callback groups; caret-c analyzes it: docs/dev/original-architecture.md)'
for cb in ours.callbacks:
    if cb.callback_name not in theirs_cbs:
        report(bool(refused), f'callback {cb.callback_name}: only in caret_c' +
               (PLAIN if refused else ''))

# ---- communications -----------------------------------------------------------
key = lambda c: (c.topic_name, c.publish_node_name, c.subscribe_node_name)  # noqa: E731
theirs_comms = set()
for comm in app.communications:
    theirs_comms.add(key(comm))
    try:
        mine = ours.get_communication(comm.publish_node_name, comm.subscribe_node_name,
                                      comm.topic_name).to_dataframe()
    except caret_c.CaretError as e:
        report(False, f'communication {key(comm)}: not in caret_c ({e})')
        continue
    compare('communication {} {} -> {}'.format(*key(comm)), quiet(comm.to_dataframe), mine)
for comm in ours.communications:
    if key(comm) not in theirs_comms:
        report(bool(refused), 'communication {} {} -> {}: only in caret_c'.format(*key(comm)) +
               (PLAIN if refused else ''))

# ---- node paths ---------------------------------------------------------------
for path in app.node_paths:
    k = (path.node_name, path.subscribe_topic_name, path.publish_topic_name)
    try:
        mine = node_path(ours, *k).to_dataframe()
    except caret_c.CaretError as e:
        report(False, f'node path {k}: not in caret_c ({e})')
        continue
    compare('node path {} {} -> {}'.format(*k), quiet(path.to_dataframe), mine)

# ---- paths --------------------------------------------------------------------
sources = [n.node_name for n in arch.nodes
           if n.publishers and not [s for s in n.subscriptions if s.callback_name]]
sinks = [n.node_name for n in arch.nodes if n.subscriptions and not n.publishers]
named = []
for src in sources:
    for dst in sinks:
        theirs_found = quiet(arch.search_paths, src, dst)
        ours_found = ours_arch.search_paths(src, dst)
        chains = lambda ps: sorted((tuple(p.node_names), tuple(p.topic_names))  # noqa: E731
                                   for p in ps)
        report(chains(theirs_found) == chains(ours_found),
               f'search {src} -> {dst}: {len(theirs_found)} paths' +
               ('' if chains(theirs_found) == chains(ours_found) else
                f'\n  original: {chains(theirs_found)}\n  caret_c:  {chains(ours_found)}'))
        for p in theirs_found:
            name = f'path_{len(named)}'
            arch.add_path(name, p)
            mine = [q for q in ours_found if (q.node_names, q.topic_names) ==
                    (tuple(p.node_names), tuple(p.topic_names))]
            if mine:
                ours_arch.add_path(name, mine[0])
                named.append((name, ' -> '.join(p.node_names)))
app = quiet(original.Application, arch, lt)
ours = caret_c.Application(ours_arch, ours_lttng)
for name, label in named:
    theirs_path, our_path = app.get_path(name), ours.get_path(name)
    for first in (False, True):
        for last in (False, True):
            theirs_path.include_first_callback, theirs_path.include_last_callback = first, last
            our_path.include_first_callback, our_path.include_last_callback = first, last
            span = f'first={int(first)} last={int(last)}'
            compare(f'path {label} {span}', quiet(theirs_path.to_dataframe),
                    our_path.to_dataframe())
            theirs_rt = ResponseTime(quiet(theirs_path.to_records))
            ours_rt = caret_c.record.ResponseTime(our_path.to_records())
            for case in ('all', 'best_case', 'worst_case', 'worst_with_external_latency_case'):
                method = f'to_{case}_records'
                compare(f'path {label} {span} response time ({case})',
                        quiet(lambda: getattr(theirs_rt, method)().to_dataframe()),
                        getattr(ours_rt, method)().to_dataframe())
# ---- the original's own architecture file, read by caret_c ----------------------
# (Architecture('yaml'): its named paths, found in the trace's records)
if named:
    theirs_file = os.path.join(work, 'theirs.yaml')
    quiet(arch.export, theirs_file, force=True)
    from_file = caret_c.Application(caret_c.Architecture('yaml', theirs_file), ours_lttng)
    report(sorted(from_file.path_names) == sorted(n for n, _ in named) and
           [c.callback_name for c in from_file.callbacks] == [c.callback_name for c in
                                                              app.callbacks],
           f"Architecture('yaml') of the original's export: {len(from_file.path_names)} named "
           f'paths, {len(from_file.callbacks)} callbacks')
    for name, label in named:
        theirs_path, our_path = app.get_path(name), from_file.get_path(name)
        theirs_path.include_first_callback = theirs_path.include_last_callback = True
        our_path.include_first_callback = our_path.include_last_callback = True
        compare(f"path {label} from the original's file, first=1 last=1",
                quiet(theirs_path.to_dataframe), our_path.to_dataframe())

# ---- the other message contexts: the original's file with its nodes' ----------
# callback_chain contexts made use_latest_message, then inherit_unique_stamp
# (both read it: every node path with a context, every named path)
for kind in ('use_latest_message', 'inherit_unique_stamp') if named else ():
    with open(theirs_file) as f:
        doc = yaml.safe_load(f)
    contexts = [c for n in doc['nodes'] for c in n.get('message_contexts') or []]
    for c in contexts:
        c['context_type'] = kind
    kind_file = os.path.join(work, f'{kind}.yaml')
    with open(kind_file, 'w') as f:
        yaml.safe_dump(doc, f, sort_keys=False)
    theirs_app = quiet(original.Application, quiet(original.Architecture, 'yaml', kind_file), lt)
    ours_app = caret_c.Application(caret_c.Architecture('yaml', kind_file), ours_lttng)
    with_context = [p for p in theirs_app.node_paths if p.message_context is not None]
    report(len(with_context) == len(contexts),
           f'{kind}: {len(with_context)} node paths with a context, {len(contexts)} in the file')
    for path in with_context:
        k = (path.node_name, path.subscribe_topic_name, path.publish_topic_name)
        compare('{} node path {} {} -> {}'.format(kind, *k), quiet(path.to_dataframe),
                node_path(ours_app, *k).to_dataframe())
    for name, label in named:
        theirs_path, our_path = theirs_app.get_path(name), ours_app.get_path(name)
        for first in (False, True):
            for last in (False, True):
                theirs_path.include_first_callback = our_path.include_first_callback = first
                theirs_path.include_last_callback = our_path.include_last_callback = last
                compare(f'{kind} path {label} first={int(first)} last={int(last)}',
                        quiet(theirs_path.to_dataframe), our_path.to_dataframe())
if not refused and not named and '--no-path' not in sys.argv:
    report(False, 'no path from a node that subscribes to nothing to one that publishes nothing')
shutil.rmtree(work)
print(f'{checks.frames} DataFrames compared, {checks.failures} differences from the original')
sys.exit(1 if checks.failures else 0)
