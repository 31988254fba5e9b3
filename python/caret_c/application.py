"""Application: an architecture's objects over a trace's records, each
with the original's to_dataframe()."""
from . import _lib, frames
from ._lib import CaretError
from .node_path import NodePath

POLICIES = {'callback_chain': _lib.CALLBACK_CHAIN,
            'use_latest_message': _lib.USE_LATEST_MESSAGE,
            'inherit_unique_stamp': _lib.INHERIT_UNIQUE_STAMP,
            'consume_latest_message': _lib.CONSUME_LATEST_MESSAGE}


class CallbackBase:
    def __init__(self, app, node_name, info):
        self._app, self.node_name = app, node_name
        self.callback_name = info['callback_name']
        self.callback_type = info.get('callback_type')
        self.period_ns = info.get('period_ns')
        self.subscribe_topic_name = info.get('topic_name')
        self.symbol = info.get('symbol')

    def __repr__(self):
        return f'{type(self).__name__}({self.callback_name!r})'

    def to_numpy(self):
        """The runs: (start, end) uint64 arrays, end 0 where it had not ended."""
        cb = self._app._trace_callback(self.callback_name)
        runs = self._app.lttng.runs(cb['id']) if cb else _lib.numpy.zeros(0, _lib.RUN)
        return runs['start'], runs['end']

    def to_dataframe(self):
        start, end = self.to_numpy()
        n = self.callback_name
        return frames.frame([f'{n}/callback_start_timestamp', f'{n}/callback_end_timestamp'],
                            [start, end], self._app.epoch_offset)


class TimerCallback(CallbackBase):
    pass


class SubscriptionCallback(CallbackBase):
    pass


class ServiceCallback(CallbackBase):
    pass


def _callback_class(t):
    return {'timer_callback': TimerCallback, 'subscription_callback': SubscriptionCallback,
            'service_callback': ServiceCallback}.get(t, CallbackBase)


class Communication:
    def __init__(self, app, topic, pub_node, sub_node, callback_name):
        self._app, self._intra = app, None
        self.topic_name, self.publish_node_name = topic, pub_node
        self.subscribe_node_name = sub_node
        self.callback_subscription = app.get_callback(callback_name) if callback_name else None

    def __repr__(self):
        return f'Communication({self.topic_name}: {self.publish_node_name} -> ' \
               f'{self.subscribe_node_name})'

    def to_numpy(self):
        """Every publish on the topic by the publishing node, in publish order,
        with its handling by the subscription (MESSAGE records; 0: none)."""
        i = self._app._trace_communication(self)
        return self._app.lttng.communication_records(i) if i is not None else \
            _lib.numpy.zeros(0, _lib.MESSAGE)

    def is_intra_process(self, messages=None):
        if messages is not None:
            return bool(len(messages)) and bool(messages['intra'].all())
        # asked per hop by every path frame: the C library's answer, no
        # records gathered, kept
        if self._intra is None:
            i = self._app._trace_communication(self)
            self._intra = i is not None and self._app.lttng.communication_intra(i)
        return self._intra

    def to_dataframe(self):
        m = self.to_numpy()
        t, cb = self.topic_name, self.callback_subscription.callback_name
        stages = ['rclcpp_publish'] if self.is_intra_process(m) else \
            ['rclcpp_publish', 'rcl_publish', 'dds_write', 'source_timestamp']
        names = [f'{t}/{s}' if s == 'source_timestamp' else f'{t}/{s}_timestamp'
                 for s in stages] + [f'{cb}/callback_start_timestamp']
        # DDS's source timestamp is the epoch's already
        offsets = [0 if s == 'source_timestamp' else self._app.epoch_offset
                   for s in stages + ['callback_start']]
        return frames.frame(names, [m[s] for s in stages] + [m['callback_start']], offsets)


class Path:
    """A named path followed over the trace; include_first_callback and
    include_last_callback as the original's."""

    def __init__(self, app, struct):
        self._app, self._struct = app, struct
        self.path_name = struct.path_name
        self.include_first_callback = False
        self.include_last_callback = False

    node_names = property(lambda self: self._struct.node_names)
    topic_names = property(lambda self: self._struct.topic_names)

    def _policies(self):
        """Each node's message context for its input and output topic."""
        nodes, topics, out = self.node_names, self.topic_names, []
        by_node = {n.node_name: n.message_contexts for n in self._app.arch.nodes}
        for i, node in enumerate(nodes):
            sub = topics[i - 1] if i else None
            pub = topics[i] if i < len(topics) else None
            policy = _lib.POLICY_DEFAULT
            for c in by_node.get(node, []):
                if c.get('subscription_topic_name') == sub and \
                        c.get('publisher_topic_name') == pub:
                    policy = POLICIES.get(c.get('context_type'), _lib.POLICY_DEFAULT)
            out.append(policy)
        return out

    def _followed(self):
        arch, key = self._app.arch, (self.node_names, self.topic_names)
        if key not in self._app._followed:
            self._app._followed[key] = self._app.lttng.follow(
                [arch._trace_name(n) for n in self.node_names],
                [arch._trace_name(t) for t in self.topic_names], self._policies())
        return self._app._followed[key]

    def to_records(self):
        """What ResponseTime takes: this path under its current flags."""
        return PathRecords(self, self.include_first_callback, self.include_last_callback)

    def to_dataframe(self, remove_dropped=False):
        stamps = self._followed().stamps
        nodes, topics = self.node_names, self.topic_names
        names, cols = [], []
        if self.include_first_callback:
            # the original names the first node's callback callback_x
            names.append(f'{nodes[0]}/callback_x/callback_start_timestamp')
            cols.append(stamps[:, 0])
        for k, topic in enumerate(topics):
            base = 1 + 5 * k
            comm = self._app.get_communication(nodes[k], nodes[k + 1], topic)
            stages = ['rclcpp_publish'] if comm.is_intra_process() else \
                ['rclcpp_publish', 'rcl_publish', 'dds_write']
            for j, s in enumerate(stages):
                names.append(f'{topic}/{s}_timestamp')
                cols.append(stamps[:, base + j])
            cb = self._app._subscription_callback(nodes[k + 1], topic)
            names.append(f'{cb}/callback_start_timestamp')
            cols.append(stamps[:, base + 4])
        cb = self._app._subscription_callback(nodes[-1], topics[-1])
        # the original merges the last callback's runs only when it has any
        if self.include_last_callback and len(self._app.get_callback(cb).to_dataframe()):
            names.append(f'{cb}/callback_end_timestamp')
            cols.append(stamps[:, -1])
        df = frames.frame(frames.numbered(names), cols, self._app.epoch_offset)
        return df.dropna().reset_index(drop=True) if remove_dropped else df


