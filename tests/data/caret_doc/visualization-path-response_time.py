# caret_doc: docs/visualization/path/response_time.md  (site path visualization/path/response_time/)
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/visualization/path/response_time/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Placeholders: '/path/to/architecture_file', '/path/to/trace_data', path name 'target_path'.
# case in {'all' (default), 'best', 'worst', 'worst-with-external-latency'}.
# Axis labels documented: histogram x 'response time [ms]', y 'The number of samples';
#   stacked bar x 'system time [s]' or 'index', y 'response time [s]' (breakdown per callback/communication);
#   timeseries x 'system time [s]' or 'index', y 'Response Time [ms]'. show(xaxis_type='index') switches x axis.

# --- block 1 ---
from caret_analyze.plot import Plot
from caret_analyze import Application, Architecture, Lttng
from bokeh.plotting import output_notebook, figure, show
output_notebook()

arch = Architecture('yaml', '/path/to/architecture_file')
lttng = Lttng('/path/to/trace_data')
app = Application(arch, lttng)
path = app.get_path('target_path')

# --- block 2 ---
# plot all case
plot = Plot.create_response_time_histogram_plot(path)
plot.show()
# or
# plot = Plot.create_response_time_histogram_plot(path, case='all')
# plot.show()

# --- block 3 ---
# plot best case
plot = Plot.create_response_time_histogram_plot(path, case='best')
plot.show()

# --- block 4 ---
# plot worst case
plot = Plot.create_response_time_histogram_plot(path, case='worst')
plot.show()

# --- block 5 ---
# plot worst-with-external-latency case
plot = Plot.create_response_time_histogram_plot(path, case='worst-with-external-latency')
plot.show()

# --- block 6 ---
# plot all case
plot = Plot.create_response_time_stacked_bar_plot(path)
plot.show()
# or
# plot = Plot.create_response_time_stacked_bar_plot(path, case='all')
# plot.show()

# --- block 7 ---
# plot best case
plot = Plot.create_response_time_stacked_bar_plot(path, case='best')
plot.show()

# --- block 8 ---
# plot worst case
plot = Plot.create_response_time_stacked_bar_plot(path, case='worst')
plot.show()

# --- block 9 ---
# plot worst-with-external-latency case
plot = Plot.create_response_time_stacked_bar_plot(path, case='worst-with-external-latency')
plot.show()

# --- block 10 ---
# plot all case
plot = Plot.create_response_time_timeseries_plot(path)
plot.show()
# or
# plot = Plot.create_response_time_timeseries_plot(path, case='all')
# plot.show()

# --- block 11 ---
# plot best case
plot = Plot.create_response_time_timeseries_plot(path, case='best')
plot.show()

# --- block 12 ---
# plot worst case
plot = Plot.create_response_time_timeseries_plot(path, case='worst')
plot.show()

# --- block 13 ---
# plot worst-with-external-latency case
plot = Plot.create_response_time_timeseries_plot(path, case='worst-with-external-latency')
plot.show()
