"""The architecture file (the original's YAML) in and out.

load() turns the file's mapping into the state an Architecture edits:
the original reader's rules applied once (the topics it ignores, the
tracer's own nodes left out, 'UNDEFINED' as nothing, a publisher of a
node with one callback bound to it), every name resolved. export_text()
writes a state as the original's exporter does, key for key and in
PyYAML's layout, so that a file caret_c exports is the original's."""
import logging

import yaml

from .exceptions import InvalidYamlFormatError

logger = logging.getLogger(__name__)

UNDEFINED = 'UNDEFINED'
IGNORED_TOPICS = ('/parameter_events', '/rosout', '/clock')
TRACER_NODE = 'caret_trace_'
CALLBACK_KINDS = ('timer_callback', 'subscription_callback')


def _value(obj, key):
    """obj[key], present and not null, or the original's error."""
    try:
        v = obj[key]
    except (KeyError, TypeError):
        raise InvalidYamlFormatError(
            f'Failed to parse yaml file. {key} not found. obj: {obj}') from None
    if v is None:
        raise InvalidYamlFormatError(f"'{key}' value is None. obj: {obj}")
    return v


def _defined(name):
    return None if name in (None, UNDEFINED) else name


def load(raw, trace_all=None):
    """The state of an architecture file's mapping: {'named_paths',
    'executors', 'nodes'} with each node's callbacks, callback_groups,
    publishes, subscribes, variable_passings, message_contexts and
    services. trace_all: a trace's file with every object (the C
    library's all=True), for what the original takes from a trace and its
    file leaves out: each node's services, and callbacks whose publish
    topics are unknown (None: the trace does not bind them)."""
    if raw is None:
        raise InvalidYamlFormatError('Failed to parse yaml.')
    services = {n['node_name']: n for n in (trace_all or {}).get('nodes') or []}
    nodes, seen = [], set()
    for n in sorted(_value(raw, 'nodes'), key=lambda n: _value(n, 'node_name')):
        name = n['node_name']
        if name in seen or TRACER_NODE in name:
            continue
        seen.add(name)
        node = _load_node(n)
        node['services'] = _services(services.get(name) or {})
        if trace_all is not None:
            for cb in node['callbacks']:
                cb['publish_topics'] = None
        nodes.append(node)
    groups = {g['callback_group_name'] for n in nodes for g in n['callback_groups']}
    # a trace's executors hold their groups in the order they were added
    # (the file sorts them)
    added = {e['executor_name']: e['callback_group_names']
             for e in (trace_all or {}).get('executors') or []}
    executors = []
    for e in _value(raw, 'executors'):
        names = list(_value(e, 'callback_group_names'))
        names = [g for g in added.get(e['executor_name'], []) if g in names] + \
            [g for g in names if g not in added.get(e['executor_name'], [])]
        if any(TRACER_NODE in g for g in names):
            continue
        executors.append({'executor_type': e.get('executor_type'),
                          'executor_name': _value(e, 'executor_name'),
                          'callback_group_names': [g for g in names if g in groups]})
    paths, path_names = [], set()
    for p in _value(raw, 'named_paths') or []:
        if _value(p, 'path_name') in path_names:
            logger.warning(f"Duplicated path name. ['{p['path_name']}']. Use first path only.")
            continue
        path_names.add(p['path_name'])
        paths.append({'path_name': p['path_name'],
                      'node_chain': [_chain_entry(c) for c in _value(p, 'node_chain')]})
    return {'named_paths': paths, 'executors': executors, 'nodes': nodes}


def _chain_entry(c):
    pub, sub = _defined(c.get('publish_topic_name')), _defined(c.get('subscribe_topic_name'))
    return {'node_name': _value(c, 'node_name'), 'publish_topic_name': pub,
            'subscribe_topic_name': sub,
            'publisher_construction_order':
                None if pub is None else c.get('publisher_construction_order', 0),
            'subscription_construction_order':
                None if sub is None else c.get('subscription_construction_order', 0)}


def _load_node(n):
    name = n['node_name']
    publishes = [p for p in n.get('publishes') or []
                 if _value(p, 'topic_name') not in IGNORED_TOPICS]
    callbacks = []
    for c in n.get('callbacks') or []:
        kind = _value(c, 'callback_type')
        if kind not in CALLBACK_KINDS or c.get('topic_name') in IGNORED_TOPICS:
            continue
        cb = {'callback_name': _value(c, 'callback_name'), 'callback_type': kind,
              'symbol': _value(c, 'symbol'), 'construction_order': c.get('construction_order', 0),
              'publish_topics': [[p['topic_name'], p.get('construction_order', 0)]
                                 for p in publishes
                                 if _publishes(c["callback_name"], p)]}
        if kind == 'timer_callback':
            cb['period_ns'] = _value(c, 'period_ns')
        else:
            cb['topic_name'] = _value(c, 'topic_name')
        callbacks.append(cb)
    known = {c['callback_name'] for c in callbacks}
    groups = [{'callback_group_type': _value(g, 'callback_group_type'),
               'callback_group_name': _value(g, 'callback_group_name'),
               'callback_names': [c for c in _value(g, 'callback_names') if c in known]}
              for g in n.get('callback_groups') or []]
    return {
        'node_name': name, 'callbacks': callbacks, 'callback_groups': groups,
        'publishes': [_load_publisher(p, callbacks, known) for p in publishes],
        'subscribes': [{'topic_name': s['topic_name'],
                        'callback_name': _defined(s.get('callback_name')),
                        'construction_order': s.get('construction_order', 0)}
                       for s in n.get('subscribes') or []
                       if _value(s, 'topic_name') not in IGNORED_TOPICS],
        'variable_passings': [
            {'callback_name_write': v['callback_name_write'],
             'callback_name_read': v['callback_name_read']}
            for v in n.get('variable_passings') or []
            if _defined(_value(v, 'callback_name_write')) and
            _defined(_value(v, 'callback_name_read'))],
        'message_contexts': [_checked_context(c) for c in n.get('message_contexts') or []],
    }


