# caret_doc: docs/visualization/path/message_flow.md  (site path visualization/path/message_flow/)
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/visualization/path/message_flow/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Placeholders: '/path/to/architecture_file', '/path/to/trace_data', path name 'target_path'.
# Documented kwargs: granularity in {'raw','node'}, treat_drop_as_delay (bool), lstrip_s / rstrip_s (float s).
# Axis: x 'Time [s]'; y lists node/topic names of the path.

# --- block 1 ---
from caret_analyze.plot import Plot
from caret_analyze import Application, Architecture, Lttng
from bokeh.plotting import output_notebook, figure, show
output_notebook()

arch = Architecture('yaml', '/path/to/architecture_file')
lttng = Lttng('/path/to/trace_data')
app = Application(arch, lttng)
path = app.get_path('target_path')

plot = Plot.create_message_flow_plot(path, granularity='node', lstrip_s=1, rstrip_s=1)
plot.show()
