#!/usr/bin/env python3
"""caret_c's notebook API beyond the DataFrames python_vs_original.py
compares, against the original caret_analyze 0.7.3 (shared/anchors) on
the shared real Humble traces (shared/data/real-humble; the original on a
copy of each, it writes a cache):

- Lttng: get_trace_range, get_trace_creation_datetime; its errors;
- Architecture: the exported file (byte for byte), the names, summaries,
  search_paths (order and depth), combine_path, check_procedure, the
  diff_* helpers, every edit (update_message_context,
  insert/remove_publisher_callback, insert/remove_variable_passing,
  renames) followed by the file, the node paths and the DataFrames;
- Application: the names, get_* with their near-name suggestions,
  get_callbacks' wildcards, runtime objects' properties, and the
  DataFrames of callbacks, communications, subscriptions, node paths and
  paths under to_dataframe's options, with to_timeseries, to_histogram
  and column_names;
- the exceptions of the calls the CARET docs make, class and message;
- with no trace (python_api_synthetic.py): seeded frames with drops and
  ties, and the docs' /pong_node edits.

A path through a node whose context the original leaves undefined is
compared with caret_c's undefined_message_context='stop' (the original's
shorter DataFrame); caret_c's default (followed) must say so once.
What the original gets wrong after rename_node / rename_topic (the path
and communication lost) is checked as caret_c's right answer instead.

usage: python_api_vs_original.py SHARED_DIR   (PYTHONPATH: caret_c)
Prints one "ok ..." or "FAIL ..." line per check; exit 1 on a FAIL."""
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

shared = os.path.abspath(sys.argv[1])
work = tempfile.mkdtemp()
subprocess.run(['tar', '--zstd', '-xf', os.path.join(shared, 'anchors',
                                                     'caret_analyze-0.7.3.tar.zst'),
                '-C', work], check=True)
sys.path.insert(0, work)
os.chdir(work)  # the original's logging config opens ./caret.log
logging.getLogger().setLevel(logging.ERROR)
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    import caret_analyze as original  # noqa: E402
    from caret_analyze.infra.lttng.lttng_event_filter import LttngEventFilter  # noqa: E402
import caret_c  # noqa: E402
from python_api_compare import Checks, Pair, node_paths_of, quiet  # noqa: E402
from python_api_synthetic import synthetic_architecture, synthetic_frames  # noqa: E402

checks = Checks()
TRACES = ['caret-fork-inter', 'caret-fork-intra', 'caret-upstream-inter']
SPANS = [(False, False), (True, False), (False, True), (True, True)]
OPTIONS = [{}, {'remove_dropped': True}, {'treat_drop_as_delay': True},
           {'lstrip_s': 0.5, 'rstrip_s': 0.7}, {'remove_dropped': True, 'lstrip_s': 1}]


def copy_of(trace):
    dst = os.path.join(work, trace + '-' + str(len(os.listdir(work))))
    shutil.copytree(os.path.join(shared, 'data', 'real-humble', trace), dst)
    return dst


def same(what, f, pair):
    checks.same(what, *pair.both(f))


def raises(what, pair, f, message=True):
    checks.same_exception(what, lambda: f(pair.theirs), lambda: f(pair.ours), message)


def open_pair(trace, filters=()):
    lt = Pair(quiet(original.Lttng, copy_of(trace), force_conversion=True,
                    event_filters=[f(LttngEventFilter) for f in filters]),
              caret_c.Lttng(os.path.join(shared, 'data', 'real-humble', trace),
                            event_filters=[f(caret_c.LttngEventFilter) for f in filters]))
    return lt


def arch_pair(trace, lt):
    return Pair(quiet(original.Architecture, 'lttng', copy_of(trace)),
                quiet(caret_c.Architecture, 'lttng', lt.ours.trace_dirs[0]))


def app_pair(arch, lt, **ours):
    return Pair(quiet(original.Application, arch.theirs, lt.theirs),
                quiet(caret_c.Application, arch.ours, lt.ours, **ours))


def exported(what, arch):
    return checks.same_export(what, arch, work)


