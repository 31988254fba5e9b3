# caret_doc: docs/visualization/scheduling/callback.md  (site path visualization/scheduling/callback/)
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/visualization/scheduling/callback/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Placeholders: trace dir './e2e_sample'; 'node_name' (a node name), 'cbg_name' (a callback group name),
#   'executor_name' (an executor name; caret_analyze names them e.g. 'executor_0').

# --- block 1 ---
from caret_analyze import Architecture, Application, Lttng
from caret_analyze.plot import Plot

arch = Architecture('lttng', './e2e_sample')
lttng = Lttng('./e2e_sample')
app = Application(arch, lttng)

# --- block 2 ---
### target: node
node = app.get_node('node_name') # get node object
plot_node = Plot.create_callback_scheduling_plot(node)
plot_node.show()

# ---Output in jupyter-notebook as below---

# --- block 3 ---
### target: callback group
cbg = app.get_callback_group('cbg_name') # get callback group object
plot_cbg = Plot.create_callback_scheduling_plot(cbg)
plot_cbg.show()

# ---Output in jupyter-notebook as below---

# --- block 4 ---
### target: executor
executor = app.get_executor('executor_name') # get executor object
plot_executor = Plot.create_callback_scheduling_plot(executor)
plot_executor.show()

# ---Output in jupyter-notebook as below---
