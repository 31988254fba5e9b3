"""NodePath: a node's input topic to its output topic, with the records
the original gives under its message context (caret_analyze's
NodeRecordsCallbackChain, NodeRecordsUseLatestMessage,
NodeRecordsInheritUniqueTimestamp)."""
from . import _lib, frames


class NodePath:
    """A node's input (subscribe_topic_name) to its output
    (publish_topic_name); records where its message context says how."""

    def __init__(self, app, node_name, sub, pub, context):
        self._app, self.node_name = app, node_name
        self.subscribe_topic_name, self.publish_topic_name = sub, pub
        self.message_context = context

    @property
    def callbacks(self):
        names = (self.message_context or {}).get('callbacks') or []
        return [self._app.get_callback(n) for n in names]

    def _records(self, callback, policy):
        info = self._app._trace_callback(callback)
        topic = self._app.arch._trace_name(self.publish_topic_name)
        return self._app.lttng.node_path_records(info['id'], topic, policy) if info else \
            _lib.numpy.zeros(0, _lib.NODE_RECORD)

    def to_dataframe(self):
        ctx, pub = self.message_context or {}, self.publish_topic_name
        kind = ctx.get('context_type')
        out = f'{pub}/rclcpp_publish_timestamp'
        if kind == 'callback_chain' and ctx.get('callbacks'):
            cb = ctx['callbacks'][0]
            rec = self._records(cb, _lib.CALLBACK_CHAIN)
            return frames.frame([f'{cb}/callback_start_timestamp', out],
                                [rec['callback_start'], rec['publish']], self._app.epoch_offset)
        if kind not in ('use_latest_message', 'inherit_unique_stamp') or \
                not self.subscribe_topic_name or not pub:
            return frames.frame([], [])  # the original computes nothing either
        cb = self._app._subscription_callback(self.node_name, self.subscribe_topic_name)
        rec = self._records(cb, _lib.USE_LATEST_MESSAGE)
        start = f'{cb}/callback_start_timestamp'
        if kind == 'inherit_unique_stamp':
            # the original joins the input's and the output's message stamps,
            # but its input records carry none: no output for any run
            return frames.frame([start, out], [rec['callback_start'], rec['publish'] * 0],
                                self._app.epoch_offset)
        # the source timestamp is DDS's, the epoch's already
        return frames.frame([start, f'{self.subscribe_topic_name}/source_timestamp', out],
                            [rec['callback_start'], rec['source_timestamp'], rec['publish']],
                            [self._app.epoch_offset, 0, self._app.epoch_offset])
