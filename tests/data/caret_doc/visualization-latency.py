# caret_doc: site page visualization/latency/ (source docs/visualization/latency/index.md or docs/visualization/latency.md; both exist in the repo history)
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/visualization/latency/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Placeholders: '/path/to/architecture_file', '/path/to/trace_data'.
# Axis labels documented: time series x 'Time [s]', y 'Latency [ms]' (callback_start -> callback_end, per
#   sample); histogram x 'latency [ms]', y 'The number of samples'.

# --- block 1 ---
from caret_analyze.plot import Plot
from caret_analyze import Application, Architecture, Lttng
from bokeh.plotting import output_notebook, figure, show
output_notebook()
arch = Architecture('yaml', '/path/to/architecture_file')
lttng = Lttng('/path/to/trace_data')
app = Application(arch, lttng)

# --- block 2 ---
### Timestamp tables
plot = Plot.create_latency_timeseries_plot(app.callbacks)
latency_df = plot.to_dataframe()
latency_df

# ---Output in jupyter-notebook as below---

# --- block 3 ---
### Time-series graph
plot = Plot.create_latency_timeseries_plot(app.callbacks)
plot.show()

# ---Output in jupyter-notebook as below---

# --- block 4 ---
### Histogram graph
plot = Plot.create_latency_histogram_plot(app.callbacks)
plot.show()

# ---Output in jupyter-notebook as below---

# --- block 5 ---
### Timestamp tables
plot = Plot.create_latency_timeseries_plot(app.communications)
latency_df = plot.to_dataframe()
latency_df

# ---Output in jupyter-notebook as below---

# --- block 6 ---
### Time-series graph
plot = Plot.create_latency_timeseries_plot(app.communications)
plot.show()

# ---Output in jupyter-notebook as below---

# --- block 7 ---
### Histogram graph
plot = Plot.create_latency_histogram_plot(app.communications)
plot.show()

# ---Output in jupyter-notebook as below---
