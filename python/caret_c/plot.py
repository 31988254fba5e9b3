"""Plot: the original's Plot.create_* for the charts people use most,
drawn with matplotlib (static figures; the original draws with bokeh).
Each plot's to_dataframe() gives its data, one (time, value) pair of
columns per object; figure() draws it (matplotlib is imported then only),
show() and save(path) as the original's."""
import numpy
import pandas

from .application import CallbackBase, Communication, Path
from .record import ResponseTime

CASES = {'all': 'to_all_records', 'best': 'to_best_case_records',
         'worst': 'to_worst_case_records',
         'worst-with-external-latency': 'to_worst_with_external_latency_case_records'}


def _name(obj):
    if isinstance(obj, CallbackBase):
        return obj.callback_name
    if isinstance(obj, Communication):
        return f'{obj.topic_name} ({obj.publish_node_name} -> {obj.subscribe_node_name})'
    if isinstance(obj, Path):
        return obj.path_name
    raise TypeError(f'cannot plot a {type(obj).__name__}')


def _start_end(obj):
    """(start, end) ns since the epoch of each instance that has both."""
    df = obj.to_dataframe()
    if isinstance(obj, Path):
        df = df.dropna()
    else:
        df = df.iloc[:, [0, -1]].dropna()
    return (df.iloc[:, 0].to_numpy(dtype=numpy.int64),
            df.iloc[:, -1].to_numpy(dtype=numpy.int64))


def latency(obj):
    start, end = _start_end(obj)
    return start, end - start


def period(obj):
    start = numpy.sort(obj.to_dataframe().iloc[:, 0].dropna().to_numpy(dtype=numpy.int64))
    return start[1:], numpy.diff(start)


def frequency(obj, start_ns=None):
    """Instances per second, in whole seconds from start_ns (the first
    instance's by default)."""
    start = obj.to_dataframe().iloc[:, 0].dropna().to_numpy(dtype=numpy.int64)
    if not len(start):
        return start, start
    origin = int(start.min()) if start_ns is None else start_ns
    bins = (start - origin) // 1_000_000_000
    counts = numpy.bincount(bins[bins >= 0])
    return origin + numpy.arange(len(counts), dtype=numpy.int64) * 1_000_000_000, counts


def response_time(path, case):
    df = getattr(ResponseTime(path.to_records()), CASES[case])().to_dataframe()
    return (df.iloc[:, 0].to_numpy(dtype=numpy.int64),
            df['response_time'].to_numpy(dtype=numpy.int64))


def _notebook_shows_figures():
    """In a notebook's kernel, a Figure returned by a cell shows as a PNG
    (the formatter that pyplot's inline backend would register)."""
    try:
        from IPython import get_ipython
        from IPython.core.pylabtools import select_figure_formats
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None and getattr(shell, 'kernel', None) is not None:
        select_figure_formats(shell, {'png'})


class PlotBase:
    def __init__(self, kind, unit, series, histogram=False):
        self._kind, self._unit = kind, unit
        self._series = series  # [(name, times, values)]
        self._histogram = histogram

    def to_dataframe(self):
        """Per object two columns, (name, 'time') and (name, kind), as the
        original's timeseries DataFrames pair them."""
        cols = {}
        for name, t, v in self._series:
            cols[(name, 'time')] = pandas.array(t, dtype='Int64')
            cols[(name, self._kind)] = pandas.array(v, dtype='Int64')
        return pandas.DataFrame({k: pandas.Series(v) for k, v in cols.items()})

    def figure(self, full_legends=False):
        """A matplotlib Figure of its own (not pyplot's: a notebook shows it
        once, where it is returned)."""
        from matplotlib.figure import Figure
        _notebook_shows_figures()
        fig = Figure(figsize=(10, 4))
        ax = fig.subplots()
        scale = 1e-6 if self._unit == 'ns' else 1.0
        unit = 'ms' if self._unit == 'ns' else self._unit
        for name, t, v in self._series:
            if self._histogram:
                ax.hist(v * scale, bins=30, alpha=0.6, label=name)
            else:
                origin = min((int(x[1][0]) for x in self._series if len(x[1])), default=0)
                ax.plot((t - origin) * 1e-9, v * scale, marker='.', linewidth=0.8, label=name)
        if self._histogram:
            ax.set_xlabel(f'{self._kind} [{unit}]')
            ax.set_ylabel('count')
        else:
            ax.set_xlabel('time [s] from the first instance')
            ax.set_ylabel(f'{self._kind} [{unit}]')
        if full_legends or len(self._series) <= 10:
            ax.legend(fontsize='small')
        fig.tight_layout()
        return fig

    def show(self, **kw):
        """Shows the figure: in a notebook, where the call is; else in
        pyplot's window."""
        fig = self.figure(**kw)
        try:
            from IPython.display import display
            from IPython import get_ipython
            if get_ipython() is not None:
                display(fig)
                return
        except ImportError:
            pass
        import matplotlib.pyplot as plt
        manager = plt.figure().canvas.manager
        manager.canvas.figure = fig
        fig.set_canvas(manager.canvas)
        plt.show()

    def save(self, export_path, **kw):
        self.figure(**kw).savefig(export_path)


