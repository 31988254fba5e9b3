#!/usr/bin/env python3
"""caret_c.plot against the original's caret_analyze.plot (shared/anchors,
0.7.3; bokeh stood in by bokeh_stub: its DataFrames never draw) on one
trace. Equal means the same columns (the 2-level MultiIndex), dtypes,
index and every value exactly (Int64 as integers, Float64 as floats):

- the frequency, period and latency timeseries of the callbacks and the
  communications (and the publishers and subscriptions where caret_c's
  Application has them), all together and each alone;
- for every path from a source node to a sink node (as the original
  searches them), with and without its first and last callbacks: the
  response-time timeseries and the stacked bar in the four cases, and
  chain_latency's graph (node and end-to-end granularity, its source);
- the histograms' bins and counts against what the original draws (its
  _histogram_data: its to_dataframe() is not implemented);
- the message flow's stages against the frame the original draws (its
  strip and granularity), and the callback scheduling's runs against
  each callback's runs in the original's window (both to_dataframe() of
  the original are empty);
- the original's errors: an unknown xaxis_type, sim_time on a trace
  without /clock, a bad case, the stacked bar by index, a bad
  granularity.

usage: PYTHONPATH=ANCHOR:PYTHON:HERE python_plot_vs_original.py TRACE [--strip L R]
Prints one "ok ..." or "FAIL ..." line per comparison; exit 1 on a FAIL.
"""
import logging
import os
import shutil
import sys
import tempfile
import warnings

import numpy
import pandas

import bokeh_stub  # noqa: F401  (before caret_analyze)

trace = os.path.abspath(sys.argv[1])
work = tempfile.mkdtemp()
os.chdir(work)  # the original's logging config opens ./caret.log
logging.disable(logging.WARNING)
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    import caret_analyze as original  # noqa: E402
    from caret_analyze.exceptions import InvalidTraceFormatError  # noqa: E402
    from caret_analyze.infra.lttng.lttng_event_filter import LttngEventFilter  # noqa: E402
    from caret_analyze.plot import Plot as TheirPlot, chain_latency as their_chain  # noqa: E402
    from caret_analyze.plot.callback_scheduling import (  # noqa: E402
        CallbackSchedulingPlot as TheirSchedulingPlot)
    from caret_analyze.plot.visualize_lib.bokeh.message_flow import (  # noqa: E402
        FormatterFactory)
    from caret_analyze.record import Range as TheirRange  # noqa: E402
    from caret_analyze.record.data_frame_shaper import Clip, Strip  # noqa: E402
import caret_c  # noqa: E402
from caret_c.plot import Plot, chain_latency  # noqa: E402

failures = compared = 0
CASES = ('all', 'best', 'worst', 'worst-with-external-latency')


def report(ok, what):
    global failures
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} {what}")


