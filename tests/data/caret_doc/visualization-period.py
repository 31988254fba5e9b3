# caret_doc: site page visualization/period/ (source docs/visualization/period/index.md or docs/visualization/period.md; both exist in the repo history)
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/visualization/period/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Placeholders: '/path/to/architecture_file', '/path/to/trace_data'.
# Axis labels documented: time series x 'Time [s]', y 'Period [ms]' (per sample);
#   histogram x 'period [ms]', y 'The number of samples'. xaxis_type in {'system_time','sim_time','index'}.

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
plot = Plot.create_period_timeseries_plot(app.callbacks)
period_df = plot.to_dataframe()
period_df

# ---Output in jupyter-notebook as below---

# --- block 3 ---
### Time-series graph
plot = Plot.create_period_timeseries_plot(app.callbacks)
plot.show()

# ---Output in jupyter-notebook as below---

# --- block 4 ---
### histogram graph
plot = Plot.create_period_histogram_plot(app.callbacks)
plot.show()

# ---Output in jupyter-notebook as below---

# --- block 5 ---
### Timestamp tables
plot = Plot.create_period_timeseries_plot(app.communications)
period_df = plot.to_dataframe()
period_df

# ---Output in jupyter-notebook as below---

# --- block 6 ---
### Time-series graph
plot = Plot.create_period_timeseries_plot(app.communications)
plot.show()

# ---Output in jupyter-notebook as below---

# --- block 7 ---
### Histogram graph
plot = Plot.create_period_histogram_plot(app.communications)
plot.show()

# ---Output in jupyter-notebook as below---

# --- block 8 ---
### Timestamp tables
plot = Plot.create_period_timeseries_plot(*app.publishers, *app.subscriptions)
period_df = plot.to_dataframe()
period_df

# ---Output in jupyter-notebook as below---

# --- block 9 ---
### Time-series graph
plot = Plot.create_period_timeseries_plot(*app.publishers, *app.subscriptions)
plot.show()

# ---Output in jupyter-notebook as below---
