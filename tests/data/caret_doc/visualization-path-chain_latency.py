# caret_doc: docs/visualization/path/chain_latency.md  (site path visualization/path/chain_latency/)
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/visualization/path/chain_latency/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Placeholders: '/path/to/architecture_file', '/path/to/trace_data', path name 'target_path'.
# NOTE: chain_latency is a plain function (graphviz-based), not a Plot.create_* factory.

# --- block 1 ---
from caret_analyze.plot import chain_latency
from caret_analyze import Application, Architecture, Lttng
from bokeh.plotting import output_notebook, figure, show
output_notebook()

arch = Architecture('yaml', '/path/to/architecture_file')
lttng = Lttng('/path/to/trace_data')
app = Application(arch, lttng)
path = app.get_path('target_path')

chain_latency(path, granularity='node', lstrip_s=1, rstrip_s=1)
