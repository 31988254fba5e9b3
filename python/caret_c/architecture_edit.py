"""The original's edits of an architecture, on its state
(architecture_file.load): message contexts, a publisher's callbacks,
variable passings between callbacks, renames. Each takes the model
built before it (architecture_model.Model): an edit that changes how a
node's paths are found first writes down the contexts its node paths
have now, as the original does, then the caller builds again."""
from .common import find_one, find_similar_one
from .exceptions import ItemNotFoundError, MultipleItemFoundError


def _node_state(state, node_name):
    return find_one(lambda n: n['node_name'] == node_name, state['nodes'])


def _callback_state(node_state, model_node, callback_name):
    """The node's callback (one of its groups'), as the state holds it."""
    find_one(lambda c: c.callback_name == callback_name, model_node.callbacks or ())
    return find_one(lambda c: c['callback_name'] == callback_name, node_state['callbacks'])


def _freeze_contexts(node_state, model_node):
    """The contexts the node's paths have now (those the original made for
    its callback chains too) become the node's own."""
    node_state['message_contexts'] = [p.message_context.to_dict() for p in model_node.paths
                                      if p.message_context is not None]


def update_message_context(state, model, node_name, context_type, subscribe_topic_name,
                           publish_topic_name):
    node = _node_state(state, node_name)
    model_node = model.node(node_name)
    if publish_topic_name not in model_node.publish_topic_names:
        raise ItemNotFoundError('{pub_topic_name} is not found in {node_name}')
    if subscribe_topic_name not in model_node.subscribe_topic_names:
        raise ItemNotFoundError('{sub_topic_name} is not found in {node_name}')
    _freeze_contexts(node, model_node)
    pair = (subscribe_topic_name, publish_topic_name)
    for c in node['message_contexts']:
        if (c['subscription_topic_name'], c['publisher_topic_name']) == pair:
            c['context_type'] = context_type
    for p in model_node.paths:
        if p.message_context is None and \
                (p.subscribe_topic_name, p.publish_topic_name) == pair:
            node['message_contexts'].append({
                'context_type': context_type, 'subscription_topic_name': subscribe_topic_name,
                'publisher_topic_name': publish_topic_name,
                'publisher_construction_order': p.publisher_construction_order,
                'subscription_construction_order': p.subscription_construction_order})


def _publisher_state(node, topic_name, construction_order):
    try:
        return find_one(lambda p: (p['topic_name'], p['construction_order']) ==
                        (topic_name, construction_order), node['publishes'])
    except ItemNotFoundError:
        raise ItemNotFoundError(f'Failed to find subscription info. topic_name: {topic_name} '
                                f'construction_order: {construction_order}') from None


def insert_publisher_callback(state, model, node_name, topic_name, callback_name,
                              construction_order):
    node = _node_state(state, node_name)
    model_node = model.node(node_name)
    callback = _callback_state(node, model_node, callback_name)
    if callback['publish_topics'] is None:  # a trace's: not bound until now
        callback['publish_topics'] = []
    elif [topic_name, construction_order] in callback['publish_topics']:
        raise MultipleItemFoundError(
            f'publisher is already registered.  publish_topic_name: {topic_name} '
            f'construction_order: {construction_order}')
    # the callback publishes the topic even when the publisher is not found
    callback['publish_topics'].append([topic_name, construction_order])
    publisher = _publisher_state(node, topic_name, construction_order)
    if callback_name not in publisher['callback_names']:
        publisher['callback_names'].append(callback_name)
    _freeze_contexts(node, model_node)


def remove_publisher_callback(state, model, node_name, topic_name, callback_name,
                              construction_order):
    node = _node_state(state, node_name)
    model_node = model.node(node_name)
    callback = _callback_state(node, model_node, callback_name)
    if callback['publish_topics'] is not None:
        callback['publish_topics'] = [t for t in callback['publish_topics']
                                      if t != [topic_name, construction_order]]
    publisher = _publisher_state(node, topic_name, construction_order)
    if callback_name in publisher['callback_names']:
        publisher['callback_names'].remove(callback_name)
    _freeze_contexts(node, model_node)