# ---- DataFrames and what is made of them ------------------------------------------------
def frames(what, pair, ties=True):
    """Every to_dataframe option, column_names, to_timeseries and
    to_histogram of the pair of objects."""
    for opts in OPTIONS:
        label = ', '.join(f'{k}={v}' for k, v in opts.items()) or 'defaults'
        theirs, ours = pair.both(lambda o: o.to_dataframe(**opts))
        checks.compare(f'{what} to_dataframe({label})', theirs, ours, ties=ties,
                       index=opts.get('remove_dropped', False))
    same(f'{what} column_names', lambda o: o.column_names, pair)
    for dropped in (False, True):
        try:
            theirs = quiet(pair.theirs.to_timeseries, remove_dropped=dropped)
        except original.exceptions.Error:
            checks.same_exception(f'{what} to_timeseries(remove_dropped={dropped})',
                                  lambda: pair.theirs.to_timeseries(remove_dropped=dropped),
                                  lambda: pair.ours.to_timeseries(remove_dropped=dropped))
            continue
        ours = pair.ours.to_timeseries(remove_dropped=dropped)
        if not ties or len(set(theirs[0])) == len(theirs[0]):
            for k, name in enumerate(('t', 'latency')):
                checks.same_arrays(f'{what} to_timeseries(remove_dropped={dropped}) {name}',
                                   theirs[k], ours[k])
    for binsize in (1000000, 100000):
        try:
            theirs = quiet(pair.theirs.to_histogram, binsize)
        except Exception:
            checks.same_exception(f'{what} to_histogram({binsize})',
                                  lambda: pair.theirs.to_histogram(binsize),
                                  lambda: pair.ours.to_histogram(binsize))
            continue
        ours = pair.ours.to_histogram(binsize)
        checks.same_arrays(f'{what} to_histogram({binsize}) counts', theirs[0], ours[0])
        checks.same_arrays(f'{what} to_histogram({binsize}) edges', theirs[1], ours[1])


def path_frames(what, app, name, spans=SPANS, options=True):
    pair = Pair(app.theirs.get_path(name), app.ours.get_path(name))
    for first, last in spans:
        for p in (pair.theirs, pair.ours):
            p.include_first_callback, p.include_last_callback = first, last
        label = f'{what} path {name} first={int(first)} last={int(last)}'
        if options:
            frames(label, pair)
        else:
            checks.compare(label, *pair.both(lambda p: p.to_dataframe()), ties=True)


def node_path_pairs(app):
    ours = {(p.node_name, p.subscribe_topic_name, p.publish_topic_name): p
            for p in app.ours.node_paths}
    return [(k, Pair(p, ours[k])) for p in app.theirs.node_paths
            for k in [(p.node_name, p.subscribe_topic_name, p.publish_topic_name)]]


# ---- the checks ---------------------------------------------------------------------------
def lttng_checks(trace, lt):
    same(f'{trace} get_trace_range', lambda o: o.get_trace_range(), lt)
    same(f'{trace} get_trace_creation_datetime', lambda o: o.get_trace_creation_datetime(), lt)


def names_checks(trace, arch):
    for attr in ('node_names', 'executor_names', 'callback_group_names', 'topic_names',
                 'path_names'):
        same(f'{trace} arch.{attr}', lambda a: tuple(getattr(a, attr)), arch)
    same(f'{trace} arch.callbacks', lambda a: [c.callback_name for c in a.callbacks], arch)
    same(f'{trace} arch.communications', lambda a: [
        (c.topic_name, c.publish_node_name, c.subscribe_node_name, c.publish_callback_names,
         c.subscribe_callback_name) for c in a.communications], arch)
    same(f'{trace} arch.summary', lambda a: str(a.summary), arch)
    for kind in ('nodes', 'executors', 'callback_groups', 'communications', 'publishers',
                 'subscriptions', 'callbacks'):
        same(f'{trace} arch.{kind} summaries', lambda a: [str(x.summary)
                                                            for x in getattr(a, kind)], arch)
    same(f'{trace} node paths', node_paths_of, arch)


