"""Nodes, callback groups and executors over the trace (the original's
runtime Node, CallbackGroup, Executor): what they hold, found by name as
the original finds them."""
from .common import find_one
from .exceptions import InvalidArgumentError, ItemNotFoundError


def _checked(name):
    if not isinstance(name, str):
        raise InvalidArgumentError('Argument type is invalid.')
    return name


class CallbackGroup:
    def __init__(self, value, callbacks):
        self._val, self._callbacks = value, list(callbacks)

    value = property(lambda self: self._val)
    summary = property(lambda self: self._val.summary)
    callback_group_type = property(lambda self: self._val.callback_group_type)
    callback_group_type_name = property(lambda self: self._val.callback_group_type_name)
    callback_group_name = property(lambda self: self._val.callback_group_name)
    node_name = property(lambda self: self._val.node_name)
    callbacks = property(lambda self: sorted(self._callbacks, key=lambda c: c.callback_name))

    def get_callback(self, callback_name):
        _checked(callback_name)
        return find_one(lambda c: c.callback_name == callback_name, self._callbacks)

    def get_callbacks(self, *callback_names):
        return [self.get_callback(n) for n in callback_names]

    def __repr__(self):
        return f'CallbackGroup({self.callback_group_name!r})'


class Executor:
    def __init__(self, value, callback_groups):
        self._val, self._groups = value, list(callback_groups)

    value = property(lambda self: self._val)
    summary = property(lambda self: self._val.summary)
    executor_type = property(lambda self: self._val.executor_type)
    executor_type_name = property(lambda self: self._val.executor_type_name)
    executor_name = property(lambda self: self._val.executor_name)
    callback_groups = property(
        lambda self: sorted(self._groups, key=lambda g: g.callback_group_name))
    callback_group_names = property(
        lambda self: sorted(g.callback_group_name for g in self._groups))
    callbacks = property(lambda self: sorted((c for g in self._groups for c in g.callbacks),
                                             key=lambda c: c.callback_name))
    callback_names = property(lambda self: sorted(c.callback_name for c in self.callbacks))

    def get_callback_group(self, callback_group_name):
        _checked(callback_group_name)
        return find_one(lambda g: g.callback_group_name == callback_group_name, self._groups)

    def get_callback(self, callback_name):
        _checked(callback_name)
        return find_one(lambda c: c.callback_name == callback_name, self.callbacks)

    def get_callbacks(self, *callback_names):
        return [self.get_callback(n) for n in callback_names]

    def __repr__(self):
        return f'Executor({self.executor_name!r})'


class Node:
    def __init__(self, value, publishers, subscriptions, timers, paths, callback_groups,
                 ungrouped_callbacks=()):
        self._val = value
        self._publishers, self._subscriptions = publishers, subscriptions
        self._timers, self._paths, self._groups = timers, paths, callback_groups
        self._ungrouped = list(ungrouped_callbacks)

    value = property(lambda self: self._val)
    summary = property(lambda self: self._val.summary)
    node_name = property(lambda self: self._val.node_name)
    paths = property(lambda self: self._paths)
    publishers = property(lambda self: sorted(self._publishers, key=lambda p: p.topic_name))
    subscriptions = property(
        lambda self: sorted(self._subscriptions, key=lambda s: s.topic_name))
    timers = property(lambda self: sorted(self._timers, key=lambda t: t.period_ns))
    publish_topic_names = property(
        lambda self: sorted(p.topic_name for p in self._publishers))
    subscribe_topic_names = property(
        lambda self: sorted(s.topic_name for s in self._subscriptions))

    @property
    def callback_groups(self):
        if self._groups is None:
            return None
        return sorted(self._groups, key=lambda g: g.callback_group_name)

    @property
    def callbacks(self):
        if self._groups is None and not self._ungrouped:
            return None
        cbs = [c for g in self._groups or () for c in g.callbacks] + self._ungrouped
        return sorted(cbs, key=lambda c: c.callback_name)

    @property
    def callback_names(self):
        cbs = self.callbacks
        return None if cbs is None else [c.callback_name for c in cbs]

    @property
    def callback_group_names(self):
        groups = self.callback_groups
        return None if groups is None else [g.callback_group_name for g in groups]

    def get_callback_group(self, callback_group_name):
        _checked(callback_group_name)
        if self._groups is None:
            raise ItemNotFoundError('Callback group is None.')
        return find_one(lambda g: g.callback_group_name == callback_group_name, self._groups)

    def get_callback(self, callback_name):
        _checked(callback_name)
        if self.callbacks is None:
            raise ItemNotFoundError('Callback is None.')
        return find_one(lambda c: c.callback_name == callback_name, self.callbacks)

    def get_callbacks(self, *callback_names):
        return [self.get_callback(n) for n in callback_names]

    def get_path(self, subscribe_topic_name, subscription_construction_order,
                 publish_topic_name, publisher_construction_order):
        for topic in (subscribe_topic_name, publish_topic_name):
            if topic is not None:
                _checked(topic)
        key = (subscribe_topic_name, subscription_construction_order, publish_topic_name,
               publisher_construction_order)
        return find_one(lambda p: (p.subscribe_topic_name, p.subscription_construction_order,
                                   p.publish_topic_name, p.publisher_construction_order) == key,
                        self._paths)

    def get_subscription(self, topic_name, construction_order=None):
        _checked(topic_name)
        return find_one(lambda s: s.topic_name == topic_name and
                        (construction_order is None or
                         s.construction_order == construction_order), self._subscriptions)

    def get_publisher(self, topic_name, construction_order=None):
        _checked(topic_name)
        return find_one(lambda p: p.topic_name == topic_name and
                        (construction_order is None or
                         p.construction_order == construction_order), self._publishers)

    def __repr__(self):
        return f'Node({self.node_name!r})'
