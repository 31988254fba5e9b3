"""An architecture's state (architecture_file.load) built into the
original's value objects: each node with its node paths found as the
original finds them (the callback chains inside the node, every
subscription-publisher pair, each publisher and subscription alone) and
their message contexts assigned; the communications; the executors;
the named paths resolved against the nodes as they are now."""
import itertools
import logging

from .common import find_one
from .exceptions import Error, InvalidArgumentError, ItemNotFoundError
from .graph import Graph
from .value_objects import (CallbackChain, CallbackGroupStructValue, CallbackGroupType,
                            CommunicationStructValue, ExecutorStructValue, ExecutorType,
                            MessageContext, NodePathStructValue, NodeStructValue,
                            PathStructValue, PublisherStructValue, PublishTopicInfoValue,
                            ServiceCallbackStructValue, ServiceStructValue,
                            SubscriptionCallbackStructValue, SubscriptionStructValue,
                            TimerCallbackStructValue, TimerStructValue,
                            VariablePassingStructValue)

logger = logging.getLogger(__name__)
UNDEFINED = 'UNDEFINED'


class Model:
    def __init__(self, state, max_callback_order):
        self.nodes = [_node(n, max_callback_order) for n in state['nodes']]
        self._by_name = {n.node_name: n for n in self.nodes}
        self.communications = _communications(self.nodes)
        self.executors = _executors(state['executors'], self.nodes)
        self.named_paths = []
        for p in state['named_paths']:
            try:
                self.named_paths.append(self.resolve(p['path_name'], p['node_chain']))
            except Error as e:
                logger.warning(f"Failed to load path. path_name={p['path_name']}. {e}")

    def node(self, node_name):
        return self._by_name.get(node_name)

    def resolve(self, path_name, chain):
        """A named path's node chain (node_name, topics, construction
        orders) as the PathStructValue of the nodes as they are now."""
        node_paths = []
        for c in chain:
            node = find_one(lambda n: n.node_name == c['node_name'], self.nodes)
            key = (c['subscribe_topic_name'], c['publish_topic_name'],
                   c['subscription_construction_order'], c['publisher_construction_order'])
            node_paths.append(find_one(lambda p: (
                p.subscribe_topic_name, p.publish_topic_name, p.subscription_construction_order,
                p.publisher_construction_order) == key, node.paths))
        child = [node_paths[0]]
        for left, right in zip(node_paths, node_paths[1:]):
            topic = right.subscribe_topic_name
            if topic is None:
                raise InvalidArgumentError(f'topic name is None. publish_node: {left.node_name}, '
                                           f'subscribe_node: {right.node_name}, ')
            child.append(self.communication(left.node_name, right.node_name, topic,
                                            left.publisher_construction_order,
                                            right.subscription_construction_order))
            child.append(right)
        return PathStructValue(path_name, child)

    def communication(self, pub_node, sub_node, topic, pub_order=0, sub_order=0):
        try:
            return find_one(lambda c: (c.publish_node_name, c.subscribe_node_name, c.topic_name,
                                       c.publisher_construction_order,
                                       c.subscription_construction_order) ==
                            (pub_node, sub_node, topic, pub_order, sub_order),
                            self.communications)
        except ItemNotFoundError:
            raise ItemNotFoundError(
                f'Failed to find communication. topic_name: {topic}, publish_node_name: '
                f'{pub_node}, subscribe_node_name: {sub_node}, publisher_construction_order: '
                f'{pub_order}, subscription_construction_order: {sub_order}, ') from None


# ---- a node ------------------------------------------------------------------------
def _callback(node_name, c):
    topics = None if c['publish_topics'] is None else \
        [PublishTopicInfoValue(t, order) for t, order in c['publish_topics']]
    if c['callback_type'] == 'timer_callback':
        return TimerCallbackStructValue(node_name, c['callback_name'], c['symbol'],
                                        c['period_ns'], topics, c['construction_order'])
    return SubscriptionCallbackStructValue(node_name, c['callback_name'], c['symbol'], topics,
                                           c['construction_order'],
                                           subscribe_topic_name=c['topic_name'])


