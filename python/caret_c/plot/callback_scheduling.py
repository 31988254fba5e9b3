"""The callbacks' scheduling: a lane per callback, its runs as bars, over
the callback groups of a node, an executor, an application, a path's
nodes, or callback groups given. The original's to_dataframe() returns an
empty DataFrame (with a warning); caret_c's gives the runs drawn."""
import pandas

from . import _args, _window
from .chart import Chart, seconds_from
from .plot_base import PlotBase
from .._exceptions_compat import ItemNotFoundError, UnsupportedTypeError
from ..record import Range

COLORING_RULES = ('callback', 'callback_group', 'node')


class _Group:
    """A node's callbacks, when callbacks are given (caret-c's addition)."""

    def __init__(self, name, callbacks):
        self.callback_group_name, self.callbacks = name, list(callbacks)


def _by_node(callbacks):
    nodes = {}
    for cb in callbacks:
        nodes.setdefault(cb.node_name, []).append(cb)
    return [_Group(n, cbs) for n, cbs in nodes.items()]


def _unique(groups):
    out = []
    for g in groups:
        if g not in out:
            out.append(g)
    return out


def callback_groups(target):
    """The callback groups drawn for a target, as the original finds them:
    a path's are those of the nodes publishing along it and of its last
    node; callbacks given (caret-c's addition) are drawn by node."""
    if isinstance(target, (tuple, set)):
        target = list(target)
    if _args.is_a(target, 'Application', 'Executor', 'Node'):
        return list(target.callback_groups or [])
    if _args.is_a(target, 'Path'):
        comms = target.communications
        nodes = [c.publish_node for c in comms] + ([comms[-1].subscribe_node] if comms else [])
        return _unique(g for n in nodes for g in n.callback_groups or [])
    if _args.is_a(target, 'CallbackGroup'):
        return [target]
    if _args.is_a(target, 'CallbackBase'):
        return _by_node([target])
    if isinstance(target, list):
        if all(_args.is_a(t, 'CallbackGroup') for t in target):
            return target
        if all(_args.is_a(t, 'CallbackBase') for t in target):
            return _by_node(target)
    raise UnsupportedTypeError(
        "Type of argument 'target_objects' must be ['Application', 'Executor', 'Path', 'Node', "
        "'CallbackGroup', 'Sequence[CallbackGroup]']. "
        f"The given argument type is '{type(target).__name__}'.")


class CallbackSchedulingPlot(PlotBase):
    XAXIS_TYPES = ('system_time', 'sim_time')

    def __init__(self, target_objects, lstrip_s=0, rstrip_s=0):
        self._groups = callback_groups(target_objects)
        if not self._groups:
            raise ItemNotFoundError('callback_groups is empty.')
        if not any(g.callbacks for g in self._groups):
            raise ItemNotFoundError('callback_groups has no callback.')
        self._lstrip_s, self._rstrip_s = lstrip_s, rstrip_s

    def _lanes(self):
        """(group, callback, its runs in the window) a lane; low, high ns."""
        pairs = [(g, cb) for g in self._groups for cb in g.callbacks]
        frames = [cb.to_dataframe() for _, cb in pairs]
        low, high = Range(frames).get_range()
        low, high = int(low + self._lstrip_s * 1.0e9), int(high - self._rstrip_s * 1.0e9)
        return [(g, cb, _window.clip(f, low, high)) for (g, cb), f in zip(pairs, frames)], \
            low, high

    def to_dataframe(self, xaxis_type='system_time'):
        """caret-c's own (the original's is empty): per callback (the top
        level, its name) its runs' 'callback_start_timestamp [ns]' and
        'callback_end_timestamp [ns]' (Int64, <NA>: not ended) in the
        window, lanes in drawing order, rows aligned by position."""
        _args.xaxis_type(xaxis_type, self.XAXIS_TYPES)
        _args.no_sim_time(xaxis_type)
        lanes, _, _ = self._lanes()
        parts = [pandas.concat([runs.set_axis(['callback_start_timestamp [ns]',
                                               'callback_end_timestamp [ns]'], axis=1)],
                               keys=[cb.callback_name], axis=1)
                 for _, cb, runs in lanes]
        return pandas.concat(parts, axis=1) if parts else pandas.DataFrame()

    def _chart(self, xaxis_type, coloring_rule=None):
        coloring_rule = coloring_rule or 'callback'
        if coloring_rule not in COLORING_RULES:
            raise UnsupportedTypeError(f'Unsupported coloring_rule. coloring_rule = '
                                       f'{coloring_rule}. supported coloring_rule: '
                                       '[callback/callback_group/node]')
        lanes, low, high = self._lanes()
        names = '/'.join(g.callback_group_name for g in self._groups)
        chart = Chart('sched', f'Callback Scheduling in [{names}].', 'system time [s]', '', low)
        keys, out = {}, []
        for g, cb, runs in lanes:
            key = {'callback': cb.callback_name, 'callback_group': g.callback_group_name,
                   'node': cb.node_name}[coloring_rule]
            starts, ends = seconds_from(runs.iloc[:, 0], low), seconds_from(runs.iloc[:, -1], low)
            out.append({'name': cb.callback_name, 'colour': keys.setdefault(key, len(keys)),
                        'runs': [[a, b] for a, b in zip(starts, ends)]})
        chart.data['lanes'] = out
        chart.data['range'] = [0.0, (high - low) * 1e-9]
        return chart