def search_checks(trace, arch):
    def found(*names, **kw):
        return lambda a: [(p.child_names, str(p.summary)) for p in a.search_paths(*names, **kw)]
    same(f'{trace} search_paths(/sensor, /sink)', found('/sensor', '/sink'), arch)
    same(f'{trace} search_paths(/sensor, /filter, /sink)', found('/sensor', '/filter', '/sink'),
         arch)
    same(f'{trace} search_paths max_node_depth=1', found('/sensor', '/sink', max_node_depth=1),
         arch)
    same(f'{trace} search_paths node_filter', found(
        '/sensor', '/sink', node_filter=lambda n: n != '/filter'), arch)
    same(f'{trace} search_paths communication_filter', found(
        '/sensor', '/sink', communication_filter=lambda t: t != '/topic_b'), arch)
    same(f'{trace} search_paths max_node_depth=20', found('/sensor', '/sink', max_node_depth=20),
         arch)
    raises(f'{trace} search_paths of an unknown node', arch,
           lambda a: a.search_paths('/sensor', '/nowhere'))
    raises(f"{trace} search_paths('/sensor' '/sink') (the docs' missing comma)", arch,
           lambda a: a.search_paths('/sensor' '/sink'))


def combine_checks(trace, arch, app_of):
    def combined(a):
        left = a.search_paths('/sensor', '/filter')[0]
        right = a.search_paths('/filter', '/sink')[0]
        return a.combine_path(left, right)
    same(f'{trace} combine_path', lambda a: (combined(a).child_names,
                                             str(combined(a).summary)), arch)
    raises(f'{trace} combine_path of paths that do not meet', arch, lambda a: a.combine_path(
        a.search_paths('/sensor', '/filter')[0], a.search_paths('/sensor', '/filter')[0]))
    for a in (arch.theirs, arch.ours):
        quiet(a.add_path, 'combined', quiet(combined, a))
    path_frames(f'{trace} combined', app_of(arch), 'combined', options=False)


def architecture_errors(trace, arch):
    raises(f'{trace} get_node of an unknown node', arch, lambda a: a.get_node('/nowhere'))
    raises(f'{trace} get_path of an unknown name', arch, lambda a: a.get_path('nowhere'))
    raises(f'{trace} remove_path of an unknown name', arch, lambda a: a.remove_path('nowhere'))
    raises(f'{trace} get_executor of an unknown name', arch, lambda a: a.get_executor('e'))
    raises(f'{trace} get_callback_group of an unknown name', arch,
           lambda a: a.get_callback_group('g'))
    raises(f'{trace} get_callback of an unknown name', arch, lambda a: a.get_callback('c'))
    raises(f'{trace} get_communication of an unknown one', arch,
           lambda a: a.get_communication('/sensor', '/sink', '/topic_a'))
    raises(f"{trace} update_message_context in the docs' order", arch,
           lambda a: a.update_message_context('/filter', '/topic_a', '/topic_b',
                                              'use_latest_message'))
    raises(f'{trace} update_message_context of an unknown node', arch,
           lambda a: a.update_message_context('/nowhere', 'use_latest_message', '/topic_a',
                                              '/topic_b'))
    raises(f'{trace} update_message_context of a topic the node does not take', arch,
           lambda a: a.update_message_context('/filter', 'use_latest_message', '/topic_b',
                                              '/topic_b'))
    raises(f"{trace} insert_publisher_callback as the docs call it (no construction order)",
           arch, lambda a: a.insert_publisher_callback('/filter', '/topic_b',
                                                       '/filter/callback_0'), message=False)
    raises(f'{trace} insert_publisher_callback of an unknown callback', arch,
           lambda a: a.insert_publisher_callback('/filter', '/topic_b', '/filter/x', 0))
    raises(f'{trace} insert_publisher_callback already there', arch,
           lambda a: a.insert_publisher_callback('/filter', '/topic_b', '/filter/callback_0', 0))
    raises(f'{trace} insert_variable_passing of an unknown callback', arch,
           lambda a: a.insert_variable_passing('/filter', '/filter/callback_0', '/filter/x'))
    raises(f'{trace} rename_callback of a near name', arch,
           lambda a: a.rename_callback('/sink/callback_1', '/x'))
    raises(f'{trace} rename_callback of an unknown name', arch,
           lambda a: a.rename_callback('zzz', '/x'))
    raises(f'{trace} rename_path of an unknown name', arch, lambda a: a.rename_path('p', 'q'))
    raises(f'{trace} rename_executor of a near name', arch,
           lambda a: a.rename_executor('executor', 'x'))
    for a in (arch.theirs, arch.ours):  # no such node or topic: nothing happens
        a.rename_node('/nowhere', '/x')
        a.rename_topic('/nowhere', '/x')
    existing = exported(f'{trace} after renames of nothing', arch)
    raises(f'{trace} export over a file', arch, lambda a: a.export(existing), message=False)
    for a in (arch.theirs, arch.ours):
        quiet(a.add_path, 'p', quiet(a.search_paths, '/sensor', '/sink')[0])
    raises(f'{trace} add_path of a name taken', arch, lambda a: a.add_path(
        'p', quiet(a.search_paths, '/sensor', '/sink')[0]))


