#!/usr/bin/env python3
"""caret_c.plot on a shared real trace: each plot's data is what the
objects' DataFrames say (latency = end - start of every complete instance,
periods add up to the span, frequencies count every instance, response
times are ResponseTime's), callback latencies are the CLI's (`caret
latency callbacks`: count and mean), and every figure draws and saves as
a PNG with matplotlib's Agg.

usage: PYTHONPATH=PYTHON python_plots.py CARET TRACE
"""
import csv
import io
import os
import subprocess
import sys
import tempfile

import matplotlib
matplotlib.use('Agg')

import caret_c  # noqa: E402
from caret_c.plot import Plot  # noqa: E402
from caret_c.record import ResponseTime  # noqa: E402

caret, trace = sys.argv[1], sys.argv[2]
failures = 0


def report(ok, what):
    global failures
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} {what}")


lt = caret_c.Lttng(trace)
arch = caret_c.Architecture('lttng', trace)
found = arch.search_paths('/sensor', '/sink')
arch.add_path('p', found[0])
app = caret_c.Application(arch, lt)
path = app.get_path('p')
path.include_last_callback = True

cli = {r[0]: (int(r[1]), float(r[3])) for r in list(csv.reader(io.StringIO(subprocess.run(
    [caret, 'latency', 'callbacks', '--format', 'csv', trace], check=True, capture_output=True,
    text=True).stdout)))[1:]}
df = Plot.create_latency_timeseries_plot(*app.callbacks).to_dataframe()
for cb in app.callbacks:
    mine = cb.to_dataframe().dropna()
    values = df[(cb.callback_name, 'latency')].dropna()
    expected = (mine.iloc[:, 1] - mine.iloc[:, 0]).reset_index(drop=True)
    report(list(values) == list(expected), f'latency timeseries {cb.callback_name}: '
           f'{len(values)} values, end - start of each run')
    count, mean = cli[cb.callback_name]
    report(len(values) == count and abs(values.mean() - mean) <= 1e-6 * mean,
           f'  the CLI\'s: {count} runs, mean {mean} ns (plot: {len(values)}, {values.mean()})')

for comm in app.communications:
    d = Plot.create_period_timeseries_plot(comm).to_dataframe()
    starts = comm.to_dataframe().iloc[:, 0].dropna()
    periods = d.iloc[:, 1].dropna()
    report(len(periods) == len(starts) - 1 and periods.sum() == starts.max() - starts.min(),
           f'period timeseries {comm.topic_name}: {len(periods)} periods spanning the publishes')
    f = Plot.create_frequency_timeseries_plot(comm).to_dataframe()
    report(f.iloc[:, 1].sum() == len(starts),
           f'frequency timeseries {comm.topic_name}: {f.iloc[:, 1].sum()} publishes counted')

for case, method in (('best', 'to_best_case_records'), ('all', 'to_all_records')):
    h = Plot.create_response_time_histogram_plot(path, case=case).to_dataframe()
    rt = getattr(ResponseTime(path.to_records()), method)().to_dataframe()
    report(list(h[('p', 'response_time')].dropna()) == list(rt['response_time']),
           f'response time histogram ({case}): ResponseTime\'s {len(rt)} values')

frame = path.to_dataframe().dropna()
bars = Plot.create_response_time_stacked_bar_plot(path).to_dataframe()
total = bars.drop(columns='start_time').sum(axis=1)
report(len(bars) == len(frame) and
       list(total) == list(frame.iloc[:, -1] - frame.iloc[:, 0]),
       f'stacked bar: {len(bars)} messages, {len(bars.columns) - 1} segments adding up to '
       'each message\'s latency')
worst = Plot.create_response_time_stacked_bar_plot(path, case='worst').to_dataframe()
inputs = ResponseTime(path.to_records()).to_worst_case_records().to_dataframe().iloc[:, 0]
report(0 < len(worst) <= len(inputs) and set(worst['start_time']) <= set(inputs),
       f'stacked bar (worst): {len(worst)} messages, each a worst-case input')
flow = Plot.create_message_flow_plot(path).to_dataframe()
report(flow.equals(path.to_dataframe()), f'message flow: the path\'s {len(flow)} rows')
sched = Plot.create_callback_scheduling_plot(app.callbacks).to_dataframe()
runs = sum(len(cb.to_dataframe()) for cb in app.callbacks)
report(len(sched) == runs and sched['callback_start'].is_monotonic_increasing,
       f'callback scheduling: {len(sched)} runs of {len(app.callbacks)} callbacks, in time order')

with tempfile.TemporaryDirectory() as d:
    for name, plot in (
            ('latency', Plot.create_latency_timeseries_plot(*app.callbacks, path)),
            ('frequency', Plot.create_frequency_timeseries_plot(*app.callbacks)),
            ('period', Plot.create_period_histogram_plot(*app.communications)),
            ('histogram', Plot.create_latency_histogram_plot(*app.callbacks)),
            ('response', Plot.create_response_time_timeseries_plot(path, case='worst')),
            ('stacked', Plot.create_response_time_stacked_bar_plot(path)),
            ('flow', Plot.create_message_flow_plot(path)),
            ('scheduling', Plot.create_callback_scheduling_plot(app.callbacks))):
        out = os.path.join(d, f'{name}.png')
        plot.save(out)
        with open(out, 'rb') as fh:
            head = fh.read(8)
        report(head == b'\x89PNG\r\n\x1a\n' and os.path.getsize(out) > 5000,
               f'{name} figure saved: {os.path.getsize(out)} bytes of PNG')
print(f'{failures} failures')
sys.exit(1 if failures else 0)
