"""The response time's stacked bar: per response of a path (the case's),
the time from each stage (a topic's publish, a callback's start) to the
next, in ms, with the response's start time, as the original's
LatencyStackedBar and StackedBarPlot give them."""
import pandas

from . import _args, _objects
from .chart import Chart
from .plot_base import PlotBase
from ..record import Records, ResponseTime, StackedBar

CASE_METHODS = {'all': 'to_all_stacked_bar', 'best': 'to_best_case_stacked_bar',
                'worst': 'to_worst_case_stacked_bar',
                'worst-with-external-latency': 'to_worst_with_external_latency_case_stacked_bar'}


class LatencyStackedBar:
    """LatencyStackedBar(path, case='all')."""

    def __init__(self, target_objects, case='all'):
        self._path, self._case = target_objects, case

    @property
    def target_objects(self):
        return self._path

    def _response_records(self):
        _args.case(self._case, 'stacked_bar')
        response = ResponseTime(self._path.to_records(),
                                columns=_objects.column_names(self._path))
        records = getattr(response, CASE_METHODS[self._case])()
        if response._has_invalid_timestamps():
            # the original's mark: the path's columns, no record
            return Records(_objects.column_names(self._path) + ['invalid_timestamps'])
        return records

    def to_stacked_bar_data(self, xaxis_type='system_time'):
        """({stage: [ns...], 'start time': [ns...]}, the stages)."""
        _args.no_sim_time(xaxis_type)
        bar = StackedBar(self._response_records())
        return bar.to_dict(), bar.columns

    def to_dataframe(self, xaxis_type='system_time'):
        """Every column in ms (float64), 'start time' too; for
        xaxis_type='index', NotImplementedError as the original."""
        data, _ = self.to_stacked_bar_data(xaxis_type)
        if xaxis_type not in ('system_time', 'sim_time'):
            raise NotImplementedError()
        return pandas.DataFrame({k: [v * 1e-6 for v in values] for k, values in data.items()})


class StackedBarPlot(PlotBase):
    def __init__(self, metrics, case='all'):
        self._metrics, self._case = metrics, case

    def to_dataframe(self, xaxis_type='system_time'):
        return self._metrics.to_dataframe(xaxis_type)

    def _chart(self, xaxis_type):
        data, stages = self._metrics.to_stacked_bar_data(xaxis_type)
        starts = data['start time']
        path = self._metrics.target_objects
        title = f'Stacked bar of response_time of {path.path_name} --- {self._case} case ---'
        by_time = xaxis_type != 'index'
        origin = starts[0] if by_time and starts else None
        if by_time:
            x = [(s - starts[0]) * 1e-9 for s in starts]
        else:
            x = list(range(len(starts)))
        # each bar up to the next response (the last as wide as the one before)
        width = [b - a for a, b in zip(x, x[1:])]
        width.append(width[-1] if width else 1)
        chart = Chart('stacked', title, 'start time [s]' if by_time else 'index',
                      'latency [ms]', origin)
        chart.data.update(x=x, width=width)
        for stage in stages:
            chart.add(stage, None, [v * 1e-6 for v in data[stage]])
        return chart