def application_checks(trace, app):
    for attr in ('node_names', 'executor_names', 'callback_group_names', 'path_names',
                 'topic_names', 'callback_names'):
        same(f'{trace} app.{attr}', lambda a: list(getattr(a, attr)), app)
    same(f'{trace} app.summary', lambda a: str(a.summary), app)
    same(f'{trace} nodes', lambda a: [
        (n.node_name, [c.callback_name for c in n.callbacks or []], n.publish_topic_names,
         n.subscribe_topic_names, n.callback_group_names, str(n.summary),
         [(t.period_ns, t.callback_name) for t in n.timers],
         [(p.subscribe_topic_name, p.publish_topic_name) for p in n.paths])
        for n in a.nodes], app)
    same(f'{trace} executors', lambda a: [
        (e.executor_name, str(e.executor_type), e.callback_names, e.callback_group_names,
         str(e.summary)) for e in a.executors], app)
    same(f'{trace} callback groups', lambda a: [
        (g.callback_group_name, g.callback_group_type_name, g.node_name,
         [c.callback_name for c in g.callbacks]) for g in a.callback_groups], app)
    same(f'{trace} callbacks', lambda a: [
        (c.callback_name, c.node_name, str(c.callback_type), c.symbol, c.subscribe_topic_name,
         c.publish_topic_names, c.subscription and c.subscription.topic_name,
         [p.topic_name for p in c.publishers or []], c.timer and c.timer.period_ns,
         str(c.summary)) for c in a.callbacks], app)
    same(f'{trace} publishers', lambda a: [(p.node_name, p.topic_name, p.callback_names,
                                            str(p.summary)) for p in a.publishers], app)
    same(f'{trace} subscriptions', lambda a: [(s.node_name, s.topic_name, s.callback_name,
                                               str(s.summary)) for s in a.subscriptions], app)
    same(f'{trace} communications', lambda a: [
        (c.topic_name, c.publish_node_name, c.subscribe_node_name,
         [x.callback_name for x in c.callback_publish or []],
         c.callback_subscription.callback_name, c.is_intra_proc_comm, str(c.summary))
        for c in a.communications], app)
    for pattern in (['/filter/callback_0'], ['/filter/callback_?'], ['/filter/*'], ['/*'],
                    ['/nowhere*', '/sink/callback_1', '/sink/callback_0'], ['*callback_0']):
        same(f'{trace} get_callbacks{tuple(pattern)}',
             lambda a: [c.callback_name for c in a.get_callbacks(*pattern)], app)
    same(f'{trace} get_communications, get_publishers, get_subscriptions', lambda a: (
        [c.subscribe_node_name for c in a.get_communications('/topic_a')],
        [p.node_name for p in a.get_publishers('/topic_b')],
        [s.node_name for s in a.get_subscriptions('/topic_b')]), app)
    same(f'{trace} get_node_paths', lambda a: [
        (p.subscribe_topic_name, p.publish_topic_name) for p in a.get_node_paths('/filter')], app)
    for what, f in [('get_node of a near name', lambda a: a.get_node('/filte')),
                    ('get_node of an unknown name', lambda a: a.get_node('node_name')),
                    ('get_node of a number', lambda a: a.get_node(1)),
                    ('get_executor of a near name', lambda a: a.get_executor('executor_name')),
                    ('get_callback_group of a name', lambda a: a.get_callback_group('cbg_name')),
                    ('get_callback of a near name', lambda a: a.get_callback('/sink/callback_1')),
                    ('get_callback of a number', lambda a: a.get_callback(0)),
                    ('get_path of an unknown name', lambda a: a.get_path('target')),
                    ('get_communication of a near one', lambda a: a.get_communication(
                        '/sensor', '/sink', '/topic_a')),
                    ('get_communications of an unknown topic',
                     lambda a: a.get_communications('/topic_c')),
                    ('get_node_path of a near one', lambda a: a.get_node_path(
                        '/filter', '/topic_a', '/topic_c')),
                    ('get_node_paths of a near node', lambda a: a.get_node_paths('/filte'))]:
        raises(f'{trace} {what}', app, f)
    path = Pair(app.theirs.get_path('p'), app.ours.get_path('p'))
    same(f'{trace} path p', lambda p: (
        p.path_name, p.node_names, p.topic_names, p.child_names, str(p.summary),
        [n.node_name for n in p.node_paths], [c.topic_name for c in p.communications],
        [c.callback_name for c in p.callbacks], [c.callback_name for c in p.callback_chain],
        p.verify(), str(p)), path)