class Application:
    """Application(arch, lttng): the architecture's callbacks,
    communications, node paths and named paths over the trace's records."""

    def __init__(self, arch, lttng):
        self.arch, self.lttng = arch, lttng
        self._followed = {}
        # the original's times are ns since the epoch; the trace's, its clock's
        self.epoch_offset = lttng.summary()['epoch_offset_ns']
        self._comm_ids = {(t, p, s, c): i for t, p, s, c, i in lttng.communications()}
        self.callbacks = [_callback_class(c.callback_type)(self, n.node_name, c.__dict__)
                          for n in arch.nodes for c in n.callbacks]
        self._callbacks = {c.callback_name: c for c in self.callbacks}
        self.communications = []
        for n in arch.nodes:
            for p in n.publishers:
                for m in arch.nodes:
                    for s in m.subscriptions:
                        if s.topic_name == p.topic_name and m.node_name != n.node_name and \
                                s.callback_name:
                            self.communications.append(Communication(
                                self, p.topic_name, n.node_name, m.node_name, s.callback_name))
        self.node_paths = []
        for n in arch.nodes:
            contexts = {(c.get('subscription_topic_name'), c.get('publisher_topic_name')): c
                        for c in n.message_contexts}
            pairs = [(s, p) for s in n.subscribe_topic_names for p in n.publish_topic_names]
            pairs += [(None, p) for p in n.publish_topic_names]
            pairs += [(s, None) for s in n.subscribe_topic_names]
            for s, p in pairs:
                self.node_paths.append(NodePath(self, n.node_name, s, p, contexts.get((s, p))))
        self.paths = [Path(self, p) for p in arch.paths]

    # ---- the trace's names behind the architecture's ----------------------------
    def _trace_callback(self, name):
        return self.lttng.callbacks().get(self.arch._trace_name(name))

    def _trace_communication(self, comm):
        tn = self.arch._trace_name
        return self._comm_ids.get((tn(comm.topic_name), tn(comm.publish_node_name),
                                   tn(comm.subscribe_node_name),
                                   tn(comm.callback_subscription.callback_name)))

    def _subscription_callback(self, node, topic):
        for n in self.arch.nodes:
            if n.node_name == node:
                for s in n.subscriptions:
                    if s.topic_name == topic and s.callback_name:
                        return s.callback_name
        raise CaretError(f'{node} has no callback subscribing to {topic}', 'not found')

    # ---- look-ups ---------------------------------------------------------------
    @property
    def callback_names(self):
        return tuple(self._callbacks)

    @property
    def path_names(self):
        return tuple(p.path_name for p in self.paths)

    def get_callback(self, callback_name):
        try:
            return self._callbacks[callback_name]
        except KeyError:
            raise CaretError(f'no callback named {callback_name}', 'not found') from None

    def get_callbacks(self, *callback_names):
        return [self.get_callback(n) for n in callback_names]

    def get_communication(self, publisher_node_name, subscription_node_name, topic_name):
        for c in self.communications:
            if (c.publish_node_name, c.subscribe_node_name, c.topic_name) == \
                    (publisher_node_name, subscription_node_name, topic_name):
                return c
        raise CaretError(f'no communication {topic_name}: {publisher_node_name} -> '
                         f'{subscription_node_name}', 'not found')

    def get_node_path(self, node_name, subscribe_topic_name, publish_topic_name):
        for p in self.node_paths:
            if (p.node_name, p.subscribe_topic_name, p.publish_topic_name) == \
                    (node_name, subscribe_topic_name, publish_topic_name):
                return p
        raise CaretError(f'no node path {node_name}: {subscribe_topic_name} -> '
                         f'{publish_topic_name}', 'not found')

    def get_node_paths(self, node_name):
        return [p for p in self.node_paths if p.node_name == node_name]

    def get_path(self, path_name):
        for p in self.paths:
            if p.path_name == path_name:
                return p
        raise CaretError(f'no path named {path_name}', 'not found')


class PathRecords:
    """A path's records under its flags at the time (Path.to_records)."""

    def __init__(self, path, first, last):
        self.path, self.first, self.last = path, first, last

    def to_dataframe(self):
        keep = self.path.include_first_callback, self.path.include_last_callback
        self.path.include_first_callback, self.path.include_last_callback = self.first, self.last
        try:
            return self.path.to_dataframe()
        finally:
            self.path.include_first_callback, self.path.include_last_callback = keep

    @property
    def columns(self):
        return list(self.to_dataframe().columns)
