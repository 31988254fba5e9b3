"""Path: a named path over the trace (the original's runtime Path), its
messages followed by libcaret-analyze (caret_follow_path) under each
node's message context, its DataFrame the original's columns.

A node inside the path whose message context the original leaves
undefined (no context, or a callback chain with no callback) ends the
original's DataFrame there ("Detected dummy_records before merging
end_records. merge terminated."). caret_c follows such a node under
Application's undefined_message_context ('use_latest_message' by default,
as `caret path latency` follows a node no context names: every output
while the input is the latest) and says so once per node with a
CompatibilityWarning; undefined_message_context='stop' gives the
original's shorter DataFrame."""
import logging
import warnings

from . import _lib, frames
from .common import find_one
from .exceptions import CompatibilityWarning, InvalidArgumentError
from .node_path import POLICIES, NodePath, chain_problem
from .path_base import PathBase

logger = logging.getLogger(__name__)
UNDEFINED_POLICIES = ('use_latest_message', 'consume_latest_message', 'callback_chain', 'stop')


class Path(PathBase):
    def __init__(self, app, value, child):
        self._app, self._val, self._child = app, value, list(child)
        self.include_first_callback = False
        self.include_last_callback = False

    value = property(lambda self: self._val)
    summary = property(lambda self: self._val.summary)
    path_name = property(lambda self: self._val.path_name)
    child = property(lambda self: self._child)
    node_names = property(lambda self: sorted(self._val.node_names))
    topic_names = property(lambda self: sorted(self._val.topic_names))
    child_names = property(lambda self: sorted(self._val.child_names))

    @property
    def node_paths(self):
        return [c for c in self._child if isinstance(c, NodePath)]

    @property
    def communications(self):
        return [c for c in self._child if not isinstance(c, NodePath)]

    @property
    def callbacks(self):
        out = [c for comm in self.communications for c in comm.publish_node.callbacks or ()]
        return out + list(self.communications[-1].subscribe_node.callbacks or ())

    @property
    def callback_chain(self):
        """The callbacks of the path's node paths, in path order."""
        return [self._app.get_callback(c.callback_name) for np in self._val.node_paths
                for c in np.callbacks or ()]

    def __repr__(self):
        return f'Path({self.path_name!r}: {" -> ".join(self._val.node_names)})'

    def __str__(self):
        return '\n'.join(self._val.node_names)

    def verify(self):
        valid = True
        for np in self.node_paths[1:-1]:
            if np.message_context is not None:
                continue
            logger.warning(
                'Detected invalid message context. Correct these node_path definitions. \n'
                f"To see node definition,execute [ app.get_node('{np.node_name}')"
                f'.summary.pprint() ] \n{np.summary}')
            valid = False
        for comm in self.communications:
            valid &= comm.verify()
        return valid

    def get_child(self, name):
        """The node path of node name, or the communication of topic name."""
        if not isinstance(name, str):
            raise InvalidArgumentError('Argument type is invalid.')
        return find_one(lambda c: (c.node_name if isinstance(c, NodePath) else c.topic_name)
                        == name, self._child)

    def clear_cache(self):
        self._app._followed.clear()

    def to_records(self):
        """What ResponseTime takes: this path under its current flags."""
        return PathRecords(self, self.include_first_callback, self.include_last_callback)

    # ---- how each node is followed --------------------------------------------------
    def _plan(self):
        """Each node's policy for the C library, and the index of the node
        where the original stops (None: it does not, or caret_c goes on)."""
        nps = self._val.node_paths
        policies = [_lib.POLICY_DEFAULT] * len(nps)
        chosen = self._app.undefined_message_context
        for i, np in enumerate(nps[1:-1], 1):
            policy, why, stops = _policy(np)
            if why is not None:
                if stops and chosen == 'stop':
                    return policies, i
                policy = policy or (chosen if chosen != 'stop' else 'use_latest_message')
                self._tell(np, why, stops, policy)
            policies[i] = POLICIES[policy]
        return policies, None

    def _tell(self, np, why, stops, policy):
        """Once per node of a path: what the original does there, what
        caret_c does instead."""
        key = (self.path_name, np.node_name, why)
        if key in self._app._told:
            return
        self._app._told.add(key)
        original = 'stops the path there ("Detected dummy_records before merging end_records. ' \
            f'merge terminated.": its DataFrame ends at {np.node_name}\'s callback start)' \
            if stops else 'computes this node path otherwise'
        how = {'callback_chain': ' (the output of the callback run that took the input)',
               'use_latest_message': ' (every output while the input is the node\'s latest, '
                                     'as `caret path latency` follows it)',
               'consume_latest_message': ' (the next output while the input is the '
                                         'node\'s latest)'}.get(policy, '')
        stop = " Application(..., undefined_message_context='stop') gives the original's " \
            'DataFrame.' if stops else ''
        warnings.warn(f'path {self.path_name}: node {np.node_name} ({np.subscribe_topic_name} '
                      f'-> {np.publish_topic_name}) has {why}. The original caret_analyze '
                      f'{original}; caret_c follows it as {policy}{how}.{stop}',
                      CompatibilityWarning, stacklevel=4)

    def _followed(self, nodes=None, topics=None, policies=None):
        """The path (or its first nodes) followed by the C library, kept."""
        if nodes is None:
            nodes, topics = self._val.node_names, self._val.topic_names
            policies = self._plan()[0]
        tn = self._app.arch._trace_name
        key = (tuple(nodes), tuple(topics), tuple(policies))
        if key not in self._app._followed:
            self._app._followed[key] = self._app.lttng.follow(
                [tn(n) for n in nodes], [tn(t) for t in topics], list(policies))
        return self._app._followed[key]

    # ---- the DataFrame --------------------------------------------------------------
    def _frame(self):
        policies, stop = self._plan()
        nodes, topics = self._val.node_names, self._val.topic_names
        last = self.include_last_callback
        if stop is not None:
            if last:  # the original's merge of the last callback then fails: no records
                logger.warning(f'path {self.path_name}: stopped at {nodes[stop]}, '
                               'the last callback cannot be merged (as the original)')
                return frames.frame([], [])
            nodes, topics, policies, last = nodes[:stop + 1], topics[:stop], \
                policies[:stop + 1], False
        followed = self._followed(nodes, topics, policies)
        comms = self.communications
        names, columns = [], []
        if self.include_first_callback:
            # the original names the first node's callback callback_x
            names.append(f'{nodes[0]}/callback_x/callback_start_timestamp')
            columns.append(0)
        for k, topic in enumerate(topics):
            base = 1 + 5 * k
            for j, s in enumerate(_stages(*followed.topic(k))):
                names.append(f'{topic}/{s}_timestamp')
                columns.append(base + j)
            cb = comms[k].callback_subscription.callback_name
            names.append(f'{cb}/callback_start_timestamp')
            columns.append(base + 4)
        cb = comms[len(topics) - 1].callback_subscription
        # the original merges the last callback's runs only when it has any
        if last and len(cb.to_numpy()[0]):
            names.append(f'{cb.callback_name}/callback_end_timestamp')
            columns.append(5 * len(topics) + 1)
        # a column at a time from the C library: a large path's frame is
        # not held twice (bench/python)
        df = frames.frame_of(frames.numbered(names),
                             [lambda c=c: followed.column(c) for c in columns],
                             self._app.epoch_offset)
        if not self.include_first_callback and topics and followed.topic(0)[0]:
            # from an intra-process first hop the original's rows are its
            # communication's, the publishes delivered (one the trace ended
            # before is not one)
            delivered = followed.column(5) != 0
            if not delivered.all():
                df = df[delivered].reset_index(drop=True)
        return df


