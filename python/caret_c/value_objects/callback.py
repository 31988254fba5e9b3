"""A callback as the architecture knows it (the original's
CallbackStructValue and its timer, subscription and service kinds)."""
from .base import CallbackType, ValueObject
from ..common import Summary


class PublishTopicInfoValue(ValueObject):
    """A topic a callback publishes (and its publisher's construction order)."""

    def __init__(self, topic_name, construction_order=0):
        self._topic_name, self._construction_order = topic_name, construction_order

    topic_name = property(lambda self: self._topic_name)
    construction_order = property(lambda self: self._construction_order)

    def _key(self):
        return self._topic_name, self._construction_order


class CallbackStructValue(ValueObject):
    CALLBACK_TYPE = None

    def __init__(self, node_name, callback_name, symbol, publish_topics=None,
                 construction_order=0, subscribe_topic_name=None, service_name=None):
        self._node_name, self._callback_name, self._symbol = node_name, callback_name, symbol
        self._publish_topics = None if publish_topics is None else tuple(publish_topics)
        self._construction_order = construction_order
        self._subscribe_topic_name, self._service_name = subscribe_topic_name, service_name

    node_name = property(lambda self: self._node_name)
    callback_name = property(lambda self: self._callback_name)
    symbol = property(lambda self: self._symbol)
    publish_topics = property(lambda self: self._publish_topics)
    construction_order = property(lambda self: self._construction_order)
    subscribe_topic_name = property(lambda self: self._subscribe_topic_name)
    service_name = property(lambda self: self._service_name)
    callback_type = property(lambda self: self.CALLBACK_TYPE)
    callback_type_name = property(lambda self: str(self.CALLBACK_TYPE))

    def _key(self):
        return self._node_name, self._callback_name, self._construction_order

    def __repr__(self):
        return f'{type(self).__name__}({self._callback_name!r})'


class TimerCallbackStructValue(CallbackStructValue):
    CALLBACK_TYPE = CallbackType.TIMER

    def __init__(self, node_name, callback_name, symbol, period_ns, publish_topics=None,
                 construction_order=0):
        super().__init__(node_name, callback_name, symbol, publish_topics, construction_order)
        self._period_ns = period_ns

    period_ns = property(lambda self: self._period_ns)

    @property
    def summary(self):
        return Summary({'name': self.callback_name, 'type': self.callback_type_name,
                        'period_ns': self.period_ns})


class SubscriptionCallbackStructValue(CallbackStructValue):
    CALLBACK_TYPE = CallbackType.SUBSCRIPTION

    @property
    def summary(self):
        return Summary({'name': self.callback_name, 'node': self.node_name,
                        'type': self.callback_type_name, 'topic': self.subscribe_topic_name})


class ServiceCallbackStructValue(CallbackStructValue):
    CALLBACK_TYPE = CallbackType.SERVICE

    @property
    def summary(self):
        return Summary({'name': self.callback_name, 'node': self.node_name,
                        'type': self.callback_type_name, 'service': self.service_name})
