"""NodePath: a node's input topic to its output topic over the trace,
with the records the original gives under its message context
(caret_analyze's NodeRecordsCallbackChain, NodeRecordsUseLatestMessage,
NodeRecordsInheritUniqueTimestamp), and caret-c's
consume_latest_message."""
import logging

from . import _lib, frames
from .exceptions import UnsupportedNodeRecordsError
from .path_base import PathBase

logger = logging.getLogger(__name__)

POLICIES = {'callback_chain': _lib.CALLBACK_CHAIN,
            'use_latest_message': _lib.USE_LATEST_MESSAGE,
            'inherit_unique_stamp': _lib.INHERIT_UNIQUE_STAMP,
            'consume_latest_message': _lib.CONSUME_LATEST_MESSAGE}


def chain_problem(value):
    """Why the original computes nothing for a callback_chain node path
    (None: it does): no callbacks, or callbacks that do not take its input
    or publish its output."""
    cbs = value.callbacks
    if not cbs:
        return 'its callback chain has no callback'
    tail, head = cbs[-1], cbs[0]
    if value.publish_topic_name is not None and tail.publish_topics is not None and \
            (value.publish_topic_name, value.publisher_construction_order) not in \
            [(t.topic_name, t.construction_order) for t in tail.publish_topics]:
        return f'{tail.callback_name} does not publish {value.publish_topic_name}'
    if value.subscribe_topic_name is not None and \
            (value.subscribe_topic_name, value.subscription_construction_order) != \
            (head.subscribe_topic_name, head.construction_order):
        return f'{head.callback_name} does not take {value.subscribe_topic_name}'
    return None


class NodePath(PathBase):
    """A node's input (subscribe_topic_name) to its output
    (publish_topic_name); records where its message context says how."""

    def __init__(self, app, value, subscription, publisher, callbacks):
        self._app, self._val = app, value
        self._sub, self._pub, self._callbacks = subscription, publisher, callbacks

    value = property(lambda self: self._val)
    summary = property(lambda self: self._val.summary)
    node_name = property(lambda self: self._val.node_name)
    message_context = property(lambda self: self._val.message_context)
    subscribe_topic_name = property(lambda self: self._val.subscribe_topic_name)
    publish_topic_name = property(lambda self: self._val.publish_topic_name)
    subscription = property(lambda self: self._sub)
    publisher = property(lambda self: self._pub)
    publisher_construction_order = property(
        lambda self: self._pub.construction_order if self._pub else None)
    subscription_construction_order = property(
        lambda self: self._sub.construction_order if self._sub else None)

    @property
    def callbacks(self):
        if self._callbacks is None:
            return None
        return sorted(self._callbacks, key=lambda c: c.callback_name)

    def __repr__(self):
        return f'NodePath({self.node_name}: {self.subscribe_topic_name} -> ' \
               f'{self.publish_topic_name})'

    def _records(self, callback, policy):
        info = self._app._trace_callback(callback)
        topic = self._app.arch._trace_name(self.publish_topic_name)
        return self._app.lttng.node_path_records(info['id'], topic, policy) if info else \
            _lib.numpy.zeros(0, _lib.NODE_RECORD)

    def _frame(self):
        ctx = self.message_context
        if ctx is None or self.subscribe_topic_name is None or self.publish_topic_name is None:
            return frames.frame([], [])  # the original computes nothing either
        out = f'{self.publish_topic_name}/rclcpp_publish_timestamp'
        if ctx.type_name == 'callback_chain':
            problem = chain_problem(self._val)
            if problem:
                logger.warning(f'{self.node_name}: {problem}: no records (as the original)')
                return frames.frame([], [])
            if len(self._val.child) > 1:
                raise UnsupportedNodeRecordsError(
                    f'{self.node_name}: a callback chain through a variable passing '
                    f'({", ".join(self._val.callback_names)}) is not computed by caret_c')
            cb = self._val.callbacks[0].callback_name
            rec = self._records(cb, _lib.CALLBACK_CHAIN)
            return frames.frame([f'{cb}/callback_start_timestamp', out],
                                [rec['callback_start'], rec['publish']], self._app.epoch_offset)
        if ctx.type_name not in POLICIES:
            raise UnsupportedNodeRecordsError(
                f'Unknown message context. message_context = {ctx.type_name}')
        cb = self._val.subscription_callback
        if cb is None:
            raise UnsupportedNodeRecordsError(
                f'{self.node_name} takes {self.subscribe_topic_name} without a subscription '
                'callback (rmw_take): not computed by caret_c')
        cb = cb.callback_name
        start = f'{cb}/callback_start_timestamp'
        if ctx.type_name == 'inherit_unique_stamp':
            # the original joins the input's and the output's message stamps,
            # but its input records carry none: no output for any run
            rec = self._records(cb, _lib.CONSUME_LATEST_MESSAGE)
            return frames.frame([start, out], [rec['callback_start'], rec['publish'] * 0],
                                self._app.epoch_offset)
        rec = self._records(cb, POLICIES[ctx.type_name])
        # the source timestamp is DDS's, the epoch's already
        return frames.frame([start, f'{self.subscribe_topic_name}/source_timestamp', out],
                            [rec['callback_start'], rec['source_timestamp'], rec['publish']],
                            [self._app.epoch_offset, 0, self._app.epoch_offset])
