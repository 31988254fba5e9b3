"""Architecture: the original's, over its architecture file.

Architecture('lttng' | 'ctf', trace_dir) takes the file libcaret-analyze
writes for the trace (the original's export, compared by
test_original_differential); Architecture('yaml' | 'yml', file) reads
one. Either is loaded as the original loads a file (architecture_file),
built into its value objects (architecture_model), searched
(path_search) and edited (architecture_edit) as the original does; the
renamed objects keep their trace names for Application."""
import copy
import logging
import os
import tempfile

import yaml

from . import _lib, architecture_edit as edit, architecture_file, path_search
from ._lib import lib
from .architecture_model import Model
from .common import Summary, expand, find_one
from .exceptions import (CaretFileNotFoundError, CaretOSError, InvalidArgumentError,
                         ItemNotFoundError, UnsupportedTypeError)
from .lttng import Lttng
from .value_objects import (CommunicationStructValue, DiffNode, NodePathStructValue,
                            PathStructValue)

logger = logging.getLogger(__name__)

DEFAULT_MAX_CALLBACK_CONSTRUCTION_ORDER_ON_PATH_SEARCHING = 10
DEFAULT_MAX_NODE_DEPTH = 15
DETAILS = 'For details, see https://tier4.github.io/caret_doc/latest/configuration/' \
    'inter_node_data_path/.'


def read_state(file_type, file_path, lttng=None):
    """The loaded state (architecture_file.load) of an architecture file or
    of a trace's architecture; the original's ValueError otherwise."""
    if file_type in ('yaml', 'yml'):
        if not isinstance(file_path, (str, os.PathLike)):
            raise ValueError('Cannot create architecture object when multiple yaml files are '
                             'provided.')
        return architecture_file.load(_read_yaml(expand(file_path)))
    if file_type in ('lttng', 'ctf'):
        trace = lttng or Lttng.opened(file_path) or Lttng(file_path)
        with tempfile.TemporaryDirectory() as d:
            f, every = os.path.join(d, 'architecture.yaml'), os.path.join(d, 'all.yaml')
            trace.write_architecture(f)
            trace.write_architecture(every, all=True)
            raw, trace_all = _read_yaml(f), _read_yaml(every)
        _add_ungrouped(raw, trace.callbacks())
        return architecture_file.load(raw, trace_all)
    raise ValueError(f'unsupported file_type: {file_type}')


def _read_yaml(file):
    error = _lib.ctypes.c_void_p()
    try:
        _lib.check(lib.caret_check_architecture(file.encode(), _lib.ctypes.byref(error)),
                   error, 'architecture')
    except CaretOSError as e:
        if not os.path.exists(file):  # as open() in the original
            raise CaretFileNotFoundError(str(e), e.status, e.causes) from None
        raise
    with open(file) as fh:  # libyaml's loader where PyYAML has it: ten times as fast
        return yaml.load(fh, Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader))


def _add_ungrouped(raw, callbacks):
    """The callbacks a trace without CARET's executor events leaves out of
    the original's file, which caret-c analyzes all the same
    (docs/dev/original-architecture.md): each its node's, with the
    subscription it takes."""
    nodes = {n['node_name']: n for n in raw.get('nodes') or []}
    listed = {c.get('callback_name') for n in nodes.values() for c in n.get('callbacks') or []}
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


