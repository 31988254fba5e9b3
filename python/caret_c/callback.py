"""A callback over the trace (the original's runtime CallbackBase,
TimerCallback, SubscriptionCallback): its runs as a DataFrame, start
and end."""
from . import _lib, frames
from .path_base import PathBase


class CallbackBase(PathBase):
    def __init__(self, app, value):
        self._app, self._val = app, value
        self._subscription = self._publishers = self._timer = None

    value = property(lambda self: self._val)
    summary = property(lambda self: self._val.summary)
    node_name = property(lambda self: self._val.node_name)
    symbol = property(lambda self: self._val.symbol)
    callback_name = property(lambda self: self._val.callback_name)
    callback_type = property(lambda self: self._val.callback_type)
    subscribe_topic_name = property(lambda self: self._val.subscribe_topic_name)
    subscription = property(lambda self: self._subscription)
    timer = property(lambda self: self._timer)

    @property
    def publishers(self):
        if self._publishers is None:
            return None
        return sorted(self._publishers, key=lambda p: p.topic_name)

    @property
    def publish_topic_names(self):
        topics = self._val.publish_topics
        return None if topics is None else sorted(t.topic_name for t in topics)

    def __repr__(self):
        return f'{type(self).__name__}({self.callback_name!r})'

    def to_numpy(self):
        """The runs: (start, end) uint64 trace-clock arrays, end 0 where it
        had not ended."""
        cb = self._app._trace_callback(self.callback_name)
        runs = self._app.lttng.runs(cb['id']) if cb else _lib.numpy.zeros(0, _lib.RUN)
        return runs['start'], runs['end']

    def _frame(self):
        start, end = self.to_numpy()
        n = self.callback_name
        return frames.frame([f'{n}/callback_start_timestamp', f'{n}/callback_end_timestamp'],
                            [start, end], self._app.epoch_offset)


class TimerCallback(CallbackBase):
    period_ns = property(lambda self: self._val.period_ns)


class SubscriptionCallback(CallbackBase):
    pass


class ServiceCallback(CallbackBase):
    pass


def callback_class(value):
    return {'timer_callback': TimerCallback, 'subscription_callback': SubscriptionCallback,
            'service_callback': ServiceCallback}.get(value.callback_type_name, CallbackBase)