def _node(n, max_order):
    name = n['node_name']
    callbacks = {c['callback_name']: _callback(name, c) for c in n['callbacks']}
    groups = [CallbackGroupStructValue(CallbackGroupType(g['callback_group_type']), name,
                                       [callbacks[c] for c in g['callback_names']],
                                       g['callback_group_name'])
              for g in n['callback_groups']]
    grouped = {c for g in n['callback_groups'] for c in g['callback_names']}
    # caret-c: a callback in no group (a trace without CARET's executor
    # events) is the node's all the same (docs/dev/original-architecture.md)
    ungrouped = [cb for c, cb in callbacks.items() if c not in grouped]
    publishers = [PublisherStructValue(name, p['topic_name'],
                                       [callbacks[c] for c in p['callback_names']],
                                       p['construction_order']) for p in n['publishes']]
    subscriptions = [SubscriptionStructValue(name, s['topic_name'],
                                             callbacks.get(s['callback_name']),
                                             s['construction_order']) for s in n['subscribes']]
    timers = [TimerStructValue(name, cb.period_ns, cb, cb.construction_order)
              for cb in callbacks.values() if isinstance(cb, TimerCallbackStructValue)]
    passings = [VariablePassingStructValue(name, callbacks[v['callback_name_write']],
                                           callbacks[v['callback_name_read']])
                for v in n['variable_passings']]
    services = [ServiceStructValue(name, s['service_name'], ServiceCallbackStructValue(
        name, s['callback_name'], s['symbol'], None, s['construction_order'],
        service_name=s['service_name']), s['construction_order']) for s in n['services']]
    node = NodeStructValue(name, publishers, subscriptions, services, timers, (), groups,
                           passings, ungrouped)
    try:
        paths = node_paths(node, n['message_contexts'], max_order)
    except Error as e:  # the original keeps the node, without node paths
        logger.warning(e)
        paths = ()
    return NodeStructValue(name, publishers, subscriptions, services, timers, paths, groups,
                           passings, ungrouped)


def node_paths(node, contexts, max_order):
    """The original's node paths of a node, their message contexts
    assigned: contexts (the file's) first, then a callback chain for each
    chain of callbacks the file gives no context for."""
    paths = _callback_paths(node, max_order)
    keys = {(p.publish_topic_name, p.publisher_construction_order, p.subscribe_topic_name,
             p.subscription_construction_order) for p in paths}
    for sub, pub in itertools.product(node.subscriptions, node.publishers):
        key = (pub.topic_name, pub.construction_order, sub.topic_name, sub.construction_order)
        if key not in keys:
            keys.add(key)
            paths.append(NodePathStructValue(node.node_name, sub, pub))
    for pub in node.publishers:
        if (pub.topic_name, None) not in {(p.publish_topic_name, p.subscribe_topic_name)
                                          for p in paths}:
            paths.append(NodePathStructValue(node.node_name, None, pub))
    for sub in node.subscriptions:
        if (None, sub.topic_name) not in {(p.publish_topic_name, p.subscribe_topic_name)
                                          for p in paths}:
            paths.append(NodePathStructValue(node.node_name, sub, None))
    assigned = _contexts(node, contexts, paths)
    out = []
    for p in paths:
        if p.subscription is not None and p.publisher is not None:
            for c in assigned:
                if c.is_applicable_path(p.subscription, p.publisher, p.callbacks):
                    p = p.with_context(c)
        out.append(p)
    return out