class Architecture:
    """Architecture(file_type, file_path,
    max_callback_construction_order_on_path_searching=10): file_type
    'lttng' or 'ctf' (a trace's directories), 'yaml' or 'yml' (a file)."""

    def __init__(self, file_type, file_path,
                 max_callback_construction_order_on_path_searching=(
                     DEFAULT_MAX_CALLBACK_CONSTRUCTION_ORDER_ON_PATH_SEARCHING), *, lttng=None):
        self._max_order = max_callback_construction_order_on_path_searching
        if file_type in ('lttng', 'ctf'):
            lttng = lttng or Lttng.opened(file_path) or Lttng(file_path)
        self._lttng = lttng if file_type in ('lttng', 'ctf') else None
        self._state = read_state(file_type, file_path, self._lttng)
        self._model = Model(self._state, self._max_order)
        # what a renamed node, callback or topic is called in the trace
        self._trace_names = {}
        self._warn_duplicate_callbacks()

    def _rebuild(self):
        self._model = Model(self._state, self._max_order)

    def _warn_duplicate_callbacks(self):
        for node in self._model.nodes:
            seen = {}
            for cb in node.callbacks or ():
                param = cb.period_ns if cb.callback_type_name == 'timer_callback' else \
                    cb.subscribe_topic_name
                key = (cb.callback_type_name, param, cb.symbol, cb.construction_order)
                seen[key] = seen.get(key, 0) + 1
            for (kind, param, _, _), count in seen.items():
                if count >= 2:
                    logger.warning(f'Duplicate parameter callback found. node_name: '
                                   f'{node.node_name}, callback_type: {kind}period_ns: {param}')

    # ---- the objects ----------------------------------------------------------------
    nodes = property(lambda self: tuple(self._model.nodes))
    node_names = property(lambda self: tuple(sorted(n.node_name for n in self._model.nodes)))
    executors = property(lambda self: tuple(self._model.executors))
    executor_names = property(
        lambda self: tuple(sorted(e.executor_name for e in self._model.executors)))
    communications = property(lambda self: tuple(self._model.communications))
    paths = property(lambda self: tuple(self._model.named_paths))
    path_names = property(
        lambda self: tuple(sorted(p.path_name for p in self._model.named_paths)))

    @property
    def callback_groups(self):
        return tuple(g for n in self._model.nodes for g in n.callback_groups or ())

    @property
    def callback_group_names(self):
        return tuple(sorted(g.callback_group_name for g in self.callback_groups))

    @property
    def callbacks(self):
        return tuple(c for g in self.callback_groups for c in g.callbacks)

    @property
    def publishers(self):
        return tuple(sorted((p for n in self._model.nodes for p in n.publishers),
                            key=lambda p: p.topic_name))

    @property
    def subscriptions(self):
        return tuple(sorted((s for n in self._model.nodes for s in n.subscriptions),
                            key=lambda s: s.topic_name))

    @property
    def services(self):
        return tuple(sorted((s for n in self._model.nodes for s in n.services),
                            key=lambda s: s.service_name))

    @property
    def topic_names(self):
        return tuple(sorted({p.topic_name for p in self.publishers} |
                            {s.topic_name for s in self.subscriptions}))

    @property
    def summary(self):
        return Summary({'nodes': self.node_names})

    def get_node(self, node_name):
        try:
            return find_one(lambda n: n.node_name == node_name, self._model.nodes)
        except ItemNotFoundError:
            raise ItemNotFoundError(f'Failed to find node. node_name: {node_name}') from None

    def get_executor(self, executor_name):
        return find_one(lambda e: e.executor_name == executor_name, self._model.executors)

    def get_callback_group(self, callback_group_name):
        return find_one(lambda g: g.callback_group_name == callback_group_name,
                        self.callback_groups)

    def get_callback(self, callback_name):
        return find_one(lambda c: c.callback_name == callback_name, self.callbacks)

    def get_communication(self, publisher_node_name, subscription_node_name, topic_name, *,
                          publisher_construction_order=0, subscription_construction_order=0):
        key = (publisher_node_name, subscription_node_name, topic_name,
               publisher_construction_order, subscription_construction_order)
        return find_one(lambda c: (c.publish_node_name, c.subscribe_node_name, c.topic_name,
                                   c.publisher_construction_order,
                                   c.subscription_construction_order) == key,
                        self._model.communications)

    # ---- named paths ---------------------------------------------------------------------
    def get_path(self, path_name):
        if path_name not in self.path_names:
            raise InvalidArgumentError(f'Failed to get named path. {path_name} not exist.')
        return find_one(lambda p: p.path_name == path_name, self._model.named_paths)

    def add_path(self, path_name, path_info):
        if path_name in self.path_names:
            raise InvalidArgumentError('Failed to add named path. Duplicate path name.')
        if not isinstance(path_info, PathStructValue):
            raise UnsupportedTypeError(
                "Type of argument 'path_info' must be [PathStructValue]. The given argument "
                f"type is '{type(path_info).__name__}'.")
        chain = []
        for c in path_info.child:
            if isinstance(c, NodePathStructValue):
                node = find_one(lambda n: n.node_name == c.node_name, self._model.nodes)
                find_one(lambda p: _node_path_key(p) == _node_path_key(c), node.paths)
                chain.append({'node_name': c.node_name,
                              'publish_topic_name': c.publish_topic_name,
                              'subscribe_topic_name': c.subscribe_topic_name,
                              'publisher_construction_order': c.publisher_construction_order,
                              'subscription_construction_order':
                                  c.subscription_construction_order})
            elif isinstance(c, CommunicationStructValue):
                self.get_communication(
                    c.publish_node_name, c.subscribe_node_name, c.topic_name,
                    publisher_construction_order=c.publisher_construction_order,
                    subscription_construction_order=c.subscription_construction_order)
            else:
                raise UnsupportedTypeError('')
        self._state['named_paths'].append({'path_name': path_name, 'node_chain': chain})
        self._rebuild()

    def remove_path(self, path_name):
        if path_name not in self.path_names:
            raise InvalidArgumentError(f'Failed to remove named path. {path_name} not exist.')
        self._state['named_paths'] = [p for p in self._state['named_paths']
                                      if p['path_name'] != path_name]
        self._rebuild()

    def update_path(self, path_name, path):
        if path.path_name is None:
            raise InvalidArgumentError('path_info.path_name is None')
        self.remove_path(path.path_name)
        self.add_path(path_name, path)

    def search_paths(self, *node_names, max_node_depth=None, node_filter=None,
                     communication_filter=None):
        """Every path through node_names in order, as the original's search
        finds them (printing what it prints)."""
        for name in node_names:
            if name not in self.node_names:
                raise ItemNotFoundError(f'Failed to find node. {name}')
        depth = max_node_depth or DEFAULT_MAX_NODE_DEPTH
        if depth > DEFAULT_MAX_NODE_DEPTH:
            print(f"Argument 'max_node_depth' greater than {DEFAULT_MAX_NODE_DEPTH} is not "
                  'recommended because it significantly increases the search time and the '
                  'number of returned paths. If you are searching for paths that exceeds the '
                  f'depth {DEFAULT_MAX_NODE_DEPTH}, consider specifying an intermediate node. '
                  + DETAILS)
        paths = path_search.search(self._model, node_names, depth, self._max_order,
                                   node_filter, communication_filter)
        print(f'A search up to depth {depth} has been completed. If the paths you want to '
              'measure cannot be found, consider specifying intermediate nodes. Also, if the '
              'number of paths is too large, consider filtering node/topic names. ' + DETAILS)
        return paths

    def combine_path(self, path_left, path_right):
        return path_search.combine(self._model, path_left, path_right)

    # ---- edits (the original's) --------------------------------------------------------
    def _edit(self, operation, *args):
        operation(self._state, self._model, *args)
        self._rebuild()

    def update_message_context(self, node_name, context_type, subscribe_topic_name,
                               publish_topic_name):
        self._edit(edit.update_message_context, node_name, context_type,
                   subscribe_topic_name, publish_topic_name)

    def insert_publisher_callback(self, node_name, publish_topic_name, callback_name,
                                  publisher_construction_order):
        try:
            edit.insert_publisher_callback(self._state, self._model, node_name,
                                           publish_topic_name, callback_name,
                                           publisher_construction_order)
        finally:  # what the original changed before it raised stays changed
            self._rebuild()

    def remove_publisher_callback(self, node_name, publish_topic_name, callback_name,
                                  publisher_construction_order):
        self._edit(edit.remove_publisher_callback, node_name, publish_topic_name,
                   callback_name, publisher_construction_order)

    def insert_variable_passing(self, node_name, callback_name_write, callback_name_read):
        self._edit(edit.insert_variable_passing, node_name, callback_name_write,
                   callback_name_read)

    def remove_variable_passing(self, node_name, callback_name_write, callback_name_read):
        self._edit(edit.remove_variable_passing, node_name, callback_name_write,
                   callback_name_read)

    # ---- renames: the records stay under the trace's names ----------------------------
    def _renamed(self, src, dst):
        self._trace_names[dst] = self._trace_names.pop(src, src)
        self._rebuild()

    def rename_node(self, src, dst):
        """A name no node has: nothing happens (as the original)."""
        if src in self.node_names:
            edit.rename_node(self._state, src, dst)
            self._renamed(src, dst)

    def rename_topic(self, src, dst):
        """A name no topic has: nothing happens (as the original)."""
        if src in self.topic_names:
            edit.rename_topic(self._state, src, dst)
            self._renamed(src, dst)

    def rename_callback(self, src, dst):
        edit.rename_callback(self._state, self._model, src, dst)
        self._renamed(src, dst)

    def rename_executor(self, src, dst):
        edit.rename_executor(self._state, src, dst)
        self._rebuild()

    def rename_path(self, src, dst):
        edit.rename_path(self._state, src, dst)
        self._rebuild()

    def _trace_name(self, name):
        return self._trace_names.get(name, name)

    # ---- comparisons ------------------------------------------------------------------
    @staticmethod
    def _diff(left, right):
        left, right = set(left), set(right)
        return tuple(left - right), tuple(right - left)

    @staticmethod
    def diff_node_names(left_arch, right_arch):
        return Architecture._diff(left_arch.node_names, right_arch.node_names)

    @staticmethod
    def diff_topic_names(left_arch, right_arch):
        return Architecture._diff(left_arch.topic_names, right_arch.topic_names)

    @staticmethod
    def diff_node_pubs(left_node, right_node):
        return DiffNode(left_node, right_node).diff_node_pubs()

    @staticmethod
    def diff_node_subs(left_node, right_node):
        return DiffNode(left_node, right_node).diff_node_subs()

    # ---- the file --------------------------------------------------------------------------
    def export(self, file_path, force=False):
        """The original's file, mode 'x' (FileExistsError) unless force."""
        with open(expand(file_path), 'w' if force else 'x') as f:
            f.write(architecture_file.export_text(self._model))

    def copy(self):
        """Another architecture over the same trace, its state copied."""
        other = Architecture.__new__(Architecture)
        other.__dict__.update(self.__dict__)
        other._state = copy.deepcopy(self._state)
        other._trace_names = dict(self._trace_names)
        other._rebuild()
        return other


def _node_path_key(p):
    return (p.publish_topic_name, p.subscribe_topic_name, p.publisher_construction_order,
            p.subscription_construction_order)