class StackedBarPlot(PlotBase):
    """Per message of a path (complete ones; a response-time case's inputs
    for case != 'all'), the time spent between each stage and the next:
    the path's columns two by two."""

    def __init__(self, path, case):
        df = path.to_dataframe().dropna()
        if case != 'all':
            inputs, _ = response_time(path, case)
            df = df[df.iloc[:, 0].isin(inputs)]
        cols = list(df.columns)
        self._start = df.iloc[:, 0].to_numpy(dtype=numpy.int64)
        self._segments = [(f'{a} -> {b}', (df[b] - df[a]).to_numpy(dtype=numpy.int64))
                          for a, b in zip(cols, cols[1:])]
        super().__init__('latency', 'ns', [])

    def to_dataframe(self):
        out = pandas.DataFrame({'start_time': pandas.array(self._start, dtype='Int64')})
        for name, v in self._segments:
            out[name] = pandas.array(v, dtype='Int64')
        return out

    def figure(self, full_legends=False):
        from matplotlib.figure import Figure
        _notebook_shows_figures()
        fig = Figure(figsize=(10, 4))
        ax = fig.subplots()
        x = numpy.arange(len(self._start))
        bottom = numpy.zeros(len(self._start))
        for name, v in self._segments:
            ax.bar(x, v * 1e-6, bottom=bottom, label=name, width=1.0)
            bottom += v * 1e-6
        ax.set_xlabel('message')
        ax.set_ylabel('latency [ms]')
        # beside the bars, not over them: a segment's name is long
        ax.legend(fontsize='x-small', loc='upper left', bbox_to_anchor=(1.01, 1.0))
        fig.tight_layout()
        return fig


class MessageFlowPlot(PlotBase):
    """Each message of a path as a line through its stages' times."""

    def __init__(self, path):
        self._df = path.to_dataframe()
        super().__init__('stage', '', [])

    def to_dataframe(self):
        return self._df

    def figure(self, full_legends=False):
        from matplotlib.figure import Figure
        _notebook_shows_figures()
        fig = Figure(figsize=(10, 5))
        ax = fig.subplots()
        values = self._df.to_numpy(dtype='float64', na_value=numpy.nan)
        origin = numpy.nanmin(values) if values.size else 0
        ys = numpy.arange(values.shape[1])
        for row in values:
            ax.plot((row - origin) * 1e-9, ys, linewidth=0.6)
        ax.set_yticks(ys, [c.rsplit('/', 1)[0].replace('_timestamp', '')
                           for c in self._df.columns], fontsize='x-small')
        ax.invert_yaxis()
        ax.set_xlabel('time [s] from the first stage')
        fig.tight_layout()
        return fig


