"""A node's publishers, subscriptions and timers over the trace (the
original's runtime Publisher, Subscription, Timer). A subscription's
DataFrame is its callback's runs with the source timestamp of the
message each took. A publisher's and a timer's are not here: the C
library gives no publish's message_timestamp and no timer event
(docs/python.md)."""
from . import _lib, frames
from .path_base import PathBase


class _Part:
    def __init__(self, app, value):
        self._app, self._val = app, value

    value = property(lambda self: self._val)
    summary = property(lambda self: self._val.summary)
    node_name = property(lambda self: self._val.node_name)
    construction_order = property(lambda self: self._val.construction_order)


class Publisher(_Part):
    topic_name = property(lambda self: self._val.topic_name)

    @property
    def callback_names(self):
        names = self._val.callback_names
        return None if names is None else sorted(names)

    def __repr__(self):
        return f'Publisher({self.node_name}: {self.topic_name})'


class Subscription(_Part, PathBase):
    topic_name = property(lambda self: self._val.topic_name)
    callback_name = property(lambda self: self._val.callback_name)

    def __repr__(self):
        return f'Subscription({self.node_name}: {self.topic_name})'

    def _frame(self):
        cb = self._app._trace_callback(self.callback_name) if self.callback_name else None
        rec = _lib.numpy.zeros(0, _lib.NODE_RECORD) if cb is None else \
            self._app.lttng.node_path_records(
                cb['id'], self._app.arch._trace_name(self.topic_name), _lib.CALLBACK_CHAIN)
        # the source timestamp is DDS's, the epoch's already
        return frames.frame([f'{self.callback_name}/callback_start_timestamp',
                             f'{self.topic_name}/source_timestamp'],
                            [rec['callback_start'], rec['source_timestamp']],
                            [self._app.epoch_offset, 0])


class Timer(_Part):
    period_ns = property(lambda self: self._val.period_ns)
    callback_name = property(lambda self: self._val.callback_name)

    def __repr__(self):
        return f'Timer({self.callback_name})'
