"""The histogram plots (frequency, period, latency, response time): 20
bins over the values of all the objects, as the original draws them.
The original's to_dataframe() is not implemented (NotImplementedError);
caret_c's gives the bins and each object's counts."""
import numpy
import pandas

from . import _args, _objects
from .chart import Chart
from .plot_base import PlotBase
from .timeseries import RESPONSE_METHODS
from ..record import Frequency, Latency, Period, ResponseTime

BINS = 20
UNITS = {'frequency': 'Hz', 'period': 'ms', 'latency': 'ms', 'response_time': 'ms'}


class HistogramPlot(PlotBase):
    """A histogram of objects' frequencies, periods, latencies or
    response times (paths, with a case)."""

    def __init__(self, metric, target_objects, case=None):
        self._metric, self._objects, self._case = metric, list(target_objects), case

    def _values(self):
        """Each object's values, in the unit drawn."""
        out = []
        for obj in self._objects:
            if self._metric == 'response_time':
                _args.case(self._case, 'histogram')
                records = getattr(ResponseTime(obj.to_records()), RESPONSE_METHODS[self._case])()
            else:
                helper = {'frequency': Frequency, 'period': Period, 'latency': Latency}[self._metric]
                records = helper(_objects.records_frame(obj)).to_records()
            values = records.to_dataframe()[self._metric].dropna().to_numpy(numpy.int64)
            out.append(values * 10**(-6) if UNITS[self._metric] == 'ms' else values)
        return out

    def _bins(self):
        """(edges, [counts of each object])."""
        values = self._values()
        filled = [v for v in values if len(v)]
        span = (min(v.min() for v in filled), max(v.max() for v in filled)) if filled else None
        # no object: no bin (the original's figure has none either)
        counts, edges = [], numpy.zeros(0)
        for v in values:
            c, edges = numpy.histogram(v, BINS, span, density=False)
            counts.append(c)
        return edges, counts

    def to_dataframe(self, xaxis_type='system_time'):
        """caret-c's own (the original raises NotImplementedError): a row a
        bin, its edges ('bin_start [unit]', 'bin_end [unit]') and the
        number of samples of each object in it (a column per object, named
        as the timeseries plots name them)."""
        _args.xaxis_type(xaxis_type)
        _args.no_sim_time(xaxis_type)
        edges, counts = self._bins()
        unit = UNITS[self._metric]
        columns = [pandas.Series(edges[:-1], name=f'bin_start [{unit}]', dtype='Float64'),
                   pandas.Series(edges[1:], name=f'bin_end [{unit}]', dtype='Float64')]
        columns += [pandas.Series(c, name=_objects.label(o), dtype='Int64')
                    for o, c in zip(self._objects, counts)]
        return pandas.concat(columns, axis=1)

    def _chart(self, xaxis_type):
        edges, counts = self._bins()
        title = f'Histogram of {self._metric}'
        if self._case is not None:
            title += f' --- {self._case} case ---'
        chart = Chart('histogram', title, f'{self._metric} [{UNITS[self._metric]}]',
                      'The number of samples')
        chart.data['edges'] = edges
        for obj, c in zip(self._objects, counts):
            chart.add(_objects.display_name(obj), edges[:-1], c)
        return chart
