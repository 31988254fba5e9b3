# caret_doc: docs/visualization/index.md
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/visualization/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Placeholders: '/path/to/trace_data', '/path/to/architecture_file', callback '/target/callback/name',
#   multi-host ['/path/to/host0/trace_data', '/path/to/host1/trace_data'].
# API list on the page (prose): create_frequency_timeseries_plot(callbacks|communications),
#   create_period_timeseries_plot, create_latency_timeseries_plot, create_callback_scheduling_plot,
#   create_message_flow_plot, create_response_time_histogram_plot, chain_latency,
#   LTTngEventFilter(), wildcards for get_callbacks(); plot methods to_dataframe(), show(), save(), figure().

# --- block 1 ---
from caret_analyze import Application, Architecture, Lttng
from caret_analyze.plot import Plot
from bokeh.plotting import output_notebook, figure, show
output_notebook()

# Load recorded data
lttng = Lttng('/path/to/trace_data')
# Load an Architecture object
arch = Architecture('yaml', '/path/to/architecture_file')
# Map the architecture object to the recorded data
app = Application(arch, lttng)

# Focus on a target callback
callback = app.get_callback('/target/callback/name')

# Get plot object for visualizing callback frequency
# Plot.create_[Metrics]_[GraphType]_plot(data)
# is format to get a target data set to visualize
plot = Plot.create_frequency_timeseries_plot(callback)

# Assign a table to callback_df object
callback_df = plot.to_dataframe()

# Create a graph for frequency of callback execution
plot.show()

# --- block 2 ---
lttng = Lttng(['/path/to/host0/trace_data', '/path/to/host1/trace_data'])
