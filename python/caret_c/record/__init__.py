"""caret_c.record: the original's records helpers (caret_analyze.record's
Latency, Period, Frequency, Range, ResponseTime, StackedBar) over records
given as DataFrames or objects with to_dataframe()."""
from .frequency import Frequency
from .latency import Latency
from .period import Period
from .range import Range
from .records import Records
from .response_time import ResponseTime
from .stacked_bar import StackedBar

__all__ = ['Frequency', 'Latency', 'Period', 'Range', 'Records', 'ResponseTime', 'StackedBar']
