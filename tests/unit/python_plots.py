#!/usr/bin/env python3
"""caret_c.plot on a shared real trace, for what the original cannot be
compared on (python_plot_vs_original.py compares the rest): the
arguments checked as the original's type check does (one collection
unpacked, the wrong type named), the plots' data against the objects'
own DataFrames and the CLI's (`caret latency callbacks`), caret-c's own
DataFrames (histograms, message flow, callback scheduling), and every
plot written as PNG, SVG and a self-contained HTML page, and
chain_latency rendered.

usage: PYTHONPATH=PYTHON python_plots.py CARET TRACE
"""
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

import matplotlib
matplotlib.use('Agg')

import caret_c  # noqa: E402
from caret_c.plot import Plot, chain_latency  # noqa: E402
from caret_c.plot import message_flow  # noqa: E402,F401 (imports as the original's)

caret, trace = sys.argv[1], sys.argv[2]
failures = 0


def report(ok, what):
    global failures
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} {what}")


def raises(f, cls, text=None):
    """f() raises cls (by name: caret_c's classes), with text if given."""
    try:
        f()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__ == cls and (text is None or str(e) == text), f'{type(e).__name__}: {e}'
    return False, 'nothing raised'


lt = caret_c.Lttng(trace)
arch = caret_c.Architecture('lttng', trace)
arch.add_path('p', arch.search_paths('/sensor', '/sink')[0])
app = caret_c.Application(arch, lt)
path = app.get_path('p')
path.include_first_callback = path.include_last_callback = True

# ---- arguments ---------------------------------------------------------------
a = Plot.create_latency_timeseries_plot(app.callbacks).to_dataframe()
b = Plot.create_latency_timeseries_plot(*app.callbacks).to_dataframe()
report(a.equals(b), 'a list of callbacks is unpacked as the original\'s type check does')
ok, why = raises(lambda: Plot.create_latency_timeseries_plot(app.callbacks[0], path),
                 'UnsupportedTypeError',
                 "Type of argument 'target_objects'[1] must be ['CallbackBase', "
                 "'Communication']. The given argument type is 'Path'.")
report(ok, f'a path among latency objects: {why}')
ok, why = raises(lambda: Plot.create_response_time_stacked_bar_plot(app.callbacks[0]),
                 'UnsupportedTypeError', "Type of argument 'target_object' must be 'Path'. "
                 f"The given argument type is '{type(app.callbacks[0]).__name__}'.")
report(ok, f'a callback for the stacked bar: {why}')
ok, why = raises(lambda: Plot.create_message_flow_plot(path, lstrip_s='1'),
                 'UnsupportedTypeError')
report(ok, f'lstrip_s as text: {why}')
ok, why = raises(lambda: Plot.create_response_time_stacked_bar_plot(path, metrics='percentage'),
                 'NotImplementedError')
report(ok, f"metrics='percentage' is not implemented, as the original: {why}")
ok, why = raises(lambda: Plot.create_callback_scheduling_plot(path).figure(coloring_rule='x'),
                 'UnsupportedTypeError')
report(ok, f'an unknown coloring_rule: {why}')
ok, why = raises(lambda: Plot.create_callback_scheduling_plot(42), 'UnsupportedTypeError')
report(ok, f'a number to schedule: {why}')

# ---- the data against the objects' and the CLI's --------------------------------
cli = {r[0]: (int(r[1]), float(r[3])) for r in list(csv.reader(io.StringIO(subprocess.run(
    [caret, 'latency', 'callbacks', '--format', 'csv', trace], check=True, capture_output=True,
    text=True).stdout)))[1:]}
df = Plot.create_latency_timeseries_plot(app.callbacks).to_dataframe()
for cb in app.callbacks:
    runs = cb.to_dataframe().dropna()
    values = df[(cb.callback_name, 'latency [ms]')].dropna()
    expected = ((runs.iloc[:, 1] - runs.iloc[:, 0]) * 1e-6).reset_index(drop=True)
    report(list(values) == list(expected), f'latency timeseries {cb.callback_name}: '
           f'{len(values)} values, (end - start) ms of each run')
    count, mean = cli[cb.callback_name]
    report(len(values) == count and abs(values.mean() * 1e6 - mean) <= 1e-6 * mean,
           f"  the CLI's: {count} runs, mean {mean} ns")