class CallbackSchedulingPlot(PlotBase):
    """Each callback's runs as bars on one line per callback."""

    def __init__(self, callbacks):
        self._runs = [(cb.callback_name, *cb.to_numpy()) for cb in callbacks]
        super().__init__('run', 'ns', [])

    def to_dataframe(self):
        rows = {'callback_name': [], 'callback_start': [], 'callback_end': []}
        for name, start, end in self._runs:
            rows['callback_name'] += [name] * len(start)
            rows['callback_start'].append(start)
            rows['callback_end'].append(end)
        starts = numpy.concatenate(rows['callback_start']) if self._runs else []
        ends = numpy.concatenate(rows['callback_end']) if self._runs else []
        out = pandas.DataFrame({'callback_name': rows['callback_name'],
                                'callback_start': pandas.array(starts.astype('i8'), dtype='Int64'),
                                'callback_end': pandas.array(ends.astype('i8'), dtype='Int64')})
        out.loc[out['callback_end'] == 0, 'callback_end'] = pandas.NA
        return out.sort_values('callback_start', kind='stable').reset_index(drop=True)

    def figure(self, full_legends=False):
        from matplotlib.figure import Figure
        _notebook_shows_figures()
        fig = Figure(figsize=(10, 1 + 0.5 * len(self._runs)))
        ax = fig.subplots()
        starts = [s[0] for _, s, _ in self._runs if len(s)]
        origin = min(starts) if starts else 0
        for y, (name, start, end) in enumerate(self._runs):
            done = end > 0
            ax.broken_barh(list(zip((start[done] - origin) * 1e-9,
                                    (end[done] - start[done]) * 1e-9)), (y - 0.4, 0.8))
        ax.set_yticks(range(len(self._runs)), [n for n, _, _ in self._runs],
                      fontsize='small')
        ax.set_xlabel('time [s] from the first run')
        fig.tight_layout()
        return fig


class Plot:
    """caret_analyze.plot.Plot's create_* that caret_c draws."""

    @staticmethod
    def create_latency_timeseries_plot(*target_objects):
        return PlotBase('latency', 'ns', [(_name(o), *latency(o)) for o in target_objects])

    @staticmethod
    def create_period_timeseries_plot(*target_objects):
        return PlotBase('period', 'ns', [(_name(o), *period(o)) for o in target_objects])

    @staticmethod
    def create_frequency_timeseries_plot(*target_objects):
        starts = [o.to_dataframe().iloc[:, 0].dropna() for o in target_objects]
        origin = min((int(s.min()) for s in starts if len(s)), default=None)
        return PlotBase('frequency', 'Hz', [(_name(o), *frequency(o, origin))
                                             for o in target_objects])

    @staticmethod
    def create_latency_histogram_plot(*target_objects):
        return PlotBase('latency', 'ns', [(_name(o), *latency(o)) for o in target_objects],
                        histogram=True)

    @staticmethod
    def create_period_histogram_plot(*target_objects):
        return PlotBase('period', 'ns', [(_name(o), *period(o)) for o in target_objects],
                        histogram=True)

    @staticmethod
    def create_response_time_timeseries_plot(*target_objects, case='all'):
        return PlotBase('response_time', 'ns',
                        [(_name(p), *response_time(p, case)) for p in target_objects])

    @staticmethod
    def create_response_time_histogram_plot(*target_objects, case='all'):
        return PlotBase('response_time', 'ns',
                        [(_name(p), *response_time(p, case)) for p in target_objects],
                        histogram=True)


    @staticmethod
    def create_response_time_stacked_bar_plot(target_object, metrics='latency', case='all'):
        if metrics != 'latency':
            raise ValueError("metrics: 'latency' only")
        if case not in CASES:
            raise ValueError(f'case: one of {", ".join(CASES)}')
        return StackedBarPlot(target_object, case)

    @staticmethod
    def create_message_flow_plot(target_path):
        return MessageFlowPlot(target_path)

    @staticmethod
    def create_callback_scheduling_plot(target_objects):
        """Callbacks, or objects with callbacks (a path's nodes' as the
        original takes them is not there: pass the callbacks)."""
        objects = target_objects if isinstance(target_objects, (list, tuple)) \
            else [target_objects]
        callbacks = []
        for o in objects:
            callbacks += getattr(o, 'callbacks', None) or [o]
        return CallbackSchedulingPlot(callbacks)
