"""Architecture: the original's architecture file as data (its YAML, which
libcaret-analyze writes as the original's export does), with named paths,
path search and the rename helpers."""
import copy
import itertools
import os
import tempfile

import yaml

from . import _lib
from ._lib import CaretError, lib
from .lttng import Lttng

IGNORED_TOPICS = ('/parameter_events', '/rosout')
DEFAULT_MAX_NODE_DEPTH = 15


class PathStructValue:
    """A chain of nodes and the topics between them (the original's
    PathStructValue, as far as naming and following it need)."""

    def __init__(self, path_name, node_names, topic_names):
        self.path_name = path_name
        self.node_names = tuple(node_names)
        self.topic_names = tuple(topic_names)

    @property
    def node_chain(self):
        out = []
        for i, node in enumerate(self.node_names):
            out.append({'node_name': node,
                        'publish_topic_name': self.topic_names[i]
                        if i < len(self.topic_names) else 'UNDEFINED',
                        'subscribe_topic_name': self.topic_names[i - 1] if i else 'UNDEFINED'})
        return out

    def __eq__(self, other):
        return isinstance(other, PathStructValue) and \
            (self.node_names, self.topic_names) == (other.node_names, other.topic_names)

    def __repr__(self):
        hops = [self.node_names[0]] + [f'-[{t}]-> {n}' for t, n in
                                       zip(self.topic_names, self.node_names[1:])]
        return f'PathStructValue({self.path_name!r}: {" ".join(hops)})'

    @staticmethod
    def of_chain(name, chain):
        nodes = [c['node_name'] for c in chain]
        topics = []
        for a, b in zip(chain, chain[1:]):
            t = a.get('publish_topic_name')
            topics.append(t if t and t != 'UNDEFINED' else b.get('subscribe_topic_name'))
        return PathStructValue(name, nodes, topics)