def frame_checks(trace, app):
    for cb in app.theirs.callbacks:
        frames(f'{trace} callback {cb.callback_name}',
               Pair(cb, app.ours.get_callback(cb.callback_name)))
    for c in app.theirs.communications:
        frames(f'{trace} communication {c.topic_name}', Pair(c, app.ours.get_communication(
            c.publish_node_name, c.subscribe_node_name, c.topic_name)))
    ours = {(s.node_name, s.topic_name): s for s in app.ours.subscriptions}
    for s in app.theirs.subscriptions:
        frames(f'{trace} subscription {s.node_name} {s.topic_name}',
               Pair(s, ours[(s.node_name, s.topic_name)]))
    for k, pair in node_path_pairs(app):
        if pair.theirs.message_context is not None:
            frames(f'{trace} node path {k}', pair)
    path_frames(trace, app, 'p')


# ---- edits --------------------------------------------------------------------------------
def edited(trace, lt, what, *edits, stop=False, frames_too=True):
    """Both architectures edited the same way: their files, node paths and
    paths' verify(); their node paths' and path p's DataFrames."""
    arch = arch_pair(trace, lt)
    for a in (arch.theirs, arch.ours):
        quiet(a.add_path, 'p', quiet(a.search_paths, '/sensor', '/sink')[0])
        for e in edits:
            quiet(e, a)
    label = f'{trace} {what}'
    exported(label, arch)
    same(f'{label}: node paths', node_paths_of, arch)
    # the original's named path keeps the node paths of when it was added:
    # its path found again is what caret_c's named path says
    again = quiet(arch.theirs.search_paths, '/sensor', '/sink')[0]
    checks.same(f'{label}: arch path p summary, verify()',
                (str(again.summary), quiet(again.verify)),
                (str(arch.ours.get_path('p').summary), quiet(arch.ours.get_path('p').verify)))
    if not frames_too:
        return arch
    app = app_pair(arch, lt, **({'undefined_message_context': 'stop'} if stop else {}))
    for k, pair in node_path_pairs(app):
        if k[0] == '/filter':
            checks.compare(f'{label}: node path {k}', *pair.both(lambda p: p.to_dataframe()),
                           ties=True)
    same(f'{label}: runtime path p verify()', lambda a: a.get_path('p').verify(), app)
    path_frames(label, app, 'p', options=False)
    return arch


def undefined_warning(trace, lt, *edits):
    """caret_c's default goes through the node (the path's every column)
    and says so, once."""
    arch = quiet(caret_c.Architecture, 'lttng', lt.ours.trace_dirs[0])
    quiet(arch.add_path, 'p', quiet(arch.search_paths, '/sensor', '/sink')[0])
    whole = len(caret_c.Application(arch, lt.ours).get_path('p').column_names)
    for e in edits:
        e(arch)
    path = caret_c.Application(arch, lt.ours).get_path('p')
    with warnings.catch_warnings(record=True) as told:
        warnings.simplefilter('always')
        df = path.to_dataframe()
        path.to_dataframe()
    said = [str(w.message) for w in told if issubclass(w.category, caret_c.CompatibilityWarning)]
    checks.report(len(said) == 1 and '/filter' in said[0] and 'stop' in said[0] and
                  len(df.columns) == whole, f'{trace} undefined context followed, said once: '
                  f'{said[0] if said else "nothing said"} ({len(df.columns)} columns)')


