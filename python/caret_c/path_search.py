"""Paths between nodes over an architecture's communications (the
original's search_paths: its order, its depth, its filters) and the
joining of two paths into one (combine_path)."""
import itertools
import logging

from .common import find_one
from .exceptions import InvalidArgumentError, ItemNotFoundError, UnsupportedTypeError
from .graph import Graph
from .value_objects import NodePathStructValue, PathStructValue

logger = logging.getLogger(__name__)


def search(model, node_names, max_depth, max_callback_order, node_filter=None,
           communication_filter=None):
    """[PathStructValue] through node_names in order, each leg every path
    of the original's depth-first search."""
    graph = Graph()
    for node in model.nodes:
        if node_filter is None or node_filter(node.node_name):
            graph.add_vertex(node.node_name)
    comms, duplicated = {}, {}
    for c in model.communications:
        if communication_filter is not None and not communication_filter(c.topic_name):
            continue
        if node_filter is not None and not (node_filter(c.publish_node_name) and
                                            node_filter(c.subscribe_node_name)):
            continue
        cb = c.subscribe_callback
        if max_callback_order != 0 and cb is not None and \
                cb.construction_order > max_callback_order:
            continue
        key = (c.publish_node_name, c.subscribe_node_name, c.topic_name,
               c.subscription_construction_order, c.publisher_construction_order)
        if key in comms:
            duplicated.setdefault(key, c)
            continue
        comms[key] = c
        graph.add_edge(c.publish_node_name, c.subscribe_node_name,
                       (c.topic_name, c.subscription_construction_order,
                        c.publisher_construction_order))
    for c in duplicated.values():
        logger.warning('duplicated communication found. skip adding.'
                       f'topic_name: {c.topic_name}, publish_node_name: {c.publish_node_name}, '
                       f'subscribe_node_name: {c.subscribe_node_name}, ')
    for name in node_names:
        if name not in graph:
            raise ItemNotFoundError(
                f'Received an unregistered graph node. Return empty paths. {name}')
    node_paths = {}
    for node in model.nodes:
        for p in node.paths:
            node_paths.setdefault((p.subscribe_topic_name, p.publish_topic_name, p.node_name,
                                   p.subscription_construction_order,
                                   p.publisher_construction_order), p)
    legs = [graph.paths(a, b, max_depth) for a, b in zip(node_names, node_names[1:])]
    return [_path(model, [e for leg in combo for e in leg], comms, node_paths)
            for combo in itertools.product(*legs)]


def _path(model, edges, comms, node_paths):
    (first, _, (topic, _, pub_order)) = edges[0]
    head = model.node(first).get_publisher(topic, pub_order)
    child = [NodePathStructValue(first, None, head)]
    for (src, dst, (t, sub_o, pub_o)), (_, _, (t2, _, pub_o2)) in zip(edges, edges[1:]):
        child.append(comms[(src, dst, t, sub_o, pub_o)])
        key = (t, t2, dst, sub_o, pub_o2)
        if key not in node_paths:
            raise ItemNotFoundError(
                f'Failed to find node path. publish topic name: {t2}, subscription topic name: '
                f'{t}, node name: {dst}, subscription construction order: {sub_o}, '
                f'publisher construction order: {pub_o2}, ')
        child.append(node_paths[key])
    src, dst, (t, sub_o, pub_o) = edges[-1]
    child.append(comms[(src, dst, t, sub_o, pub_o)])
    child.append(NodePathStructValue(dst, model.node(dst).get_subscription(t, sub_o), None))
    return PathStructValue(None, child)


# ---- combine_path --------------------------------------------------------------------
def _joinable(a, b):
    return (a is not None or b is not None) and (a is None or b is None or a == b)


def _check(a, b, what):
    if not _joinable(a, b):
        raise InvalidArgumentError(f'Not matched {what} name.')


def _is_node(x):
    return isinstance(x, NodePathStructValue)


def combine(model, left, right):
    """One path of left then right, joined where left's last element meets
    right's first (the original's combine_path)."""
    for p in (left, right):
        if not isinstance(p, PathStructValue):
            raise UnsupportedTypeError(
                f"Type of argument must be [PathStructValue]. The given argument type is "
                f"'{type(p).__name__}'.")
    if not left.child or not right.child:
        raise InvalidArgumentError('No child in input path. ')
    a, b = left.child[-1], right.child[0]
    if _is_node(a) and _is_node(b):
        _check(a.publish_topic_name, b.publish_topic_name, 'topic')
        _check(a.subscribe_topic_name, b.subscribe_topic_name, 'topic')
        _check(a.node_name, b.node_name, 'node')
    elif _is_node(a):
        _check(a.publish_topic_name, b.topic_name, 'topic')
        _check(a.node_name, b.publish_node_name, 'node')
    elif _is_node(b):
        _check(b.subscribe_topic_name, a.topic_name, 'topic')
        _check(b.node_name, a.subscribe_node_name, 'node')
    else:
        _check(a.topic_name, b.topic_name, 'topic')
        _check(a.subscribe_node_name, b.subscribe_node_name, 'node')
        _check(a.publish_node_name, b.publish_node_name, 'node')
    discrete = (_is_node(a) and _is_node(b) and a.node_name != b.node_name) or \
        (not _is_node(a) and not _is_node(b) and a.topic_name != b.topic_name)
    if discrete:
        raise NotImplementedError('This is a not implemented COMBINE case. '
                                  'Please contact maintainer if necessary.')
    return _joined(left.child, _middle(model, a, b), right.child)


def _middle(model, a, b):
    """The element where the paths meet: the node's own path from left's
    input to right's output, or the communication they share."""
    if not _is_node(a) and not _is_node(b):
        return find_one(lambda c: (c.publish_node_name, c.subscribe_node_name, c.topic_name,
                                   c.publisher_construction_order,
                                   c.subscription_construction_order) ==
                        (a.publish_node_name, b.subscribe_node_name, a.topic_name, 0, 0),
                        model.communications)
    node_name = a.node_name if _is_node(a) else b.node_name
    sub = (a.subscribe_topic_name, a.subscription_construction_order) if _is_node(a) else \
        (a.topic_name, a.subscription_construction_order)
    pub = (b.publish_topic_name, b.publisher_construction_order) if _is_node(b) else \
        (b.topic_name, b.publisher_construction_order)
    node = model.node(node_name)
    if node is None:
        raise ItemNotFoundError(f'Failed to find node. node_name: {node_name}')
    for p in node.paths:
        if (p.subscribe_topic_name, p.subscription_construction_order) == sub and \
                (p.publish_topic_name, p.publisher_construction_order) == pub:
            return p
    raise InvalidArgumentError('No node path to combine.')


def _name(x):
    return x.node_name if _is_node(x) else x.topic_name


def _same(x, y):
    return _name(x) == _name(y) and type(x) is type(y)


def _joined(left, middle, right):
    candidates = tuple(left) + tuple(right)
    child = []
    for x, y in zip(candidates, candidates[1:]):
        if _same(x, y):
            continue
        child.append(middle if _same(x, middle) else x)
    child.append(right[-1])
    return PathStructValue(None, child)

