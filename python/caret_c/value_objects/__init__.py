"""The architecture's objects as values (the original's
caret_analyze.value_objects, by the same names)."""
from .base import CallbackGroupType, CallbackType, ExecutorType, ValueObject
from .callback import (CallbackStructValue, PublishTopicInfoValue,
                       ServiceCallbackStructValue, SubscriptionCallbackStructValue,
                       TimerCallbackStructValue)
from .message_context import (CallbackChain, ConsumeLatestMessage, InheritUniqueStamp,
                              MessageContext, MessageContextType, Tilde, UseLatestMessage)
from .node import DiffNode, NodePathStructValue, NodeStructValue
from .node_parts import (CallbackGroupStructValue, ExecutorStructValue, PublisherStructValue,
                         ServiceStructValue, SubscriptionStructValue, TimerStructValue,
                         VariablePassingStructValue)
from .path import CommunicationStructValue, PathStructValue

__all__ = ['CallbackChain', 'CallbackGroupStructValue', 'CallbackGroupType',
           'CallbackStructValue', 'CallbackType', 'CommunicationStructValue',
           'ConsumeLatestMessage', 'DiffNode', 'ExecutorStructValue', 'ExecutorType',
           'InheritUniqueStamp', 'MessageContext', 'MessageContextType', 'NodePathStructValue',
           'NodeStructValue', 'PathStructValue', 'PublishTopicInfoValue',
           'PublisherStructValue', 'ServiceCallbackStructValue', 'ServiceStructValue',
           'SubscriptionCallbackStructValue', 'SubscriptionStructValue', 'Tilde',
           'TimerCallbackStructValue', 'TimerStructValue', 'UseLatestMessage', 'ValueObject',
           'VariablePassingStructValue']