class _Obj:
    """A plain value object from the architecture file's mapping."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


class Architecture:
    """Architecture('lttng', trace_dir) or Architecture('yaml', file)."""

    def __init__(self, file_type, file_path, *, lttng=None):
        self._lttng = None
        if file_type == 'lttng':
            self._lttng = lttng or Lttng.opened(file_path) or Lttng(file_path)
            with tempfile.TemporaryDirectory() as d:
                f = os.path.join(d, 'architecture.yaml')
                self._lttng.write_architecture(f)
                self._data = self._read(f)
            self._add_ungrouped(self._lttng.callbacks())
        elif file_type == 'yaml':
            error = _lib.ctypes.c_void_p()
            _lib.check(lib.caret_check_architecture(os.fspath(file_path).encode(),
                                                    _lib.ctypes.byref(error)), error)
            self._data = self._read(file_path)
        else:
            raise ValueError(f"file_type: 'lttng' or 'yaml', not {file_type!r}")
        self._data.setdefault('named_paths', [])
        self._data['named_paths'] = self._data['named_paths'] or []
        # what a renamed object is called in the trace
        self._trace_names = {}

    def _add_ungrouped(self, callbacks):
        """The callbacks the original's file leaves out for belonging to no
        callback group (a trace without CARET's executor events: plain
        ros2_tracing, the testbed), which caret-c analyzes all the same
        (docs/dev/original-architecture.md): added to their nodes, with the
        subscriptions they take."""
        listed = {c.get('callback_name') for n in self._data.get('nodes') or []
                  for c in n.get('callbacks') or []}
        nodes = {n['node_name']: n for n in self._data.get('nodes') or []}
        for cb in callbacks.values():
            node = nodes.get(cb['node'])
            if cb['name'] in listed or node is None or cb['type'] == 'service_callback':
                continue
            entry = {'callback_name': cb['name'], 'callback_type': cb['type']}
            if cb['type'] == 'timer_callback':
                entry['period_ns'] = cb['period_ns']
            else:
                entry['topic_name'] = cb['topic']
                node.setdefault('subscribes', []).append(
                    {'topic_name': cb['topic'], 'callback_name': cb['name']})
            entry['symbol'] = cb['symbol'] or 'UNDEFINED'
            node.setdefault('callbacks', []).append(entry)

    @staticmethod
    def _read(f):
        with open(f) as fh:
            data = yaml.safe_load(fh) or {}
        if not isinstance(data, dict) or 'nodes' not in data:
            raise CaretError(f'{f}: not an architecture file (no nodes)', 'format')
        return data

    # ---- the objects ------------------------------------------------------
    @property
    def nodes(self):
        out = []
        for n in self._data.get('nodes') or []:
            name = n['node_name']
            subs = [_Obj(node_name=name, topic_name=s['topic_name'],
                         callback_name=s.get('callback_name'))
                    for s in n.get('subscribes') or []]
            pubs = [_Obj(node_name=name, topic_name=p['topic_name'],
                         callback_names=tuple(p.get('callback_names') or ()))
                    for p in n.get('publishes') or []]
            cbs = [_Obj(node_name=name, **c) for c in n.get('callbacks') or []]
            out.append(_Obj(node_name=name, publishers=pubs, subscriptions=subs, callbacks=cbs,
                            callback_names=tuple(c.callback_name for c in cbs),
                            publish_topic_names=tuple(p.topic_name for p in pubs),
                            subscribe_topic_names=tuple(s.topic_name for s in subs),
                            message_contexts=list(n.get('message_contexts') or [])))
        return out

    @property
    def node_names(self):
        return tuple(n['node_name'] for n in self._data.get('nodes') or [])

    @property
    def executor_names(self):
        return tuple(e['executor_name'] for e in self._data.get('executors') or [])

    @property
    def callbacks(self):
        return [c for n in self.nodes for c in n.callbacks]

    @property
    def topic_names(self):
        return tuple(sorted({p.topic_name for n in self.nodes for p in n.publishers} |
                            {s.topic_name for n in self.nodes for s in n.subscriptions}))

    @property
    def paths(self):
        return [PathStructValue.of_chain(p['path_name'], p['node_chain'])
                for p in self._data['named_paths']]

    @property
    def path_names(self):
        return tuple(p['path_name'] for p in self._data['named_paths'])

    def get_node(self, node_name):
        for n in self.nodes:
            if n.node_name == node_name:
                return n
        raise CaretError(f'no node {node_name}', 'not found')

    # ---- named paths ------------------------------------------------------------
    def get_path(self, path_name):
        for p in self.paths:
            if p.path_name == path_name:
                return p
        raise CaretError(f'no path named {path_name}', 'not found')

    def add_path(self, path_name, path_info):
        if path_name in self.path_names:
            raise CaretError(f'a path named {path_name} exists already', 'invalid')
        p = PathStructValue(path_name, path_info.node_names, path_info.topic_names)
        self._data['named_paths'].append({'path_name': path_name, 'node_chain': p.node_chain})

    def remove_path(self, path_name):
        self.get_path(path_name)
        self._data['named_paths'] = [p for p in self._data['named_paths']
                                     if p['path_name'] != path_name]

    def update_path(self, path_name, path):
        self.remove_path(path_name)
        self.add_path(path_name, path)

    def search_paths(self, *node_names, max_node_depth=None, node_filter=None,
                     communication_filter=None):
        """Paths through the given nodes in order (two or more), shortest first
        for each pair, combined."""
        if len(node_names) < 2:
            raise CaretError('search_paths needs two node names or more', 'invalid')
        depth = max_node_depth or DEFAULT_MAX_NODE_DEPTH
        legs = [self._search(a, b, depth) for a, b in zip(node_names, node_names[1:])]
        out = []
        for combo in itertools.product(*legs):
            nodes, topics = list(combo[0][0]), list(combo[0][1])
            for n, t in combo[1:]:
                nodes += n[1:]
                topics += t
            if node_filter and not all(node_filter(n) for n in nodes):
                continue
            if communication_filter and not all(communication_filter(t) for t in topics):
                continue
            out.append(PathStructValue(None, nodes, topics))
        return out

    def _search(self, src, dst, depth):
        if self._lttng is not None:
            return self._lttng.search_paths(self._trace_name(src), self._trace_name(dst), depth)
        return self._search_file(src, dst, depth)

    def _search_file(self, src, dst, depth):
        """Over the file's publishes and subscribes (an architecture from YAML
        has no trace): every simple path, shortest first."""
        edges = {}
        for n in self.nodes:
            for p in n.publishers:
                if p.topic_name in IGNORED_TOPICS or p.topic_name.startswith('/caret/'):
                    continue
                for m in self.nodes:
                    if m.node_name != n.node_name and p.topic_name in m.subscribe_topic_names:
                        edges.setdefault(n.node_name, []).append((p.topic_name, m.node_name))
        if src not in self.node_names or dst not in self.node_names:
            raise CaretError(f'no node {src if src not in self.node_names else dst}',
                             'not found')
        found = []

        def walk(nodes, topics):
            if nodes[-1] == dst and len(nodes) > 1:
                found.append((list(nodes), list(topics)))
                return
            if len(nodes) >= depth:
                return
            for t, m in edges.get(nodes[-1], []):
                if m not in nodes:
                    walk(nodes + [m], topics + [t])
        walk([src], [])
        return sorted(found, key=lambda p: len(p[0]))

    # ---- message contexts ----------------------------------------------------------
    def update_message_context(self, node_name, context_type, subscribe_topic_name,
                               publish_topic_name):
        """How node_name turns its input on subscribe_topic_name into its
        output on publish_topic_name (the original's context types, and
        caret-c's consume_latest_message): the node path's message context,
        added or replaced."""
        node = self._node_data(node_name)
        if publish_topic_name not in [p['topic_name'] for p in node.get('publishes') or []]:
            raise CaretError(f'{publish_topic_name} is not found in {node_name}', 'not found')
        if subscribe_topic_name not in [s['topic_name'] for s in node.get('subscribes') or []]:
            raise CaretError(f'{subscribe_topic_name} is not found in {node_name}', 'not found')
        contexts = node.setdefault('message_contexts', None) or []
        node['message_contexts'] = contexts
        context = {'context_type': context_type,
                   'subscription_topic_name': subscribe_topic_name,
                   'publisher_topic_name': publish_topic_name}
        for i, c in enumerate(contexts):
            if (c.get('subscription_topic_name'), c.get('publisher_topic_name')) == \
                    (subscribe_topic_name, publish_topic_name):
                contexts[i] = context
                return
        contexts.append(context)

    def _node_data(self, node_name):
        for n in self._data.get('nodes') or []:
            if n['node_name'] == node_name:
                return n
        raise CaretError(f'no node {node_name}', 'not found')

    # ---- renames (the trace keeps its names: Application maps them back) --------
    _KEYS = {'node': ('node_name',),
             'callback': ('callback_name', 'callback_names', 'callbacks'),
             'topic': ('topic_name', 'subscription_topic_name', 'publisher_topic_name',
                       'publish_topic_name', 'subscribe_topic_name'),
             'executor': ('executor_name',), 'path': ('path_name',)}

    def _rename(self, kind, src, dst):
        keys, hits = self._KEYS[kind], [0]

        def walk(x):
            if isinstance(x, dict):
                for k, v in x.items():
                    if k in keys and v == src:
                        x[k] = dst
                        hits[0] += 1
                    elif k in keys and isinstance(v, list) and src in v:
                        x[k] = [dst if i == src else i for i in v]
                        hits[0] += 1
                    else:
                        walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)
        walk(self._data)
        if not hits[0]:
            raise CaretError(f'no {kind} named {src}', 'not found')
        if kind in ('node', 'callback', 'topic'):
            self._trace_names[dst] = self._trace_names.pop(src, src)

    def rename_node(self, src, dst):
        self._rename('node', src, dst)

    def rename_callback(self, src, dst):
        self._rename('callback', src, dst)

    def rename_topic(self, src, dst):
        self._rename('topic', src, dst)

    def rename_executor(self, src, dst):
        self._rename('executor', src, dst)

    def rename_path(self, src, dst):
        self._rename('path', src, dst)

    def _trace_name(self, name):
        return self._trace_names.get(name, name)

    # ---- the file ---------------------------------------------------------------
    def export(self, file_path, force=False):
        if os.path.exists(file_path) and not force:
            raise FileExistsError(f'{file_path} exists (force=True overwrites it)')
        data = {'named_paths': self._data['named_paths']}
        data.update((k, v) for k, v in self._data.items() if k != 'named_paths')
        with open(file_path, 'w') as f:
            yaml.safe_dump(data, f, sort_keys=False, default_flow_style=False, width=10**6)

    def copy(self):
        """Another architecture over the same trace, its file data copied."""
        other = Architecture.__new__(Architecture)
        other._lttng = self._lttng
        other._data = copy.deepcopy(self._data)
        other._trace_names = dict(self._trace_names)
        return other
