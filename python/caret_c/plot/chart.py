"""Chart: what a plot draws, told once for both renderers (matplotlib's
figure and the interactive HTML page): the kind of chart, its labels and
its data in display units (seconds, ms, Hz)."""
import datetime
import math

import numpy
import pandas

# one palette for both renderers (matplotlib's tab10, then tab20's lighter)
PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2',
           '#7f7f7f', '#bcbd22', '#17becf', '#aec7e8', '#ffbb78', '#98df8a', '#ff9896',
           '#c5b0d5', '#c49c94', '#f7b6d2', '#c7c7c7', '#dbdb8d', '#9edae5']


def colour(i):
    return PALETTE[i % len(PALETTE)]


class Chart:
    """kind: 'lines' (series of x, y), 'histogram' (edges, counts per
    series), 'stacked' (bars from x of width, one segment per series),
    'flow' (stages top to bottom, a line per message, callback runs as
    boxes), 'sched' (a lane per callback, its runs as bars).
    origin_ns: the time of x = 0 s (None: x is not a time)."""

    def __init__(self, kind, title, x_label, y_label, origin_ns=None):
        self.kind, self.title = kind, title
        self.x_label, self.y_label = x_label, y_label
        self.origin_ns = origin_ns
        self.series = []   # [{'name', 'x', 'y'}]
        self.data = {}     # the kind's own: edges, width, stages, lines, boxes, lanes

    def add(self, name, x=None, y=None):
        self.series.append({'name': name, 'x': x, 'y': y})

    @property
    def origin_text(self):
        """The local date and time of x = 0, as the original's axis says it."""
        if self.origin_ns is None:
            return ''
        return datetime.datetime.fromtimestamp(self.origin_ns * 1e-9).strftime(
            '%Y-%m-%d %H:%M:%S')

    def to_json(self):
        """The chart as JSON-ready values (NaN and <NA> as null)."""
        return {'kind': self.kind, 'title': self.title, 'xLabel': self.x_label,
                'yLabel': self.y_label, 'origin': self.origin_text,
                'series': [{k: plain(v) for k, v in s.items()} for s in self.series],
                'data': {k: plain(v) for k, v in self.data.items()}}


def plain(value):
    """numpy arrays, lists and numbers as JSON values, NaN as None."""
    if isinstance(value, numpy.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (numpy.floating, float)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, numpy.integer):
        return int(value)
    if value is not None and not isinstance(value, (str, int, bool)):
        return None  # pandas' NA
    return value


def seconds_from(values_ns, origin_ns):
    """ns since the epoch (ints, or an Int64 column with <NA>) as float
    seconds since origin_ns, NaN where none: subtracted as integers first,
    so no nanosecond is lost to a float of 10^18."""
    array = pandas.array(values_ns, dtype='Int64')
    ints = array.to_numpy(dtype=numpy.int64, na_value=0)
    out = (ints - numpy.int64(origin_ns)).astype('float64') * 1e-9
    out[numpy.asarray(array.isna())] = numpy.nan
    return out


def as_float(series):
    """A pandas column (Int64, Float64) as float64 with NaN for <NA>."""
    return series.astype('float64').to_numpy() if len(series) else numpy.zeros(0)
