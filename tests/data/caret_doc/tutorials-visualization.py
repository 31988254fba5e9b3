# caret_doc: docs/tutorials/visualization.md
# (as published for CARET v0.7.2: tier4/caret_doc gh-pages branch-update-changelog-for-v0.7.2/tutorials/visualization/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Placeholders: trace dir './e2e_sample'; architecture './architecture.yaml' (humble/iron) or
#   './architecture_jazzy.yaml' (jazzy); callback '/timer_driven_node/callback_0'; path name 'target'.

# --- block 1 ---
from bokeh.plotting import output_notebook
output_notebook()

# --- block 2 (tab: humble) ---
from caret_analyze import Architecture, Application, Lttng

# load the architecture file which is created in the previous page
arch = Architecture('yaml', './architecture.yaml')

# load recorded data by CARET
lttng = Lttng('./e2e_sample')

# map the application architecture to recorded data
app = Application(arch, lttng)

# --- block 3 (tab: iron) ---
from caret_analyze import Architecture, Application, Lttng

# load the architecture file which is created in the previous page
arch = Architecture('yaml', './architecture.yaml')

# load recorded data by CARET
lttng = Lttng('./e2e_sample')

# map the application architecture to recorded data
app = Application(arch, lttng)

# --- block 4 (tab: jazzy) ---
from caret_analyze import Architecture, Application, Lttng

# load the architecture file which is created in the previous page
arch = Architecture('yaml', './architecture_jazzy.yaml')

# load recorded data by CARET
lttng = Lttng('./e2e_sample')

# map the application architecture to recorded data
app = Application(arch, lttng)

# --- block 5 ---
# Get a callback instance, which has latency information, from app
callback = app.get_callback('/timer_driven_node/callback_0')

# Get time-series variation of latency
t, latency_ns = callback.to_timeseries()

# Get histogram of latency
bins, latency_ns = callback.to_histogram()

# --- block 6 ---
from caret_analyze.plot import Plot

target_path = app.get_path('target')
plot = Plot.create_message_flow_plot(target_path)
plot.show()
