"""caret_c.plot: the original's caret_analyze.plot (Plot, chain_latency,
LatencyStackedBar; `from caret_c.plot import message_flow` imports as the
original's does). Each plot's to_dataframe() gives the original's
DataFrame; figure() draws it with matplotlib, save('x.html') and show()
in a notebook as an interactive uPlot page (docs/python.md)."""
from . import message_flow
from .chain_latency import chain_latency
from .facade import Plot
from .plot_base import PlotBase
from .stacked_bar import LatencyStackedBar

__all__ = ['LatencyStackedBar', 'Plot', 'PlotBase', 'chain_latency', 'message_flow']