def _services(node):
    return [{'service_name': c['service_name'], 'callback_name': c['callback_name'],
             'symbol': c.get('symbol'), 'construction_order': c.get('construction_order', 0)}
            for c in node.get('callbacks') or [] if c.get('callback_type') == 'service_callback']


def _publishes(callback_name, publisher):
    return callback_name in (_value(publisher, 'callback_names') or [])


def _load_publisher(p, callbacks, known):
    names = [c for c in p['callback_names'] or [] if c in known]
    # the original binds a node's only callback to a publisher the file
    # binds to none (the callback's own publish topics stay as the file says)
    if not names and len(callbacks) == 1:
        names = [callbacks[0]['callback_name']]
    return {'topic_name': p['topic_name'], 'callback_names': names,
            'construction_order': p.get('construction_order', 0)}


def _checked_context(c):
    for key in ('context_type', 'publisher_topic_name', 'subscription_topic_name'):
        _value(c, key)
    return dict(c)


# ---- out: the original's exporter --------------------------------------------------
def export_text(model):
    """The original's export of a built model (architecture_model.Model)."""
    data = {'named_paths': [_path_dict(p) for p in model.named_paths],
            'executors': sorted((_executor_dict(e) for e in model.executors),
                                key=lambda e: e['executor_name']),
            'nodes': sorted((_node_dict(n) for n in model.nodes),
                            key=lambda n: n['node_name'])}
    return yaml.dump(data, indent=2, default_flow_style=False, sort_keys=False)


def _path_dict(path):
    chain = []
    for np in path.node_paths:
        item = {'node_name': np.node_name,
                'publish_topic_name': np.publish_topic_name or UNDEFINED,
                'subscribe_topic_name': np.subscribe_topic_name or UNDEFINED}
        if (np.publisher_construction_order or 0) > 0:
            item['publisher_construction_order'] = np.publisher_construction_order
        if (np.subscription_construction_order or 0) > 0:
            item['subscription_construction_order'] = np.subscription_construction_order
        chain.append(item)
    return {'path_name': path.path_name, 'node_chain': chain}


def _executor_dict(e):
    groups = sorted(e.callback_groups, key=lambda g: g.callback_group_name)
    return {'executor_type': e.executor_type_name, 'executor_name': e.executor_name,
            'callback_group_names': [g.callback_group_name for g in groups]}


def _callback_dict(cb):
    item = {'callback_name': cb.callback_name, 'callback_type': cb.callback_type_name}
    if cb.callback_type_name == 'timer_callback':
        item['period_ns'] = cb.period_ns
    else:
        item['topic_name'] = cb.subscribe_topic_name
    item['symbol'] = cb.symbol
    if cb.construction_order > 0:
        item['construction_order'] = cb.construction_order
    return item


def _node_dict(node):
    out = {'node_name': node.node_name}
    if node.callback_groups is not None:
        out['callback_groups'] = [{'callback_group_type': g.callback_group_type_name,
                                   'callback_group_name': g.callback_group_name,
                                   'callback_names': sorted(g.callback_names)}
                                  for g in node.callback_groups]
    callbacks = [c for c in node.callbacks or () if c.callback_type_name in CALLBACK_KINDS]
    if node.callbacks is not None:
        if len(node.callbacks) >= 1:
            out['callbacks'] = sorted((_callback_dict(c) for c in callbacks),
                                      key=lambda c: c['callback_name'])
        if len(node.callbacks) >= 2:
            passings = [{'callback_name_write': v.callback_name_write,
                         'callback_name_read': v.callback_name_read}
                        for v in node.variable_passings or ()]
            out['variable_passings'] = passings or [
                {'callback_name_write': UNDEFINED, 'callback_name_read': UNDEFINED}]
    if node.publishers:
        out['publishes'] = sorted((_publisher_dict(p) for p in node.publishers),
                                  key=lambda p: p['topic_name'])
    if node.subscriptions:
        out['subscribes'] = sorted((_subscription_dict(s) for s in node.subscriptions),
                                   key=lambda s: s['topic_name'])
    if node.subscriptions and node.publishers:
        out['message_contexts'] = _contexts(node.paths)
    return out


def _publisher_dict(p):
    item = {'topic_name': p.topic_name, 'callback_names': list(p.callback_names or ()) or
            [UNDEFINED]}
    if p.construction_order > 0:
        item['construction_order'] = p.construction_order
    return item


def _subscription_dict(s):
    item = {'topic_name': s.topic_name, 'callback_name': s.callback_name or UNDEFINED}
    if s.construction_order > 0:
        item['construction_order'] = s.construction_order
    return item


def _contexts(paths):
    out = []
    for p in sorted(paths, key=lambda p: (p.subscribe_topic_name or '',
                                          p.publish_topic_name or '')):
        if p.publish_topic_name is None or p.subscribe_topic_name is None:
            continue
        if p.message_context is not None:
            out.append(p.message_context.to_dict())
            continue
        item = {'context_type': UNDEFINED, 'subscription_topic_name': p.subscribe_topic_name,
                'publisher_topic_name': p.publish_topic_name}
        if (p.publisher_construction_order or 0) > 0:
            item['publisher_construction_order'] = p.publisher_construction_order
        if (p.subscription_construction_order or 0) > 0:
            item['subscription_construction_order'] = p.subscription_construction_order
        out.append(item)
    return out
