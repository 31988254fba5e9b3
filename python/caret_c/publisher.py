"""A node's publishers, subscriptions and timers over the trace (the
original's runtime Publisher, Subscription, Timer). A publisher's
DataFrame is its publishes through the DDS with their stages; a
subscription's, its callback's runs with the source timestamp of the
message each took. A timer's is not here: the C library gives no timer
event (docs/python.md)."""
import pandas

from . import _lib, frames
from .exceptions import CaretError
from .path_base import PathBase


class _Part:
    def __init__(self, app, value):
        self._app, self._val = app, value

    value = property(lambda self: self._val)
    summary = property(lambda self: self._val.summary)
    node_name = property(lambda self: self._val.node_name)
    construction_order = property(lambda self: self._val.construction_order)


class Publisher(_Part, PathBase):
    topic_name = property(lambda self: self._val.topic_name)

    @property
    def callback_names(self):
        names = self._val.callback_names
        return None if names is None else sorted(names)

    def __repr__(self):
        return f'Publisher({self.node_name}: {self.topic_name})'

    def _frame(self):
        tn = self._app.arch._trace_name
        try:
            rec = self._app.lttng.publisher_records(tn(self.node_name), tn(self.topic_name))
        except CaretError:  # none in the trace: the original's columns, no row
            rec = _lib.numpy.zeros(0, _lib.MESSAGE)
        t, summary = self.topic_name, self._app.lttng.summary()
        # the rcl and DDS stages of a publisher that published through the
        # DDS, where the trace has them at all, as the original (an
        # intra-process publisher's records are rclcpp_intra_publish's)
        inter = bool(len(rec)) and not rec['intra'].all()
        stages = ['rclcpp_publish'] + \
            (['rcl_publish'] if inter and summary['rcl_publish_recorded'] else []) + \
            (['dds_write'] if inter and summary['dds_write_recorded'] else [])
        df = frames.frame([f'{t}/{s}_timestamp' for s in stages], [rec[s] for s in stages],
                          self._app.epoch_offset)
        # the original's message_timestamp: the field rclcpp_publish carries
        # in no distribution's trace, so 0 (a value, not <NA>) as it shows it
        df[f'{t}/message_timestamp'] = pandas.array([0] * len(rec), dtype='Int64')
        # DDS's source timestamp is the epoch's already
        df[f'{t}/source_timestamp'] = frames.column(rec['source_timestamp'])
        return df


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