def quiet(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return f(*args, **kw)


def outcome(f):
    """(result, None) or (None, (exception class name, message))."""
    try:
        return quiet(f), None
    except Exception as e:  # noqa: BLE001 - the original's and ours, compared
        return None, (type(e).__name__, str(e))


def difference(a, b):
    """Why DataFrame b is not a (None: equal), every value exactly."""
    if list(a.columns) != list(b.columns):
        return f'columns\n  original: {list(a.columns)}\n  caret_c:  {list(b.columns)}'
    if [str(t) for t in a.dtypes] != [str(t) for t in b.dtypes]:
        return f'dtypes\n  original: {list(a.dtypes)}\n  caret_c:  {list(b.dtypes)}'
    if list(a.index) != list(b.index):
        return f'index: {len(a)} rows in the original, {len(b)} in caret_c'
    for k in range(len(a.columns)):
        x, y = a.iloc[:, k], b.iloc[:, k]
        nx, ny = x.isna().to_numpy(), y.isna().to_numpy()
        if (nx != ny).any():
            row = int(numpy.argmax(nx != ny))
            return f'<NA> at row {row} of {a.columns[k]}: {x.iloc[row]} / {y.iloc[row]}'
        if str(x.dtype) in ('Int64', 'int64'):
            vx, vy = x[~nx].to_numpy('int64'), y[~ny].to_numpy('int64')
        elif str(x.dtype) in ('Float64', 'float64'):
            vx, vy = x[~nx].to_numpy('float64'), y[~ny].to_numpy('float64')
        else:
            vx, vy = numpy.array(list(x[~nx]), object), numpy.array(list(y[~ny]), object)
        if len(vx) and (vx != vy).any():
            row = int(numpy.flatnonzero(~nx)[numpy.argmax(vx != vy)])
            return f'value at row {row} of {a.columns[k]}: {x.iloc[row]!r} / {y.iloc[row]!r}'
    return None


def compare(what, theirs, ours):
    global compared
    compared += 1
    why = difference(theirs, ours)
    na = int(theirs.isna().sum().sum())
    report(why is None, f'{what}: {len(theirs)} rows x {len(theirs.columns)} columns, {na} <NA>'
           if why is None else f'{what}: differs in {why}')


def same_outcome(what, theirs, ours):
    """Both raise the same class with the same message, or both compare."""
    a, ea = outcome(theirs)
    b, eb = outcome(ours)
    if ea or eb:
        report(ea == eb, f'{what}: raises {ea}' if ea == eb else
               f'{what}: differs\n  original: {ea}\n  caret_c:  {eb}')
    else:
        compare(what, a, b)


def window(module_filter):
    if '--strip' in sys.argv:
        k = sys.argv.index('--strip')
        return [module_filter.strip_filter(float(sys.argv[k + 1]), float(sys.argv[k + 2]))]
    return []


# ---- both, on the same trace (the original on a copy: it writes a cache) -----
copy = os.path.join(work, 'trace')
shutil.copytree(trace, copy)
try:
    lt = quiet(original.Lttng, copy, force_conversion=True, event_filters=window(LttngEventFilter))
except InvalidTraceFormatError:
    print('note: the original refuses this trace; compared with validate=False')
    lt = quiet(original.Lttng, copy, force_conversion=True, validate=False,
               event_filters=window(LttngEventFilter))
arch = quiet(original.Architecture, 'lttng', copy)
ours_lttng = caret_c.Lttng(trace, event_filters=window(caret_c.LttngEventFilter))
ours_arch = caret_c.Architecture('lttng', trace)

# the paths, named alike in both (the original's search from each source to each sink)
sources = [n.node_name for n in arch.nodes
           if n.publishers and not [s for s in n.subscriptions if s.callback_name]]
sinks = [n.node_name for n in arch.nodes if n.subscriptions and not n.publishers]
named = []
for src in sources:
    for dst in sinks:
        ours_found = ours_arch.search_paths(src, dst)
        for p in quiet(arch.search_paths, src, dst):
            mine = [q for q in ours_found if (tuple(q.node_names), tuple(q.topic_names)) ==
                    (tuple(p.node_names), tuple(p.topic_names))]
            if mine:
                name = f'path_{len(named)}'
                arch.add_path(name, p)
                ours_arch.add_path(name, mine[0])
                named.append((name, ' -> '.join(p.node_names)))
app = quiet(original.Application, arch, lt)
ours = caret_c.Application(ours_arch, ours_lttng)


def name_of(obj):
    if hasattr(obj, 'callback_name'):
        return obj.callback_name
    if hasattr(obj, 'publish_node_name'):
        return '|'.join(comm_key(obj))
    return f'{type(obj).__name__} {obj.node_name} {obj.topic_name}'


def ours_of(theirs, key, objects):
    by_key = {key(o): o for o in objects}
    return [by_key[key(o)] for o in theirs]


callbacks = (app.callbacks, ours_of(app.callbacks, lambda c: c.callback_name, ours.callbacks))
comm_key = (lambda c: (c.publish_node_name, c.topic_name, c.subscribe_node_name))  # noqa: E731
communications = (app.communications, ours_of(app.communications, comm_key, ours.communications))
groups = [('callbacks', callbacks), ('communications', communications)]
pub_key = (lambda p: (p.node_name, p.topic_name))  # noqa: E731
ours_publishers = ours_of(app.publishers, pub_key, ours.publishers)
if [t.callback_names for t in app.publishers] == [o.callback_names for o in ours_publishers]:
    groups.append(('publishers', (app.publishers, ours_publishers)))
else:  # a plot's time column is named after the publisher's first callback
    print("note: the original knows other callbacks of this trace's publishers "
          "(docs/dev/original-architecture.md): their plots not compared")
groups.append(('subscriptions', (app.subscriptions,
                                 ours_of(app.subscriptions, pub_key, ours.subscriptions))))

# ---- timeseries and histograms of callbacks, communications, ... ----------------
TIMESERIES = {'frequency': 'create_frequency_timeseries_plot',
              'period': 'create_period_timeseries_plot',
              'latency': 'create_latency_timeseries_plot'}
HISTOGRAMS = {'frequency': 'create_frequency_histogram_plot',
              'period': 'create_period_histogram_plot',
              'latency': 'create_latency_histogram_plot'}


def histogram_compare(what, their_plot, our_plot):
    """Our bins and counts against the original's (what its figure draws)."""
    global compared
    compared += 1
    hists, bins = quiet(their_plot._histogram_data, None)
    df = our_plot.to_dataframe()
    unit = 'Hz' if what.split()[0] == 'frequency' else 'ms'
    ok = list(df[f'bin_start [{unit}]']) == list(bins[:-1]) and \
        list(df[f'bin_end [{unit}]']) == list(bins[1:]) and \
        [list(df.iloc[:, 2 + i]) for i in range(len(hists))] == [list(h) for h in hists]
    report(ok, f'{what} histogram: {len(bins) - 1} bins, {sum(map(sum, hists))} samples'
           if ok else f'{what} histogram differs\n  original: {bins} {hists}\n'
           f'  caret_c:  {df.to_dict("list")}')


for kind, (theirs_objs, ours_objs) in groups + [('callbacks and communications', (
        callbacks[0] + communications[0], callbacks[1] + communications[1]))]:
    for metric, factory in TIMESERIES.items():
        if metric == 'latency' and kind in ('publishers', 'subscriptions'):
            continue
        compare(f'{metric} timeseries of the {kind}',
                quiet(getattr(TheirPlot, factory)(*theirs_objs).to_dataframe),
                getattr(Plot, factory)(ours_objs).to_dataframe())
        if kind.startswith('callbacks and'):
            continue
        for t, o in zip(theirs_objs, ours_objs):
            compare(f'{metric} timeseries of {name_of(o)}',
                    quiet(getattr(TheirPlot, factory)(t).to_dataframe),
                    getattr(Plot, factory)(o).to_dataframe())
        histogram_compare(f'{metric} {kind}', getattr(TheirPlot, HISTOGRAMS[metric])(*theirs_objs),
                          getattr(Plot, HISTOGRAMS[metric])(*ours_objs))

# ---- paths: response time, stacked bar, chain latency, message flow -------------
theirs_paths = [app.get_path(n) for n, _ in named]
ours_paths = [ours.get_path(n) for n, _ in named]
for (name, label), tp, op in zip(named, theirs_paths, ours_paths):
    for first in (False, True):
        for last in (False, True):
            tp.include_first_callback, tp.include_last_callback = first, last
            op.include_first_callback, op.include_last_callback = first, last
            span = f'{label} first={int(first)} last={int(last)}'
            for case in CASES:
                compare(f'response time timeseries ({case}) of {span}',
                        quiet(TheirPlot.create_response_time_timeseries_plot(
                            tp, case=case).to_dataframe),
                        Plot.create_response_time_timeseries_plot(op, case=case).to_dataframe())
                same_outcome(f'stacked bar ({case}) of {span}',
                             TheirPlot.create_response_time_stacked_bar_plot(
                                 tp, case=case).to_dataframe,
                             Plot.create_response_time_stacked_bar_plot(
                                 op, case=case).to_dataframe)
                histogram_compare(f'response_time ({case}) {span}',
                                  TheirPlot.create_response_time_histogram_plot(tp, case=case),
                                  Plot.create_response_time_histogram_plot(op, case=case))
            for granularity in ('node', 'end-to-end'):
                theirs_graph = quiet(their_chain, tp, granularity=granularity).source
                ours_graph = chain_latency(op, granularity=granularity).source
                compared += 1
                report(theirs_graph == ours_graph,
                       f'chain_latency ({granularity}) of {span}: the same graph' if
                       theirs_graph == ours_graph else
                       f'chain_latency ({granularity}) of {span} differs\n'
                       f'  original: {theirs_graph!r}\n  caret_c:  {ours_graph!r}')
            for granularity in ('raw', 'node'):
                for strip in ((0, 0), (1, 0.5)):
                    df = quiet(tp.to_dataframe)
                    clip = Strip(*strip).to_clip(df)
                    df = clip.execute(df)
                    formatter = FormatterFactory.create(tp, granularity)
                    formatter.remove_columns(df)
                    formatter.rename_columns(df, tp)
                    plot = Plot.create_message_flow_plot(op, granularity=granularity,
                                                         lstrip_s=strip[0], rstrip_s=strip[1])
                    compare(f'message flow ({granularity}, strip {strip}) of {span}', df,
                            plot.to_dataframe())
if len(theirs_paths) > 1:
    compare('response time timeseries of every path',
            quiet(TheirPlot.create_response_time_timeseries_plot(*theirs_paths).to_dataframe),
            Plot.create_response_time_timeseries_plot(ours_paths).to_dataframe())
for tp in theirs_paths:
    report(quiet(TheirPlot.create_message_flow_plot(tp).to_dataframe).empty,
           "the original's message flow to_dataframe() is empty (caret_c's: the stages)")

# ---- callback scheduling: each callback's runs in the original's window ---------
def their_runs(target, strip):
    """Each callback's runs in the original's window over its callback
    groups, as its figure draws them (its to_dataframe() is empty)."""
    groups = TheirSchedulingPlot._get_callback_groups(target)
    callbacks = [c for g in groups for c in g.callbacks]
    low, high = TheirRange([c.to_records() for c in callbacks]).get_range()
    clip = Clip(int(low + strip[0] * 1.0e9), int(high - strip[1] * 1.0e9))
    out = []
    for c in callbacks:
        runs = quiet(c.to_dataframe, shaper=clip)
        runs.columns = ['callback_start_timestamp [ns]', 'callback_end_timestamp [ns]']
        out.append((c.callback_name, runs))
    return out


targets = [(f'node {n.node_name}', quiet(app.get_node, n.node_name), ours.get_node(n.node_name))
           for n in arch.nodes]
targets += [(f'path {label}', tp, op) for (_, label), tp, op in zip(named, theirs_paths,
                                                                    ours_paths)]
targets.append(('the application', app, ours))
for what, theirs_target, ours_target in targets:
    for strip in ((0, 0), (0.5, 1)):
        theirs_runs, error = outcome(lambda: their_runs(theirs_target, strip))
        mine, our_error = outcome(lambda: Plot.create_callback_scheduling_plot(
            ours_target, lstrip_s=strip[0], rstrip_s=strip[1]).to_dataframe())
        if error or our_error:
            report(error == our_error, f'callback scheduling of {what}: raises {error}'
                   if error == our_error else f'callback scheduling of {what}: original '
                   f'{error}, caret_c {our_error}')
            continue
        names = [n for n, _ in theirs_runs]
        compared += 1
        report(names == list(dict.fromkeys(mine.columns.get_level_values(0))),
               f'callback scheduling of {what}: lanes {names}')
        for name, runs in theirs_runs:
            compare(f'callback scheduling of {what} (strip {strip}): {name}', runs,
                    mine[name].dropna(how='all'))

# ---- the original's errors -----------------------------------------------------
cb_t, cb_o = callbacks[0][:1], callbacks[1][:1]
for xaxis in ('sim_time', 'elapsed', 'index') if cb_t else ():
    same_outcome(f'latency timeseries to_dataframe({xaxis!r})',
                 lambda: TheirPlot.create_latency_timeseries_plot(*cb_t).to_dataframe(xaxis),
                 lambda: Plot.create_latency_timeseries_plot(*cb_o).to_dataframe(xaxis))
if theirs_paths:
    tp, op = theirs_paths[0], ours_paths[0]
    same_outcome('response time timeseries of a bad case',
                 TheirPlot.create_response_time_timeseries_plot(tp, case='typical').to_dataframe,
                 Plot.create_response_time_timeseries_plot(op, case='typical').to_dataframe)
    same_outcome('stacked bar of a bad case',
                 TheirPlot.create_response_time_stacked_bar_plot(tp, case='typical').to_dataframe,
                 Plot.create_response_time_stacked_bar_plot(op, case='typical').to_dataframe)
    same_outcome('response time histogram of a bad case',
                 lambda: TheirPlot.create_response_time_histogram_plot(
                     tp, case='typical')._histogram_data(None),
                 lambda: Plot.create_response_time_histogram_plot(op, case='typical')
                 .to_dataframe())
    same_outcome("stacked bar to_dataframe('index')",
                 lambda: TheirPlot.create_response_time_stacked_bar_plot(tp).to_dataframe('index'),
                 lambda: Plot.create_response_time_stacked_bar_plot(op).to_dataframe('index'))
    same_outcome("stacked bar to_dataframe('sim_time')",
                 lambda: TheirPlot.create_response_time_stacked_bar_plot(tp).to_dataframe(
                     'sim_time'),
                 lambda: Plot.create_response_time_stacked_bar_plot(op).to_dataframe('sim_time'))
    same_outcome("message flow granularity='callback'",
                 lambda: TheirPlot.create_message_flow_plot(tp, granularity='callback'),
                 lambda: Plot.create_message_flow_plot(op, granularity='callback'))
    same_outcome("chain_latency granularity='raw'",
                 lambda: their_chain(tp, granularity='raw'),
                 lambda: chain_latency(op, granularity='raw'))
    same_outcome("stacked bar metrics='count'",
                 lambda: TheirPlot.create_response_time_stacked_bar_plot(tp, metrics='count'),
                 lambda: Plot.create_response_time_stacked_bar_plot(op, metrics='count'))

print(f'{compared} compared, {failures} failures')
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failures or not compared else 0)