def edit_checks(trace, lt):
    remove = ('remove_publisher_callback', '/filter', '/topic_b', '/filter/callback_0', 0)
    insert = ('insert_publisher_callback', '/filter', '/topic_b', '/filter/callback_0', 0)

    def call(name, *args):
        return lambda a: getattr(a, name)(*args)
    for kind in ('use_latest_message', 'inherit_unique_stamp', 'callback_chain'):
        edited(trace, lt, f'update_message_context {kind}',
               call('update_message_context', '/filter', kind, '/topic_a', '/topic_b'))
    edited(trace, lt, 'remove_publisher_callback (undefined: stopped)', call(*remove), stop=True)
    undefined_warning(trace, lt, call(*remove))
    edited(trace, lt, 'remove_publisher_callback, update_message_context UNDEFINED', call(*remove),
           call('update_message_context', '/filter', 'UNDEFINED', '/topic_a', '/topic_b'),
           stop=True)
    edited(trace, lt, 'remove then insert_publisher_callback', call(*remove), call(*insert))
    edited(trace, lt, 'insert then remove_variable_passing',
           call('insert_variable_passing', '/filter', '/filter/callback_0', '/filter/callback_0'),
           call('remove_variable_passing', '/filter', '/filter/callback_0', '/filter/callback_0'))
    edited(trace, lt, 'rename_callback, rename_executor, rename_path',
           call('rename_callback', '/sink/callback_0', '/sink/cb'),
           lambda a: a.rename_executor(a.executor_names[0], 'ex'),
           call('rename_path', 'p', 'p'))
    renamed = edited(trace, lt, 'rename_node, rename_topic', call('rename_node', '/filter', '/f2'),
                     call('rename_topic', '/topic_b', '/t2'), frames_too=False)
    fresh = arch_pair(trace, lt)
    for what, f in [('diff_node_names', lambda m, a, b: m.diff_node_names(a, b)),
                    ('diff_topic_names', lambda m, a, b: m.diff_topic_names(a, b))]:
        checks.same(f'{trace} {what} (as sets)', *[
            tuple(sorted(x) for x in f(m, a, b)) for m, a, b in
            [(original.Architecture, fresh.theirs, renamed.theirs),
             (caret_c.Architecture, fresh.ours, renamed.ours)]])
    for what, f in [('diff_node_pubs', lambda m, a, b: m.diff_node_pubs(a, b)),
                    ('diff_node_subs', lambda m, a, b: m.diff_node_subs(a, b))]:
        checks.same(f'{trace} {what} (as sets)', *[
            tuple(sorted(x) for x in f(m, a.get_node('/filter'), a.get_node('/sink')))
            for m, a in [(original.Architecture, fresh.theirs),
                         (caret_c.Architecture, fresh.ours)]])
    renamed_frames(trace, lt, renamed.ours)
    procedure(trace, lt)


def renamed_frames(trace, lt, renamed):
    """After rename_node and rename_topic the original loses the path (its
    communications are looked up in the trace under the new names):
    caret_c's path is the path before the renames, under the new names."""
    before = quiet(caret_c.Architecture, 'lttng', lt.ours.trace_dirs[0])
    quiet(before.add_path, 'p', quiet(before.search_paths, '/sensor', '/sink')[0])
    for arch in (before, renamed):
        path = caret_c.Application(arch, lt.ours).get_path('p')
        path.include_first_callback = path.include_last_callback = True
        df = path.to_dataframe()
        if arch is before:
            expected = df.rename(columns=lambda c: c.replace('/topic_b/', '/t2/'))
        else:
            checks.compare(f'{trace} path p after rename_node, rename_topic (caret_c against '
                           'itself before the renames)', expected, df)


def procedure(trace, lt):
    arch = arch_pair(trace, lt)
    for a in (arch.theirs, arch.ours):
        quiet(a.update_message_context, '/filter', 'use_latest_message', '/topic_a', '/topic_b')
    file = exported(f'{trace} check_procedure input', arch)
    fresh = arch_pair(trace, lt)
    checks.same(f'{trace} check_procedure', *[
        [(p.subscribe_topic_name, p.publish_topic_name, p.callback_names,
          p.message_context and p.message_context.type_name) for p in quiet(f, 'yaml', file, a,
                                                                             '/filter')]
        for f, a in [(original.check_procedure, fresh.theirs),
                     (caret_c.check_procedure, fresh.ours)]])


