#!/usr/bin/env python3
"""Every kind of caret_c plot of a shared real trace saved as an HTML page
(plot.save('x.html')) into a directory, for tests/browser/plot_check.mjs.

usage: PYTHONPATH=PYTHON python_plot_pages.py TRACE OUT_DIR
"""
import os
import sys

import caret_c
from caret_c.plot import Plot

trace, out = sys.argv[1], sys.argv[2]
lt = caret_c.Lttng(trace)
arch = caret_c.Architecture('lttng', trace)
arch.add_path('sensor_to_sink', arch.search_paths('/sensor', '/sink')[0])
app = caret_c.Application(arch, lt)
path = app.get_path('sensor_to_sink')
path.include_first_callback = path.include_last_callback = True
plots = {
    'latency_timeseries': Plot.create_latency_timeseries_plot(app.callbacks),
    'frequency_timeseries': Plot.create_frequency_timeseries_plot(app.communications),
    'period_timeseries': Plot.create_period_timeseries_plot(*app.callbacks, app.communications[0]),
    'response_time_timeseries': Plot.create_response_time_timeseries_plot(path, case='worst'),
    'latency_histogram': Plot.create_latency_histogram_plot(app.communications),
    'period_histogram': Plot.create_period_histogram_plot(app.callbacks),
    'frequency_histogram': Plot.create_frequency_histogram_plot(app.callbacks),
    'response_time_histogram': Plot.create_response_time_histogram_plot(path),
    'stacked_bar': Plot.create_response_time_stacked_bar_plot(path, case='all'),
    'message_flow': Plot.create_message_flow_plot(path, lstrip_s=1, rstrip_s=3),
    'message_flow_node': Plot.create_message_flow_plot(path, granularity='node'),
    'callback_scheduling': Plot.create_callback_scheduling_plot(app.callbacks, lstrip_s=1,
                                                                rstrip_s=3.5),
}
for name, plot in plots.items():
    plot.save(os.path.join(out, f'{name}.html'), title=name.replace('_', ' '))
print(f'{len(plots)} pages written')
