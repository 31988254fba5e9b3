"""How a node turns an input into an output (the original's message
contexts): use_latest_message, callback_chain, inherit_unique_stamp,
tilde, and caret-c's consume_latest_message (the one-to-one rule
caret-c's use_latest_message was before C API v3)."""
import logging

from .base import NamedType, ValueObject
from ..common import Summary
from ..exceptions import UnsupportedTypeError

logger = logging.getLogger(__name__)


class MessageContextType(NamedType):
    pass


MessageContextType.USE_LATEST_MESSAGE = MessageContextType('use_latest_message')
MessageContextType.CALLBACK_CHAIN = MessageContextType('callback_chain')
MessageContextType.INHERIT_UNIQUE_STAMP = MessageContextType('inherit_unique_stamp')
MessageContextType.TILDE = MessageContextType('tilde')
MessageContextType.CONSUME_LATEST_MESSAGE = MessageContextType('consume_latest_message')


class MessageContext(ValueObject):
    CONTEXT_TYPE = None

    def __init__(self, node_name, subscription, publisher, callbacks):
        self._node_name, self._sub, self._pub = node_name, subscription, publisher
        self._callbacks = None if callbacks is None else tuple(callbacks)

    context_type = property(lambda self: self.CONTEXT_TYPE)
    type_name = property(lambda self: self.CONTEXT_TYPE.type_name)
    node_name = property(lambda self: self._node_name)
    callbacks = property(lambda self: self._callbacks)
    publisher_topic_name = property(lambda self: self._pub and self._pub.topic_name)
    subscription_topic_name = property(lambda self: self._sub and self._sub.topic_name)
    publisher_construction_order = property(
        lambda self: None if self._pub is None else self._pub.construction_order)
    subscription_construction_order = property(
        lambda self: None if self._sub is None else self._sub.construction_order)

    def to_dict(self):
        return {'context_type': self.type_name,
                'subscription_topic_name': self.subscription_topic_name,
                'publisher_topic_name': self.publisher_topic_name}

    def is_applicable_path(self, subscription, publisher, callbacks):
        return self._sub == subscription and self._pub == publisher

    @property
    def summary(self):
        return Summary({'subscription_topic_name': self.subscription_topic_name,
                        'publisher_topic_name': self.publisher_topic_name,
                        'type': self.type_name})

    def verify(self):
        return True

    def _key(self):
        return self.type_name, self._node_name, self._sub, self._pub, self._callbacks

    @staticmethod
    def create_instance(type_name, node_name, subscription, publisher, callbacks):
        for cls in (UseLatestMessage, CallbackChain, InheritUniqueStamp, Tilde,
                    ConsumeLatestMessage):
            if cls.CONTEXT_TYPE.type_name == type_name:
                return cls(node_name, subscription, publisher, callbacks)
        raise UnsupportedTypeError(f'Failed to load message context. message_context={type_name}')


class UseLatestMessage(MessageContext):
    CONTEXT_TYPE = MessageContextType.USE_LATEST_MESSAGE


class ConsumeLatestMessage(MessageContext):
    CONTEXT_TYPE = MessageContextType.CONSUME_LATEST_MESSAGE


class InheritUniqueStamp(MessageContext):
    CONTEXT_TYPE = MessageContextType.INHERIT_UNIQUE_STAMP

    def verify(self):
        return False


class Tilde(MessageContext):
    CONTEXT_TYPE = MessageContextType.TILDE


class CallbackChain(MessageContext):
    CONTEXT_TYPE = MessageContextType.CALLBACK_CHAIN

    def is_applicable_path(self, subscription, publisher, callbacks):
        return super().is_applicable_path(subscription, publisher, callbacks) and \
            self._callbacks == (None if callbacks is None else tuple(callbacks))

    def to_dict(self):
        d = super().to_dict()
        if self._callbacks is not None:
            d['callbacks'] = [c.callback_name for c in self._callbacks]
        return d

    def verify(self):
        if self._callbacks:
            return True
        if not self._pub:
            logger.warning('callback-chain is empty. '
                           'The callback is not associated with the publisher. ')
        elif not self._pub.callback_names:
            logger.warning('callback-chain is empty. '
                           'The callback is not associated with the publisher. '
                           f'publisher topic name: {self.publisher_topic_name}')
        else:
            logger.warning('callback-chain is empty. variable_passings are not set. '
                           f'node name: {self.node_name}')
        return False