def expanded_paths():
    """~ and $VARS in every path argument (docs/python.md's own
    Lttng('~/traces/run1'))."""
    home = os.environ.get('HOME')
    os.environ['HOME'] = work
    os.environ['CARET_API_TEST'] = work
    try:
        shutil.copytree(os.path.join(shared, 'data', 'real-humble', TRACES[0]),
                        os.path.join(work, 'traces', 'run1'))
        lt = caret_c.Lttng('~/traces/run1')
        arch = quiet(caret_c.Architecture, 'lttng', '$CARET_API_TEST/traces/run1')
        arch.export('~/run1.yaml', force=True)
        again = caret_c.Architecture('yaml', '${CARET_API_TEST}/run1.yaml')
        checks.report(lt.trace_dirs == [os.path.join(work, 'traces', 'run1')] and
                      again.node_names == arch.node_names,
                      "~ and $VARS expanded: Lttng('~/traces/run1'), Architecture('lttng', "
                      "'$VAR/...'), export('~/...'), Architecture('yaml', '${VAR}/...')")
    finally:
        os.environ['HOME'] = home


def constructor_errors():
    lt = Pair(original.Lttng, caret_c.Lttng)
    raises('Lttng([])', lt, lambda f: f([]))
    raises('Lttng of a missing directory', lt, lambda f: f(os.path.join(work, 'missing')))
    arch = Pair(original.Architecture, caret_c.Architecture)
    trace = os.path.join(shared, 'data', 'real-humble', TRACES[0])
    raises('Architecture of an unknown file type', arch, lambda f: f('json', trace))
    raises('Architecture of two yaml files', arch, lambda f: f('yaml', ['a.yaml', 'b.yaml']))
    raises('Architecture of a missing yaml file', arch,
           lambda f: f('yaml', os.path.join(work, 'missing.yaml')), message=False)
    app = Pair(original.Application, caret_c.Application)
    raises('Application over no Lttng', app, lambda f: f(None, None))


constructor_errors()
synthetic_frames(checks)
synthetic_architecture(checks, work)
expanded_paths()
for trace in TRACES + ['tracetools-fork-inter']:
    lttng_checks(trace, Pair(quiet(original.Lttng, copy_of(trace), force_conversion=True,
                                   validate=False),
                             caret_c.Lttng(os.path.join(shared, 'data', 'real-humble', trace))))
for trace in TRACES:
    lt = open_pair(trace)
    arch = arch_pair(trace, lt)
    names_checks(trace, arch)
    search_checks(trace, arch)
    architecture_errors(trace, arch_pair(trace, lt))
    for a in (arch.theirs, arch.ours):
        quiet(a.add_path, 'p', quiet(a.search_paths, '/sensor', '/sink')[0])
    app = app_pair(arch, lt)
    application_checks(trace, app)
    frame_checks(trace, app)
    combine_checks(trace, arch_pair(trace, lt), lambda a: app_pair(a, lt))
    edit_checks(trace, lt)
    quiet(caret_c.Architecture, 'lttng', lt.ours.trace_dirs[0], 5)  # the third argument
# a window that ends before the sink's run: the paths lose their last stages
lt = open_pair(TRACES[0], [lambda m: m.duration_filter(0.05453, 2.365)])
arch = arch_pair(TRACES[0], lt)
for a in (arch.theirs, arch.ours):
    quiet(a.add_path, 'p', quiet(a.search_paths, '/sensor', '/sink')[0])
app = app_pair(arch, lt)
frame_checks(f'{TRACES[0]} window 2.365+0.05453', app)
lt = open_pair(TRACES[0], [lambda m: m.strip_filter(1, 1.5)])
arch = arch_pair(TRACES[0], lt)
for a in (arch.theirs, arch.ours):
    quiet(a.add_path, 'p', quiet(a.search_paths, '/sensor', '/sink')[0])
frame_checks(f'{TRACES[0]} strip 1 1.5', app_pair(arch, lt))
shutil.rmtree(work)
print(checks.line())
sys.exit(1 if checks.failures else 0)