def _stages(intra, inter):
    """A hop's publish stages in the original's path: an intra-process
    communication's rclcpp publish alone; an inter-process one's three,
    unless nothing went through the DDS (an upstream Humble intra-process
    trace: the original's empty records have no rcl and DDS columns)."""
    return ['rclcpp_publish'] if intra or not inter else \
        ['rclcpp_publish', 'rcl_publish', 'dds_write']


def _policy(np):
    """(policy name, why caret_c cannot follow it as the original does,
    whether the original stops the path there): (name, None, False) for a
    context caret_c follows as the original; a stand-in name or None (the
    caller's choice) otherwise."""
    ctx = np.message_context
    if ctx is None:
        return None, 'no message context (UNDEFINED)', True
    if ctx.type_name == 'callback_chain':
        problem = chain_problem(np)
        if problem:
            return None, f'a callback_chain context where {problem}', True
        if len(np.child) > 1:
            return 'use_latest_message', 'a callback chain through a variable passing, ' \
                'which caret_c cannot follow', False
        return 'callback_chain', None, False
    if ctx.type_name in POLICIES:
        return ctx.type_name, None, False
    return None, f'a {ctx.type_name} context, which caret_c cannot follow', False


class PathRecords:
    """A path's records under its flags at the time (Path.to_records)."""

    def __init__(self, path, first, last):
        self.path, self.first, self.last = path, first, last

    def to_dataframe(self):
        keep = self.path.include_first_callback, self.path.include_last_callback
        self.path.include_first_callback, self.path.include_last_callback = self.first, self.last
        try:
            return self.path.to_dataframe()
        finally:
            self.path.include_first_callback, self.path.include_last_callback = keep

    @property
    def columns(self):
        return list(self.to_dataframe().columns)