def _contexts(node, dicts, paths):
    out, pairs = [], []
    for d in dicts:
        if d['context_type'] == UNDEFINED:
            continue
        try:
            path = find_one(lambda p: (p.publish_topic_name, p.subscribe_topic_name,
                                       p.subscription_construction_order,
                                       p.publisher_construction_order) ==
                            (d['publisher_topic_name'], d['subscription_topic_name'],
                             d.get('subscription_construction_order', 0),
                             d.get('publisher_construction_order', 0)), paths)
            out.append(MessageContext.create_instance(d['context_type'], node.node_name,
                                                      path.subscription, path.publisher,
                                                      path.callbacks))
            pairs.append((path.publish_topic_name, path.subscribe_topic_name))
        except Error as e:
            logger.warning(e)
    for p in paths:
        if p.callbacks is None:
            continue
        chain = CallbackChain(node.node_name, p.subscription, p.publisher, p.callbacks)
        if chain not in out and (p.publish_topic_name, p.subscribe_topic_name) not in pairs:
            out.append(chain)
    return out


def _callback_paths(node, max_order):
    """The chains of callbacks (and variable passings between them) from a
    callback that takes an input to one that publishes, each a node path."""
    callbacks = list(node.callbacks or ())
    if not callbacks:
        return []
    graph, names = Graph(), {c.callback_name for c in callbacks}
    for cb in callbacks:
        if max_order == 0 or cb.construction_order <= max_order:
            graph.add_edge((cb.callback_name, 'read'), (cb.callback_name, 'write'))
    for v in node.variable_passings or ():
        if v.callback_name_write in names and v.callback_name_read in names:
            graph.add_edge((v.callback_name_write, 'write'), (v.callback_name_read, 'read'))
    paths, skipped, highest = [], 0, 0
    for first, last in itertools.product(callbacks, callbacks):
        if max_order != 0 and max(first.construction_order, last.construction_order) > max_order:
            skipped += 1
            highest = max(highest, first.construction_order)
            continue
        for edges in graph.paths((first.callback_name, 'read'), (last.callback_name, 'write')):
            paths += _chain_paths(node, edges, first, last)
    if skipped:
        logger.warning(f'{node.node_name} contains callbacks whose construction_order are '
                       f'greater than {max_order}. {skipped} paths are ignored as a result. '
                       f'(max construction_order: {highest})')
    return paths


def _chain_paths(node, edges, first, last):
    by_name = {c.callback_name: c for c in node.callbacks}
    child = []
    for (src, src_end), (dst, dst_end), _ in edges:
        if src_end == 'read' and dst_end == 'write':
            child.append(by_name[src])
        else:
            child.append(find_one(lambda v: (v.callback_name_write, v.callback_name_read) ==
                                  (src, dst), node.variable_passings))
    sub = next((s for s in node.subscriptions if s.callback_name == first.callback_name), None)
    pubs = [p for p in node.publishers if last.callback_name in (p.callback_names or ())]
    if sub is None and not pubs:
        return []
    return [NodePathStructValue(node.node_name, sub, pub, child) for pub in pubs or [None]]


# ---- between nodes ---------------------------------------------------------------------
def _communications(nodes):
    out = []
    for pub_node, sub_node in itertools.product(nodes, nodes):
        for pub, sub in itertools.product(pub_node.publishers, sub_node.subscriptions):
            if pub.topic_name != sub.topic_name:
                continue
            pub_cbs = [c for c in pub_node.callbacks or ()
                       if PublishTopicInfoValue(pub.topic_name, pub.construction_order)
                       in (c.publish_topics or ())]
            out.append(CommunicationStructValue(pub_node, sub_node, pub, sub, pub_cbs,
                                                _subscription_callback(sub_node, sub)))
    return out


def _subscription_callback(node, sub):
    def takes(cb):
        return cb.subscribe_topic_name == sub.topic_name and \
            (not sub.callback_name or sub.callback_name == cb.callback_name) and \
            (sub.callback is None or sub.callback.construction_order == cb.construction_order)
    try:
        return find_one(takes, node.callbacks or ())
    except Error:
        return None


def _executors(executors, nodes):
    groups = {g.callback_group_name: g for n in nodes for g in n.callback_groups or ()}
    return [ExecutorStructValue(ExecutorType(e['executor_type']),
                                [groups[g] for g in e['callback_group_names'] if g in groups],
                                e['executor_name']) for e in executors]
