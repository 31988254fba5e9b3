"""The timeseries plots (frequency, period, latency, response time) and
their DataFrames, as the original builds them: per object a time column
(Int64 ns) and a value column, under the object's label (a 2-level
MultiIndex), the objects side by side in label order, rows aligned by
position."""
import pandas

from . import _args, _objects
from .chart import Chart, as_float, seconds_from
from .plot_base import PlotBase
from ..record import Frequency, Latency, Period, Range, ResponseTime

ONE_SECOND = 1000000000
# metric: (value column, scaled from ns to ms, y axis label)
METRICS = {'frequency': ('frequency [Hz]', False, 'frequency [Hz]'),
           'period': ('period [ms]', True, 'period [ms]'),
           'latency': ('latency [ms]', True, 'latency [ms]'),
           'response_time': ('response_time [ms]', True, 'Response time [ms]')}
RESPONSE_METHODS = {'all': 'to_all_records', 'best': 'to_best_case_records',
                    'worst': 'to_worst_case_records',
                    'worst-with-external-latency': 'to_worst_with_external_latency_case_records'}


def _first_times(frame):
    """The first column's times, in record order, as Python ints (None: missing)."""
    if not len(frame.columns):
        return []
    return [None if pandas.isna(v) else int(v) for v in frame[frame.columns[0]]]


def frequency_records(frames):
    """Each object's count of instances in 1 s windows: the windows of all
    objects from the earliest instance of any, each object's shifted by
    half its first interval (so a period near 1 s does not fall on a
    window's edge), whole windows up to the latest instance of any."""
    times = [_first_times(f) for f in frames]
    every = [t for ts in times for t in ts if t is not None]
    low, high = (min(every), max(every)) if every else (0, 1)
    out = []
    for frame, ts in zip(frames, times):
        offset = int((ts[1] - ts[0]) / 2) if len(ts) >= 2 and None not in ts[:2] else 0
        start = low + offset
        windows = (high - start) // ONE_SECOND
        out.append(Frequency(frame).to_records(ONE_SECOND, start,
                                               start + windows * ONE_SECOND - 1))
    return out


class TimeSeriesPlot(PlotBase):
    """A timeseries plot of objects: metric 'frequency', 'period',
    'latency' or 'response_time' (paths, with a case)."""

    def __init__(self, metric, target_objects, case='all'):
        self._metric, self._objects, self._case = metric, list(target_objects), case

    def to_timeseries_records_list(self, xaxis_type='system_time'):
        _args.no_sim_time(xaxis_type)
        if self._metric == 'response_time':
            _args.case(self._case, 'timeseries')
            return [getattr(ResponseTime(o.to_records()), RESPONSE_METHODS[self._case])()
                    for o in self._objects]
        frames = [_objects.records_frame(o) for o in self._objects]
        if self._metric == 'frequency':
            return frequency_records(frames)
        helper = Period if self._metric == 'period' else Latency
        return [helper(f).to_records() for f in frames]

    def _time_column(self, obj):
        if self._metric == 'response_time':
            return 'path_start_timestamp [ns]'
        return _objects.time_column(obj)

    def to_dataframe(self, xaxis_type='system_time'):
        """xaxis_type 'system_time' and 'index' give the same DataFrame;
        'sim_time' needs the trace's /clock, which caret-c does not read."""
        _args.xaxis_type(xaxis_type)
        value, scaled, _ = METRICS[self._metric]
        whole = pandas.DataFrame()
        for obj, records in zip(self._objects, self.to_timeseries_records_list(xaxis_type)):
            df = records.to_dataframe()
            if scaled:
                df[df.columns[-1]] *= 10**(-6)
            df = df.set_axis([self._time_column(obj), value], axis=1)
            df = pandas.concat([df], keys=[_objects.label(obj)], axis=1)
            whole = pandas.concat([whole, df], axis=1)
        return whole.sort_index(level=0, axis=1, sort_remaining=False)

    def _chart(self, xaxis_type):
        records = self.to_timeseries_records_list(xaxis_type)
        value, scaled, y_label = METRICS[self._metric]
        title = f'Timeseries of {self._metric}'
        if self._metric == 'response_time':
            title += f' --- {self._case} case ---'
        by_time = xaxis_type == 'system_time'
        # 0 s: the first instance of any object, as the original's axis
        origin = Range([_objects.records_frame(o) for o in self._objects]).get_range()[0] \
            if by_time else None
        chart = Chart('lines', title, 'system time [s]' if by_time else 'index', y_label,
                      origin)
        for obj, r in zip(self._objects, records):
            df = r.to_dataframe()
            y = as_float(df.iloc[:, 1]) * (1e-6 if scaled else 1)
            x = seconds_from(df.iloc[:, 0], origin) if by_time else list(range(len(df)))
            chart.add(_objects.display_name(obj), x, y)
        return chart