for comm in app.communications:
    starts = comm.to_dataframe().iloc[:, 0].dropna()
    d = Plot.create_period_timeseries_plot(comm).to_dataframe()
    periods = d.iloc[:, 1].dropna()
    report(len(periods) == len(starts) - 1 and
           abs(periods.sum() * 1e6 - (starts.iloc[-1] - starts.iloc[0])) < 1,
           f'period timeseries {comm.topic_name}: {len(periods)} periods spanning the publishes')
    f = Plot.create_frequency_timeseries_plot(comm).to_dataframe()
    # 1 s windows from the first publish and half the first period
    first = int(starts.min()) + int((starts.iloc[1] - starts.iloc[0]) / 2)
    windows = (int(starts.max()) - first) // 10**9
    inside = ((starts >= first) & (starts < first + windows * 10**9)).sum()
    report(len(f) == windows and f.iloc[:, 1].sum() == inside and f.iloc[0, 0] == first,
           f'frequency timeseries {comm.topic_name}: {inside} publishes in {windows} whole '
           'seconds')

# ---- caret-c's own DataFrames ---------------------------------------------------
h = Plot.create_latency_histogram_plot(app.callbacks).to_dataframe()
report(len(h) == 20 and list(h.columns[:2]) == ['bin_start [ms]', 'bin_end [ms]'] and
       all(h[cb.callback_name].sum() == len(cb.to_dataframe().dropna())
           for cb in app.callbacks),
       f'latency histogram: 20 bins, every run counted once ({int(h.iloc[:, 2:].sum().sum())})')
flow = Plot.create_message_flow_plot(path).to_dataframe()
report(len(flow) == len(path.to_dataframe()) and
       all(c.endswith(('_start', '_publish', '_write', '_end')) for c in flow.columns),
       f"message flow: the path's {len(flow)} messages, {len(flow.columns)} stages")
node_flow = Plot.create_message_flow_plot(path, granularity='node').to_dataframe()
report(not any('rcl_publish' in c or 'dds_write' in c for c in node_flow.columns),
       f'message flow by node: {list(node_flow.columns)}')
sched = Plot.create_callback_scheduling_plot(app.callbacks).to_dataframe()
# the window is the original's: from the first start to the last, its ends
# through a float (a run starting within ~100 ns of the last may fall out)
starts = [int(v) for cb in app.callbacks for v in cb.to_dataframe().iloc[:, 0]]
low, high = int(min(starts) + 0.0), int(max(starts) - 0.0)
report(all(sched[cb.callback_name].dropna(how='all').shape[0] ==
           cb.to_dataframe().iloc[:, 0].between(low, high).sum() for cb in app.callbacks),
       f'callback scheduling: every run of {len(app.callbacks)} callbacks in the window')
cut = Plot.create_callback_scheduling_plot(app.callbacks, lstrip_s=1, rstrip_s=1).to_dataframe()
report(cut.notna().sum().sum() < sched.notna().sum().sum(),
       'callback scheduling with lstrip_s/rstrip_s: fewer runs')

# ---- drawn: PNG, SVG, HTML; chain_latency rendered -------------------------------
with tempfile.TemporaryDirectory() as d:
    plots = {
        'latency': Plot.create_latency_timeseries_plot(app.callbacks),
        'frequency': Plot.create_frequency_timeseries_plot(app.communications),
        'period_histogram': Plot.create_period_histogram_plot(app.communications),
        'response': Plot.create_response_time_timeseries_plot(path, case='worst'),
        'response_histogram': Plot.create_response_time_histogram_plot(path, case='best'),
        'stacked': Plot.create_response_time_stacked_bar_plot(path),
        'flow': Plot.create_message_flow_plot(path, granularity='node'),
        'scheduling': Plot.create_callback_scheduling_plot(app.callbacks)}
    for name, plot in plots.items():
        png, svg, page = (os.path.join(d, f'{name}.{e}') for e in ('png', 'svg', 'html'))
        plot.save(png)
        plot.save(svg)
        plot.save(page, title=f'caret_c {name}')
        with open(png, 'rb') as fh:
            head = fh.read(8)
        with open(svg) as fh:
            svg_text = fh.read()
        with open(page) as fh:
            html = fh.read()
        remote = re.findall(r'(?:src|href)\s*=\s*["\']?(?:https?:)?//', html)
        report(head == b'\x89PNG\r\n\x1a\n' and os.path.getsize(png) > 5000 and
               '<svg' in svg_text and 'caret-plot-data' in html and 'uPlot' in html and
               f'<title>caret_c {name}</title>' in html and not remote,
               f'{name}: PNG ({os.path.getsize(png)} bytes), SVG and a self-contained HTML '
               f'page ({len(html)} bytes)')
    graph = chain_latency(path)
    report('"/sensor" -> "/filter"' in graph.source and 'avg:' in graph.source,
           'chain_latency: a graph of the path with latencies')
    out = os.path.join(d, 'chain.svg')
    report(chain_latency(path, export_path=out) is None and os.path.exists(out),
           'chain_latency(export_path=chain.svg) renders the file')
print(f'{failures} failures')
sys.exit(1 if failures else 0)