def insert_variable_passing(state, model, node_name, callback_name_write, callback_name_read):
    node = _node_state(state, node_name)
    model_node = model.node(node_name)
    _callback_state(node, model_node, callback_name_write)
    _callback_state(node, model_node, callback_name_read)
    passing = {'callback_name_write': callback_name_write,
               'callback_name_read': callback_name_read}
    if passing not in node['variable_passings']:
        node['variable_passings'].append(passing)
    _freeze_contexts(node, model_node)


def remove_variable_passing(state, model, node_name, callback_name_write, callback_name_read):
    node = _node_state(state, node_name)
    model_node = model.node(node_name)
    node['variable_passings'] = [v for v in node['variable_passings'] if
                                 (v['callback_name_write'], v['callback_name_read']) !=
                                 (callback_name_write, callback_name_read)]
    callbacks = [c for n in model.nodes for c in n.callbacks or ()]
    read = find_one(lambda c: c.callback_name == callback_name_read, callbacks)
    write = find_one(lambda c: c.callback_name == callback_name_write, callbacks)
    _freeze_contexts(node, model_node)
    if not write.subscribe_topic_name:
        return
    # the callback chains through the passing are no context of the node's now
    chains = {(write.subscribe_topic_name, write.construction_order, t.topic_name,
               t.construction_order) for t in read.publish_topics or ()}
    node['message_contexts'] = [
        c for c in node['message_contexts']
        if c['context_type'] != 'callback_chain' or
        (c['subscription_topic_name'], c.get('subscription_construction_order', 0),
         c['publisher_topic_name'], c.get('publisher_construction_order', 0)) not in chains]


# ---- renames ---------------------------------------------------------------------------
def _replace(values, src, dst):
    return [dst if v == src else v for v in values]


def rename_node(state, src, dst):
    for n in state['nodes']:
        if n['node_name'] == src:
            n['node_name'] = dst
    for p in state['named_paths']:
        for c in p['node_chain']:
            if c['node_name'] == src:
                c['node_name'] = dst


def rename_topic(state, src, dst):
    for n in state['nodes']:
        for item in n['publishes'] + n['subscribes'] + n['callbacks']:
            if item.get('topic_name') == src:
                item['topic_name'] = dst
        for cb in n['callbacks']:
            if cb['publish_topics'] is not None:
                cb['publish_topics'] = [[dst if t == src else t, o]
                                        for t, o in cb['publish_topics']]
        for c in n['message_contexts']:
            for key in ('subscription_topic_name', 'publisher_topic_name'):
                if c.get(key) == src:
                    c[key] = dst
    for p in state['named_paths']:
        for c in p['node_chain']:
            for key in ('publish_topic_name', 'subscribe_topic_name'):
                if c[key] == src:
                    c[key] = dst


def rename_callback(state, model, src, dst):
    """The callbacks of the executors' callback groups are the ones renamed
    (find_similar_one: a near name suggested)."""
    candidates = [c for e in model.executors for c in e.callbacks]
    find_similar_one(src, candidates, lambda c: c.callback_name)
    for n in state['nodes']:
        for cb in n['callbacks']:
            if cb['callback_name'] == src:
                cb['callback_name'] = dst
        for g in n['callback_groups']:
            g['callback_names'] = _replace(g['callback_names'], src, dst)
        for p in n['publishes']:
            p['callback_names'] = _replace(p['callback_names'], src, dst)
        for s in n['subscribes']:
            if s['callback_name'] == src:
                s['callback_name'] = dst
        for v in n['variable_passings']:
            for key in ('callback_name_write', 'callback_name_read'):
                if v[key] == src:
                    v[key] = dst
        for c in n['message_contexts']:
            if c.get('callbacks'):
                c['callbacks'] = _replace(c['callbacks'], src, dst)


def rename_executor(state, src, dst):
    find_similar_one(src, state['executors'], lambda e: e['executor_name'])['executor_name'] = dst


def rename_path(state, src, dst):
    find_similar_one(src, state['named_paths'], lambda p: p['path_name'])['path_name'] = dst
