"""A communication (a publisher's topic to a subscription of it) and a
path (node paths and communications, alternating) as the architecture
knows them (the original's CommunicationStructValue, PathStructValue)."""
import logging

from .base import ValueObject
from .node import NodePathStructValue
from ..common import Summary
from ..exceptions import InvalidArgumentError

logger = logging.getLogger(__name__)


class CommunicationStructValue(ValueObject):
    def __init__(self, publish_node, subscribe_node, publisher, subscription,
                 publish_callbacks, subscribe_callback):
        self._pub_node, self._sub_node = publish_node, subscribe_node
        self._pub, self._sub = publisher, subscription
        self._pub_cbs = None if publish_callbacks is None else tuple(publish_callbacks)
        self._sub_cb = subscribe_callback

    publish_node = property(lambda self: self._pub_node)
    subscribe_node = property(lambda self: self._sub_node)
    publisher = property(lambda self: self._pub)
    subscription = property(lambda self: self._sub)
    publish_callbacks = property(lambda self: self._pub_cbs)
    subscribe_callback = property(lambda self: self._sub_cb)
    topic_name = property(lambda self: self._pub.topic_name)
    publish_node_name = property(lambda self: self._pub_node.node_name)
    subscribe_node_name = property(lambda self: self._sub_node.node_name)
    publisher_construction_order = property(lambda self: self._pub.construction_order)
    subscription_construction_order = property(lambda self: self._sub.construction_order)
    subscribe_callback_name = property(lambda self: self._sub_cb and self._sub_cb.callback_name)

    @property
    def publish_callback_names(self):
        return None if self._pub_cbs is None else tuple(c.callback_name for c in self._pub_cbs)

    @property
    def summary(self):
        return Summary({'topic_name': self.topic_name, 'publish_node': self.publish_node_name,
                        'subscribe_node': self.subscribe_node_name})

    def _key(self):
        return (self.topic_name, self.publish_node_name, self.subscribe_node_name,
                self.publisher_construction_order, self.subscription_construction_order)

    def __repr__(self):
        return f'CommunicationStructValue({self.topic_name}: {self.publish_node_name} -> ' \
               f'{self.subscribe_node_name})'


class PathStructValue(ValueObject):
    """path_name (None: not named) and child: NodePathStructValue and
    CommunicationStructValue alternating."""

    def __init__(self, path_name, child):
        self._path_name, self._child = path_name, tuple(child)
        kinds = [isinstance(c, NodePathStructValue) for c in self._child]
        if any(a == b for a, b in zip(kinds, kinds[1:])):
            raise InvalidArgumentError('NodePath and Communication should be alternated.')

    path_name = property(lambda self: self._path_name)
    child = property(lambda self: self._child)

    @property
    def node_paths(self):
        return tuple(c for c in self._child if isinstance(c, NodePathStructValue))

    @property
    def communications(self):
        return tuple(c for c in self._child if isinstance(c, CommunicationStructValue))

    node_names = property(lambda self: tuple(n.node_name for n in self.node_paths))
    topic_names = property(lambda self: tuple(c.topic_name for c in self.communications))

    @property
    def child_names(self):
        return tuple(c.node_name if isinstance(c, NodePathStructValue) else c.topic_name
                     for c in self._child)

    def renamed(self, path_name):
        return PathStructValue(path_name, self._child)

    @property
    def summary(self):
        out = []
        for c in self._child:
            if isinstance(c, NodePathStructValue):
                context = c.message_context.summary if c.message_context else None
                out.append({'node': c.node_name, 'message_context': context})
            else:
                out.append({'topic': c.topic_name})
        return Summary({'path': out})

    def verify(self):
        """Whether every node inside the path says how its input becomes its
        output; each that does not is logged as the original logs it."""
        valid = True
        for node_path in self.node_paths[1:-1]:
            if node_path.message_context is None:
                valid = False
                logger.warning(
                    'Detected "message_context is None". Correct these node_path definitions. \n'
                    'To see node definition and procedure,execute :\n'
                    f">> check_procedure('yaml', '/path/to/yaml', arch, "
                    f"'{node_path.node_name}') \n{node_path.summary}")
                continue
            if node_path.message_context.verify() is False:
                valid = False
        return valid

    def _key(self):
        return self._path_name, self._child

    def __repr__(self):
        return f'PathStructValue({self._path_name!r}: {" -> ".join(self.child_names)})'
