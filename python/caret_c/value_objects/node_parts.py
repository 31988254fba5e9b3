"""What a node is made of, as the architecture knows it: publishers,
subscriptions, timers, variable passings, callback groups; and the
executors that run the groups (the original's *StructValue classes)."""
from .base import ValueObject
from ..common import Summary, flatten


class PublisherStructValue(ValueObject):
    def __init__(self, node_name, topic_name, callbacks, construction_order=0):
        self._node_name, self._topic_name = node_name, topic_name
        self._callbacks = None if callbacks is None else tuple(callbacks)
        self._construction_order = construction_order

    node_name = property(lambda self: self._node_name)
    topic_name = property(lambda self: self._topic_name)
    callbacks = property(lambda self: self._callbacks)
    construction_order = property(lambda self: self._construction_order)

    @property
    def callback_names(self):
        return None if self._callbacks is None else \
            tuple(c.callback_name for c in self._callbacks)

    @property
    def summary(self):
        return Summary({'node': self.node_name, 'topic_name': self.topic_name,
                        'callbacks': self.callback_names})

    def _key(self):
        return self._node_name, self._topic_name, self._construction_order, self.callback_names


class SubscriptionStructValue(ValueObject):
    def __init__(self, node_name, topic_name, callback, construction_order=0):
        self._node_name, self._topic_name = node_name, topic_name
        self._callback, self._construction_order = callback, construction_order

    node_name = property(lambda self: self._node_name)
    topic_name = property(lambda self: self._topic_name)
    callback = property(lambda self: self._callback)
    construction_order = property(lambda self: self._construction_order)
    callback_name = property(lambda self: self._callback and self._callback.callback_name)

    @property
    def summary(self):
        return Summary({'node': self.node_name, 'topic_name': self.topic_name,
                        'callback': self.callback_name})

    def _key(self):
        return self._node_name, self._topic_name, self._construction_order, self.callback_name


class TimerStructValue(ValueObject):
    def __init__(self, node_name, period_ns, callback, construction_order=0):
        self._node_name, self._period_ns = node_name, period_ns
        self._callback, self._construction_order = callback, construction_order

    node_name = property(lambda self: self._node_name)
    period_ns = property(lambda self: self._period_ns)
    callback = property(lambda self: self._callback)
    callback_name = property(lambda self: self._callback and self._callback.callback_name)
    construction_order = property(lambda self: self._construction_order)

    @property
    def summary(self):
        return Summary({'node': self.node_name, 'period_ns': self.period_ns,
                        'callback': self.callback_name})

    def _key(self):
        return self._node_name, self._period_ns, self.callback_name, self._construction_order


class ServiceStructValue(ValueObject):
    def __init__(self, node_name, service_name, callback, construction_order=0):
        self._node_name, self._service_name = node_name, service_name
        self._callback, self._construction_order = callback, construction_order

    node_name = property(lambda self: self._node_name)
    service_name = property(lambda self: self._service_name)
    callback = property(lambda self: self._callback)
    callback_name = property(lambda self: self._callback and self._callback.callback_name)
    construction_order = property(lambda self: self._construction_order)

    @property
    def summary(self):
        return Summary({'node': self.node_name, 'service_name': self.service_name,
                        'callback': self.callback_name})

    def _key(self):
        return self._node_name, self._service_name, self.callback_name, self._construction_order


class VariablePassingStructValue(ValueObject):
    """One callback writes a variable another reads (the node's own chain)."""

    def __init__(self, node_name, callback_write, callback_read):
        self._node_name = node_name
        self._callback_write, self._callback_read = callback_write, callback_read

    node_name = property(lambda self: self._node_name)
    callback_write = property(lambda self: self._callback_write)
    callback_read = property(lambda self: self._callback_read)
    callback_name_write = property(lambda self: self._callback_write.callback_name)
    callback_name_read = property(lambda self: self._callback_read.callback_name)

    @property
    def summary(self):
        return Summary({'node': self.node_name, 'write': self.callback_name_write,
                        'read': self.callback_name_read})

    def _key(self):
        return self._node_name, self.callback_name_write, self.callback_name_read


class CallbackGroupStructValue(ValueObject):
    def __init__(self, callback_group_type, node_name, callbacks, callback_group_name):
        self._type, self._node_name = callback_group_type, node_name
        self._callbacks, self._name = tuple(callbacks), callback_group_name

    callback_group_type = property(lambda self: self._type)
    callback_group_type_name = property(lambda self: self._type.type_name)
    callback_group_name = property(lambda self: self._name)
    node_name = property(lambda self: self._node_name)
    callbacks = property(lambda self: self._callbacks)
    callback_names = property(lambda self: tuple(c.callback_name for c in self._callbacks))

    @property
    def summary(self):
        return Summary({'name': self.callback_group_name,
                        'type': self.callback_group_type_name, 'node': self.node_name,
                        'callbacks': [c.summary for c in self.callbacks]})

    def _key(self):
        return self._name, self._node_name, self.callback_names


class ExecutorStructValue(ValueObject):
    def __init__(self, executor_type, callback_groups, executor_name):
        self._type, self._groups, self._name = executor_type, tuple(callback_groups), \
            executor_name

    executor_type = property(lambda self: self._type)
    executor_type_name = property(lambda self: self._type.type_name)
    executor_name = property(lambda self: self._name)
    callback_groups = property(lambda self: self._groups)
    callback_group_names = property(
        lambda self: tuple(g.callback_group_name for g in self._groups))
    callbacks = property(lambda self: tuple(flatten(g.callbacks for g in self._groups)))
    callback_names = property(lambda self: tuple(c.callback_name for c in self.callbacks))

    @property
    def summary(self):
        return Summary({'name': self.executor_name, 'type': self.executor_type_name,
                        'callback_groups': [g.summary for g in self.callback_groups]})

    def _key(self):
        return self._name, self.callback_group_names
