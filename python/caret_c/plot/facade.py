"""Plot: the original's caret_analyze.plot.Plot, its create_* with the
original's arguments and checks."""
from . import _args
from .callback_scheduling import CallbackSchedulingPlot
from .histogram import HistogramPlot
from .message_flow import MessageFlowPlot
from .stacked_bar import LatencyStackedBar, StackedBarPlot
from .timeseries import TimeSeriesPlot
from .._exceptions_compat import UnsupportedTypeError

COMMUNICATING = ('CallbackBase', 'Communication', 'Publisher', 'Subscription')
TIMED = ('CallbackBase', 'Communication')


class Plot:
    """Each create_* takes its objects unpacked or as one collection
    (create_latency_timeseries_plot(app.callbacks))."""

    @staticmethod
    def create_frequency_timeseries_plot(*target_objects):
        return TimeSeriesPlot('frequency', _args.objects(target_objects, COMMUNICATING))

    @staticmethod
    def create_period_timeseries_plot(*target_objects):
        return TimeSeriesPlot('period', _args.objects(target_objects, COMMUNICATING))

    @staticmethod
    def create_latency_timeseries_plot(*target_objects):
        return TimeSeriesPlot('latency', _args.objects(target_objects, TIMED))

    @staticmethod
    def create_response_time_timeseries_plot(*target_objects, case='all'):
        _args.text(case, 'case')
        return TimeSeriesPlot('response_time', _args.objects(target_objects, ('Path',)), case)

    @staticmethod
    def create_frequency_histogram_plot(*target_objects):
        return HistogramPlot('frequency', _args.objects(target_objects, COMMUNICATING))

    @staticmethod
    def create_period_histogram_plot(*target_objects):
        return HistogramPlot('period', _args.objects(target_objects, COMMUNICATING))

    @staticmethod
    def create_latency_histogram_plot(*target_objects):
        return HistogramPlot('latency', _args.objects(target_objects, TIMED))

    @staticmethod
    def create_response_time_histogram_plot(*target_objects, case='all'):
        _args.text(case, 'case')
        return HistogramPlot('response_time', _args.objects(target_objects, ('Path',)), case)

    @staticmethod
    def create_response_time_stacked_bar_plot(target_object, metrics='latency', case='all'):
        _args.one(target_object, ('Path',), 'target_object')
        _args.text(metrics, 'metrics')
        _args.text(case, 'case')
        if metrics == 'percentage':
            raise NotImplementedError()
        if metrics != 'latency':
            raise UnsupportedTypeError('Unsupported metrics specified. '
                                       'Supported metrics: [latency]')
        return StackedBarPlot(LatencyStackedBar(target_object, case), case)

    @staticmethod
    def create_message_flow_plot(target_path, granularity=None, treat_drop_as_delay=False,
                                 lstrip_s=0, rstrip_s=0):
        _args.one(target_path, ('Path',), 'target_path')
        _args.text(granularity, 'granularity', optional=True)
        _args.flag(treat_drop_as_delay, 'treat_drop_as_delay')
        _args.number(lstrip_s, 'lstrip_s')
        _args.number(rstrip_s, 'rstrip_s')
        return MessageFlowPlot(target_path, granularity, treat_drop_as_delay, lstrip_s, rstrip_s)

    @staticmethod
    def create_callback_scheduling_plot(target_objects, lstrip_s=0, rstrip_s=0):
        """A node, callback group(s), an executor, a path or the
        application; callbacks too (caret-c's addition: a lane each)."""
        _args.number(lstrip_s, 'lstrip_s')
        _args.number(rstrip_s, 'rstrip_s')
        return CallbackSchedulingPlot(target_objects, lstrip_s, rstrip_s)
