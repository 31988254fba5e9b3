"""A node and its node paths (an input topic to an output topic) as the
architecture knows them (the original's NodeStructValue,
NodePathStructValue, DiffNode)."""
from .callback import CallbackStructValue
from .base import ValueObject
from .node_parts import VariablePassingStructValue
from ..common import Summary, find_one, flatten
from ..exceptions import ItemNotFoundError


class NodePathStructValue(ValueObject):
    """node_name's input (subscription, None: none) to its output
    (publisher); child: the callbacks and variable passings between them
    (a callback chain), message_context: how an input becomes an output."""

    def __init__(self, node_name, subscription, publisher, child=None, message_context=None):
        self._node_name, self._sub, self._pub = node_name, subscription, publisher
        self._child = None if child is None else tuple(child)
        self._context = message_context

    node_name = property(lambda self: self._node_name)
    subscription = property(lambda self: self._sub)
    publisher = property(lambda self: self._pub)
    child = property(lambda self: self._child)
    message_context = property(lambda self: self._context)
    message_context_type = property(lambda self: self._context and self._context.context_type)
    publish_topic_name = property(lambda self: self._pub and self._pub.topic_name)
    subscribe_topic_name = property(lambda self: self._sub and self._sub.topic_name)
    publisher_construction_order = property(
        lambda self: None if self._pub is None else self._pub.construction_order)
    subscription_construction_order = property(
        lambda self: None if self._sub is None else self._sub.construction_order)
    subscription_callback = property(lambda self: self._sub and self._sub.callback)

    @property
    def callbacks(self):
        if self._child is None:
            return None
        return tuple(c for c in self._child if isinstance(c, CallbackStructValue))

    @property
    def callback_names(self):
        cbs = self.callbacks
        return None if cbs is None else tuple(c.callback_name for c in cbs)

    @property
    def variable_passings(self):
        if self._child is None:
            return None
        return tuple(c for c in self._child if isinstance(c, VariablePassingStructValue))

    def with_context(self, context):
        return NodePathStructValue(self._node_name, self._sub, self._pub, self._child, context)

    @property
    def summary(self):
        d = {'node': self.node_name,
             'message_context': self._context.summary if self._context else None,
             'subscribe_topic_name': self.subscribe_topic_name,
             'publish_topic_name': self.publish_topic_name}
        if self.publisher_construction_order:
            d['publisher_construction_order'] = self.publisher_construction_order
        if self.subscription_construction_order:
            d['subscription_construction_order'] = self.subscription_construction_order
        return Summary(d)

    def _key(self):
        return (self._node_name, self.subscribe_topic_name, self.publish_topic_name,
                self.subscription_construction_order, self.publisher_construction_order,
                self.callback_names, self._context)

    def __repr__(self):
        return f'NodePathStructValue({self._node_name}: {self.subscribe_topic_name} -> ' \
               f'{self.publish_topic_name})'


class NodeStructValue(ValueObject):
    def __init__(self, node_name, publishers, subscriptions, services, timers, paths,
                 callback_groups, variable_passings, ungrouped_callbacks=()):
        self._node_name = node_name
        self._publishers, self._subscriptions = tuple(publishers), tuple(subscriptions)
        self._services, self._timers, self._paths = tuple(services), tuple(timers), tuple(paths)
        self._groups = None if callback_groups is None else tuple(callback_groups)
        self._variable_passings = None if variable_passings is None else \
            tuple(variable_passings)
        # caret-c: callbacks in no callback group (a plain ros2_tracing trace)
        self._ungrouped = tuple(ungrouped_callbacks)

    node_name = property(lambda self: self._node_name)
    publishers = property(lambda self: self._publishers)
    subscriptions = property(lambda self: self._subscriptions)
    services = property(lambda self: self._services)
    timers = property(lambda self: self._timers)
    paths = property(lambda self: self._paths)
    callback_groups = property(lambda self: self._groups)
    variable_passings = property(lambda self: self._variable_passings)
    publish_topic_names = property(lambda self: tuple(p.topic_name for p in self._publishers))
    subscribe_topic_names = property(
        lambda self: tuple(s.topic_name for s in self._subscriptions))
    service_names = property(lambda self: tuple(s.service_name for s in self._services))

    @property
    def callbacks(self):
        if self._groups is None and not self._ungrouped:
            return None
        return tuple(flatten(g.callbacks for g in self._groups or ())) + self._ungrouped

    @property
    def callback_names(self):
        cbs = self.callbacks
        return None if cbs is None else tuple(c.callback_name for c in cbs)

    @property
    def callback_group_names(self):
        return None if self._groups is None else \
            tuple(g.callback_group_name for g in self._groups)

    def get_path(self, subscribe_topic_name, subscription_construction_order,
                 publish_topic_name, publisher_construction_order):
        return find_one(lambda p: (p.subscribe_topic_name, p.subscription_construction_order,
                                   p.publish_topic_name, p.publisher_construction_order) ==
                        (subscribe_topic_name, subscription_construction_order,
                         publish_topic_name, publisher_construction_order), self._paths)

    def _get(self, items, what, topic_name, construction_order):
        try:
            return find_one(lambda x: x.topic_name == topic_name and
                            (construction_order is None or
                             x.construction_order == construction_order), items)
        except ItemNotFoundError:
            raise ItemNotFoundError(f'Failed to find {what} info. topic_name: {topic_name}'
                                    f'construction_order: {construction_order}') from None

    def get_subscription(self, subscribe_topic_name, construction_order=None):
        return self._get(self._subscriptions, 'subscription', subscribe_topic_name,
                         construction_order)

    def get_publisher(self, publish_topic_name, construction_order=None):
        return self._get(self._publishers, 'publisher', publish_topic_name, construction_order)

    def get_timer(self, timer_period, construction_order=None):
        return find_one(lambda t: t.period_ns == timer_period and
                        (construction_order is None or
                         t.construction_order == construction_order), self._timers)

    @property
    def summary(self):
        return Summary({
            'node': self.node_name, 'callbacks': self.callback_names,
            'callback_groups': self.callback_group_names,
            'publishers': [p.summary for p in self.publishers],
            'subscriptions': [s.summary for s in self.subscriptions],
            'services': [s.summary for s in self.services],
            'variable_passings': [v.summary for v in self.variable_passings or ()],
            'paths': [p.summary for p in self.paths]})

    def _key(self):
        return self._node_name, self._publishers, self._subscriptions, self._paths

    def __repr__(self):
        return f'NodeStructValue({self._node_name!r})'


class DiffNode:
    """The topics one node publishes (subscribes) and the other does not,
    each way; the order of a set's, as the original's."""

    def __init__(self, left_node, right_node):
        self._left, self._right = left_node, right_node

    @staticmethod
    def _diff(left, right):
        left, right = set(left), set(right)
        return tuple(left - right), tuple(right - left)

    def diff_node_pubs(self):
        return self._diff(self._left.publish_topic_names, self._right.publish_topic_names)

    def diff_node_subs(self):
        return self._diff(self._left.subscribe_topic_names, self._right.subscribe_topic_names)
