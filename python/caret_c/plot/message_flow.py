"""The message flow of a path: each message a line through the times of
its stages, the callbacks' runs as grey boxes. The original's
to_dataframe() returns an empty DataFrame (with a warning); caret_c's
gives what is drawn: a row a message, a column a stage (Int64 ns).
(`from caret_c.plot import message_flow` imports this module, as the
original's import gives its subpackage.)"""
from . import _args, _window
from .chart import Chart, seconds_from
from .plot_base import PlotBase
from .._exceptions_compat import InvalidArgumentError


def _owner(column, names):
    """The node (or topic) a path column belongs to when one of names is
    in it, as the original reads a column; None otherwise."""
    if any(n in column for n in names):
        return '/'.join(column.split('/')[:-3])
    return None


def node_granularity(frame, node_names, topic_names):
    """A node's columns but its first and its publishes (and a callback's
    end after its start), a topic's but its first: the original's node
    granularity."""
    drop = []
    columns = list(frame.columns)
    for before, column in zip(columns, columns[1:]):
        point_before, point = before.split('/')[-2], column.split('/')[-2]
        node_before, node = _owner(before, node_names), _owner(column, node_names)
        if node_before is not None and node is not None and node_before == node and \
                'rclcpp_publish' not in point and \
                not ('callback_start' in point_before and 'callback_end' in point):
            drop.append(column)
        topic_before, topic = _owner(before, topic_names), _owner(column, topic_names)
        if topic_before is not None and topic is not None and topic_before == topic:
            drop.append(column)
    return frame.drop(columns=list(dict.fromkeys(drop)))


def stage_label(column):
    """'/topic_a/rclcpp_publish_timestamp/0' -> '/topic_a/rclcpp_publish'."""
    return column[:column.rfind('_timestamp')] if '_timestamp' in column else column


class MessageFlowPlot(PlotBase):
    def __init__(self, target_path, granularity=None, treat_drop_as_delay=False, lstrip_s=0,
                 rstrip_s=0):
        granularity = granularity or 'raw'
        if granularity not in ('raw', 'node'):
            raise InvalidArgumentError('granularity must be [ raw / node ]')
        self._path, self._granularity = target_path, granularity
        self._treat_drop_as_delay = treat_drop_as_delay
        self._lstrip_s, self._rstrip_s = lstrip_s, rstrip_s

    def _frame(self):
        """(the path's frame, stripped and at the granularity; low, high ns)."""
        if self._treat_drop_as_delay:
            frame = self._path.to_dataframe(treat_drop_as_delay=True)
        else:
            frame = self._path.to_dataframe()
        low, high = _window.window(frame, self._lstrip_s, self._rstrip_s)
        frame = _window.clip(frame, low, high)
        if self._granularity == 'node':
            frame = node_granularity(frame, self._path.node_names, self._path.topic_names)
        return frame.rename(columns=stage_label), low, high

    def to_dataframe(self, xaxis_type='system_time'):
        """caret-c's own (the original's is empty): a row a message, a
        column a stage of the path at the granularity ('_timestamp' and
        the occurrence number left out of the names, as the original's
        axis shows them), ns since the epoch."""
        _args.no_sim_time(xaxis_type)
        return self._frame()[0]

    def _chart(self, xaxis_type):
        frame, low, high = self._frame()
        origin = int(low)
        chart = Chart('flow', f'Message flow of {self._path.path_name}',
                      'system time [s]' if xaxis_type == 'system_time' else xaxis_type, '',
                      origin)
        stages = list(frame.columns)
        chart.data['stages'] = stages
        columns = [seconds_from(frame[c], origin) for c in stages]
        chart.data['lines'] = [[col[i] for col in columns] for i in range(len(frame))]
        boxes = []
        for callback in self._path.callback_chain or []:
            name = callback.callback_name if self._granularity == 'raw' else callback.node_name
            rows = [i for i, s in enumerate(stages) if name in s and 'callback_end' not in s]
            runs = _window.clip(callback.to_dataframe(), low, high).dropna()
            starts = seconds_from(runs.iloc[:, 0], origin)
            ends = seconds_from(runs.iloc[:, -1], origin)
            boxes += [[a, b, row] for row in rows for a, b in zip(starts, ends)]
        chart.data['boxes'] = boxes
        return chart
