# caret_doc: docs/recording/sim_time.md
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/recording/sim_time/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Block 1 is a signature listing (Plot object method signatures), not runnable code: kept as a string.
# Placeholders: trace dir './e2e_sample' (must contain ros2_caret:sim_time events, recorded with
#   `ros2 caret record --record-clock`); nodes '/filter_node', '/message_driven_node'; path 'target_path'.
# Error documented when /clock was not recorded:
#   InvalidArgumentError: Failed to load sim_time. Please measure again with clock_recorder running.

# --- block 1 (signature listing as written in the doc) ---
_SIGNATURES_AS_DOCUMENTED = '''
def to_dataframe(
   self,
   xaxis_type: str
) -> pd.DataFrame:

def figure(
   self,
   xaxis_type: Optional[str],
   ywheel_zoom: Optional[bool],
   full_legends: Optional[bool]
) -> Figure:

def show(
    self,
    xaxis_type: str = 'system_time',
    ywheel_zoom: bool = True,
    full_legends: bool = False,
) -> None:

def save(
    self,
    export_path: str,
    title: str = '',
    xaxis_type: Optional[str] = None,
    ywheel_zoom: Optional[bool] = None,
    full_legends: Optional[bool] = None
) -> None:
'''

# --- block 2 ---
from bokeh.plotting import output_notebook
output_notebook()
from caret_analyze import Architecture, Application, Lttng
from caret_analyze.plot import Plot, message_flow

# Read trace data
arch = Architecture('lttng', './e2e_sample')
lttng = Lttng('./e2e_sample')

# Search and add path
paths = arch.search_paths(
    '/filter_node',
    '/message_driven_node')
arch.add_path('target_path', paths[0])
app = Application(arch, lttng)

# Draw message_flow
path = app.get_path('target_path')
plot = Plot.create_message_flow_plot(path)
plot.show(xaxis_type='sim_time')

# Draw node info
node = app.get_node('/filter_node')
plot = Plot.create_period_timeseries_plot(node.callbacks)
plot.show(xaxis_type='sim_time')
