"""A communication over the trace (the original's runtime
Communication): every publish of the publisher on the topic, with its
stages and the subscription callback's start that handled it."""
import logging

from . import _lib, frames
from .path_base import PathBase

logger = logging.getLogger(__name__)
INTER_STAGES = ('rclcpp_publish', 'rcl_publish', 'dds_write', 'source_timestamp')


class Communication(PathBase):
    def __init__(self, app, value, publish_node, subscribe_node, publisher, subscription,
                 callbacks_publish, callback_subscription):
        self._app, self._val, self._intra = app, value, None
        self._pub_node, self._sub_node = publish_node, subscribe_node
        self._publisher, self._subscription = publisher, subscription
        self._callbacks_publish, self._callback_subscription = \
            callbacks_publish, callback_subscription

    value = property(lambda self: self._val)
    summary = property(lambda self: self._val.summary)
    topic_name = property(lambda self: self._val.topic_name)
    publish_node_name = property(lambda self: self._val.publish_node_name)
    subscribe_node_name = property(lambda self: self._val.subscribe_node_name)
    publish_node = property(lambda self: self._pub_node)
    subscribe_node = property(lambda self: self._sub_node)
    publisher = property(lambda self: self._publisher)
    subscription = property(lambda self: self._subscription)
    callback_publish = property(lambda self: self._callbacks_publish)
    callback_subscription = property(lambda self: self._callback_subscription)
    publisher_construction_order = property(lambda self: self._val.publisher_construction_order)
    subscription_construction_order = property(
        lambda self: self._val.subscription_construction_order)

    @property
    def is_intra_proc_comm(self):
        return self.is_intra_process()

    def __repr__(self):
        return f'Communication({self.topic_name}: {self.publish_node_name} -> ' \
               f'{self.subscribe_node_name})'

    def _trace_id(self):
        return self._app._trace_communication(self)

    def to_numpy(self):
        """Every publish on the topic by the publishing node, in publish order,
        with its handling by the subscription (MESSAGE records; 0: none)."""
        i = self._trace_id()
        return self._app.lttng.communication_records(i) if i is not None else \
            _lib.numpy.zeros(0, _lib.MESSAGE)

    def to_split_dataframe(self):
        """caret_c's: where each inter-process message handled waited, in
        publish order: its rclcpp publish, source timestamp and subscriber
        callback start (ns since the epoch, as to_dataframe's), and its
        latency in three parts (ns): publish_to_write (to the DDS write),
        write_to_reception (to the subscriber's middleware: Fast DDS's
        reception time, Cyclone DDS's reader arrival matched in order),
        reception_to_callback (the wait for the executor); <NA> where the
        trace cannot tell (docs/latency.md, "Where a message waited")."""
        i = self._trace_id()
        s = self._app.lttng.communication_splits(i) if i is not None else \
            _lib.numpy.zeros(0, _lib.SPLIT)
        times = frames.frame(['rclcpp_publish_timestamp', 'source_timestamp',
                              'callback_start_timestamp'],
                             [s['rclcpp_publish'], s['source_timestamp'], s['callback_start']],
                             [self._app.epoch_offset, 0, self._app.epoch_offset])
        for part in ('publish_to_write', 'write_to_reception', 'reception_to_callback'):
            times[part] = frames.pandas.arrays.IntegerArray(s[part].astype('i8'), ~s['split'])
        return times

    def is_intra_process(self, messages=None):
        if messages is not None:
            return bool(len(messages)) and bool(messages['intra'].all())
        # asked per hop by every path frame: the C library's answer, kept
        if self._intra is None:
            i = self._trace_id()
            self._intra = i is not None and self._app.lttng.communication_intra(i)
        return self._intra

    def verify(self):
        """Whether the trace has what this communication's records need:
        the subscription's handling of some message (the original asks
        whether the subscribing node recorded CARET's dispatch events,
        which the C library does not count per node)."""
        m = self.to_numpy()
        if len(m) and (m['callback_start'] != 0).any():
            return True
        logger.warning(f"'caret/rclcpp' may not be used in subscriber of "
                       f"'{self.subscribe_node_name}'.")
        return False

    def _frame(self):
        if self._callback_subscription is None:
            return frames.frame([], [])
        m = self.to_numpy()
        t, cb = self.topic_name, self._callback_subscription.callback_name
        # no record at all (an upstream Humble intra-process trace): the
        # original's empty inter-process records, without rcl and DDS stages
        stages = ('rclcpp_publish',) if self.is_intra_process(m) else \
            INTER_STAGES if len(m) else ('rclcpp_publish', 'source_timestamp')
        names = [f'{t}/{s}' if s == 'source_timestamp' else f'{t}/{s}_timestamp'
                 for s in stages] + [f'{cb}/callback_start_timestamp']
        # DDS's source timestamp is the epoch's already
        offsets = [0 if s == 'source_timestamp' else self._app.epoch_offset
                   for s in stages + ('callback_start',)]
        return frames.frame(names, [m[s] for s in stages] + [m['callback_start']], offsets)
