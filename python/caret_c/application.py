"""Application(arch, lttng): the architecture's objects over the trace's
records (the original's runtime Application): nodes, executors,
callback groups, callbacks, publishers, subscriptions, timers,
communications, node paths and named paths, found by name as the
original finds them (a near name suggested, wildcards in
get_callbacks)."""
import fnmatch
import logging

from .callback import CallbackBase, callback_class  # noqa: F401 (plot's import)
from .common import Summary, find_similar_one, find_similar_one_multi_keys
from .communication import Communication
from .exceptions import Error, InvalidArgumentError, UnsupportedTypeError
from .lttng import Lttng
from .node import CallbackGroup, Executor, Node
from .node_path import NodePath
from .path import UNDEFINED_POLICIES, Path, PathRecords  # noqa: F401 (record's import)
from .publisher import Publisher, Subscription, Timer
from .value_objects import NodePathStructValue

logger = logging.getLogger(__name__)


def _checked(*names):
    if not all(isinstance(n, str) for n in names):
        raise InvalidArgumentError('Argument type is invalid.')


class Application:
    """Application(arch, lttng, *, undefined_message_context='use_latest_message'):
    undefined_message_context is how a path is followed through a node
    whose message context the original leaves undefined (docs/python.md):
    'use_latest_message' (as `caret path latency` follows it),
    'consume_latest_message', 'callback_chain', or 'stop' for the
    original's DataFrame, which ends there."""

    def __init__(self, architecture, infra, *,
                 undefined_message_context='use_latest_message'):
        if not isinstance(infra, Lttng):
            raise UnsupportedTypeError('')
        if undefined_message_context not in UNDEFINED_POLICIES:
            raise InvalidArgumentError(
                f'undefined_message_context: one of {", ".join(UNDEFINED_POLICIES)}')
        self.arch, self.lttng = architecture, infra
        self.undefined_message_context = undefined_message_context
        self._followed, self._told = {}, set()
        # the original's times are ns since the epoch; the trace's, its clock's
        self.epoch_offset = infra.summary()['epoch_offset_ns']
        self._comm_ids = {(t, p, s, c): i for t, p, s, c, i in infra.communications()}
        self._nodes = [self._node(n) for n in architecture.nodes]
        by_name = {n.node_name: n for n in self._nodes}
        callbacks = {c.callback_name: c for n in self._nodes for c in n.callbacks or ()}
        self._communications = []
        for c in architecture.communications:
            try:
                self._communications.append(Communication(
                    self, c, by_name[c.publish_node_name], by_name[c.subscribe_node_name],
                    by_name[c.publish_node_name].get_publisher(
                        c.topic_name, c.publisher_construction_order),
                    by_name[c.subscribe_node_name].get_subscription(
                        c.topic_name, c.subscription_construction_order),
                    [callbacks[n] for n in c.publish_callback_names or ()],
                    callbacks[c.subscribe_callback_name] if c.subscribe_callback_name
                    else None))
            except (KeyError, Error):
                pass  # the original leaves out what it cannot find
        groups = {g.callback_group_name: g for n in self._nodes for g in n.callback_groups}
        self._executors = [Executor(e, [groups[g.callback_group_name] for g in e.callback_groups
                                        if g.callback_group_name in groups])
                           for e in architecture.executors]
        self._paths = []
        for p in architecture.paths:
            try:
                self._paths.append(Path(self, p, [self._element(c, by_name) for c in p.child]))
            except Error as e:
                logger.warning(e)

    # ---- the runtime objects of a node ---------------------------------------------------
    def _node(self, value):
        callbacks = {c.callback_name: callback_class(c)(self, c) for c in value.callbacks or ()}
        publishers = [Publisher(self, p) for p in value.publishers]
        subscriptions = [Subscription(self, s) for s in value.subscriptions]
        timers = [Timer(self, t) for t in value.timers]
        for cb in callbacks.values():
            if cb.value.publish_topics is not None:  # as the original: None when unknown
                cb._publishers = [p for p in publishers
                                  if cb.callback_name in (p.callback_names or ())]
            cb._subscription = next((s for s in subscriptions
                                     if s.callback_name == cb.callback_name), None)
            cb._timer = next((t for t in timers if t.callback_name == cb.callback_name), None)
        groups = [CallbackGroup(g, [callbacks[c.callback_name] for c in g.callbacks])
                  for g in value.callback_groups or ()]
        grouped = {c for g in groups for c in g.callbacks}
        ungrouped = [c for c in callbacks.values() if c not in grouped]

        def runtime(p):
            return NodePath(self, p, p.subscription and _find(subscriptions, p.subscription),
                            p.publisher and _find(publishers, p.publisher),
                            None if p.callbacks is None else
                            [callbacks[c.callback_name] for c in p.callbacks])
        return Node(value, publishers, subscriptions, timers, [runtime(p) for p in value.paths],
                    groups, ungrouped)

    def _element(self, value, nodes):
        """A named path's node path or communication, the runtime one."""
        if isinstance(value, NodePathStructValue):
            node = nodes[value.node_name]
            return node.get_path(value.subscribe_topic_name, value.subscription_construction_order,
                                 value.publish_topic_name, value.publisher_construction_order)
        return self.get_communication(
            value.publish_node_name, value.subscribe_node_name, value.topic_name,
            publisher_construction_order=value.publisher_construction_order,
            subscription_construction_order=value.subscription_construction_order)

    # ---- the trace's names behind the architecture's ----------------------------------
    def _trace_callback(self, name):
        return self.lttng.callbacks().get(self.arch._trace_name(name))

    def _trace_communication(self, comm):
        tn = self.arch._trace_name
        cb = comm.callback_subscription
        return self._comm_ids.get((tn(comm.topic_name), tn(comm.publish_node_name),
                                   tn(comm.subscribe_node_name),
                                   tn(cb.callback_name) if cb else None))

    # ---- the objects, sorted as the original sorts them ----------------------------------
    nodes = property(lambda self: sorted(self._nodes, key=lambda n: n.node_name))
    executors = property(lambda self: sorted(self._executors, key=lambda e: e.executor_name))
    communications = property(
        lambda self: sorted(self._communications, key=lambda c: c.topic_name))
    paths = property(lambda self: sorted(self._paths, key=lambda p: p.path_name or ''))
    node_names = property(lambda self: sorted(n.node_name for n in self._nodes))
    executor_names = property(lambda self: sorted(e.executor_name for e in self._executors))
    path_names = property(lambda self: sorted(p.path_name for p in self._paths if p.path_name))

    @property
    def publishers(self):
        return sorted((p for n in self.nodes for p in n.publishers), key=lambda p: p.topic_name)

    @property
    def subscriptions(self):
        return sorted((s for n in self.nodes for s in n.subscriptions),
                      key=lambda s: s.topic_name)

    @property
    def callbacks(self):
        return sorted((c for n in self.nodes for c in n.callbacks or ()),
                      key=lambda c: c.callback_name)

    @property
    def callback_groups(self):
        return sorted((g for n in self.nodes for g in n.callback_groups or ()),
                      key=lambda g: g.callback_group_name)

    @property
    def node_paths(self):
        return [p for n in self.nodes for p in n.paths]

    callback_names = property(lambda self: sorted(c.callback_name for c in self.callbacks))
    callback_group_names = property(
        lambda self: sorted(g.callback_group_name for g in self.callback_groups))

    @property
    def topic_names(self):
        return sorted({p.topic_name for p in self.publishers} |
                      {s.topic_name for s in self.subscriptions})

    @property
    def summary(self):
        return Summary({'nodes': self.node_names})

    # ---- look-ups --------------------------------------------------------------------
    def get_node(self, node_name):
        _checked(node_name)
        return find_similar_one(node_name, self.nodes, lambda n: n.node_name)

    def get_executor(self, executor_name):
        _checked(executor_name)
        return find_similar_one(executor_name, self.executors, lambda e: e.executor_name)

    def get_callback_group(self, callback_group_name):
        _checked(callback_group_name)
        return find_similar_one(callback_group_name, self.callback_groups,
                                lambda g: g.callback_group_name)

    def get_path(self, path_name):
        _checked(path_name)
        return find_similar_one(path_name, self.paths, lambda p: p.path_name)

    def get_callback(self, callback_name):
        _checked(callback_name)
        return find_similar_one(callback_name, self.callbacks, lambda c: c.callback_name)

    def get_callbacks(self, *callback_names):
        """Each name's callback, a name with * or ? every callback it
        matches (fnmatch); one that matches none is skipped with a warning."""
        out = []
        for name in callback_names:
            try:
                if '*' in name or '?' in name:
                    out += [c for c in self.callbacks if fnmatch.fnmatch(c.callback_name, name)]
                else:
                    out.append(self.get_callback(name))
            except Error:
                logger.warning('Failed to identify callback. Skip loading.'
                               f'callback_name: {name}')
        return out

    def get_communication(self, publisher_node_name, subscription_node_name, topic_name, *,
                          publisher_construction_order=0, subscription_construction_order=0):
        _checked(publisher_node_name, subscription_node_name, topic_name)
        target = {'publisher_node_name': publisher_node_name,
                  'subscription_node_name': subscription_node_name, 'topic_name': topic_name,
                  'publisher_construction_order': publisher_construction_order,
                  'subscription_construction_order': subscription_construction_order}
        return find_similar_one_multi_keys(target, self.communications, lambda c: {
            'publisher_node_name': c.publish_node_name,
            'subscription_node_name': c.subscribe_node_name, 'topic_name': c.topic_name,
            'publisher_construction_order': c.publisher_construction_order,
            'subscription_construction_order': c.subscription_construction_order})

    def get_communications(self, topic_name):
        _checked(topic_name)
        comms = [c for c in self.communications if c.topic_name == topic_name]
        if not comms:
            find_similar_one(topic_name, self.communications, lambda c: c.topic_name)
        return comms

    def get_publishers(self, topic_name):
        return sorted((c.publisher for c in self.get_communications(topic_name)),
                      key=lambda p: p.topic_name)

    def get_subscriptions(self, topic_name):
        return sorted((c.subscription for c in self.get_communications(topic_name)),
                      key=lambda s: s.topic_name)

    def get_node_path(self, node_name, subscribe_topic_name, publish_topic_name, *,
                      subscription_construction_order=0, publisher_construction_order=0):
        _checked(node_name, subscribe_topic_name, publish_topic_name)
        if not isinstance(subscription_construction_order, int) or \
                not isinstance(publisher_construction_order, int):
            raise InvalidArgumentError('Argument type is invalid.')
        target = {'node_name': node_name, 'subscribe_topic_name': subscribe_topic_name,
                  'publish_topic_name': publish_topic_name,
                  'publisher_construction_order': publisher_construction_order,
                  'subscription_construction_order': subscription_construction_order}
        return find_similar_one_multi_keys(target, self.node_paths, lambda p: {
            'node_name': p.node_name, 'subscribe_topic_name': p.subscribe_topic_name,
            'publish_topic_name': p.publish_topic_name,
            'publisher_construction_order': p.publisher_construction_order,
            'subscription_construction_order': p.subscription_construction_order})

    def get_node_paths(self, node_name):
        _checked(node_name)
        paths = [p for p in self.node_paths if p.node_name == node_name]
        if not paths:
            find_similar_one(node_name, self.node_paths, lambda p: p.node_name)
        return paths


def _find(items, value):
    return next(i for i in items if i.value == value)
