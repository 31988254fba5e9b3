"""Lttng: a trace opened by libcaret-analyze (caret_open), with the
original's time windows (LttngEventFilter's duration and strip filters,
the CLI's --since/--until and --strip-start/--strip-end)."""
import ctypes
import datetime
import math
import os
import weakref

from . import _lib
from ._lib import lib
from .common import expand
from .exceptions import (CaretFileNotFoundError, InvalidArgumentError, InvalidTraceFormatError,
                         UnsupportedTypeError)


class LttngEventFilter:
    """The original's runtime-event windows, in seconds from the trace's
    first event; initialization events always count."""

    def __init__(self, since=math.nan, until=math.nan, strip_start=math.nan,
                 strip_end=math.nan):
        self.since, self.until = since, until
        self.strip_start, self.strip_end = strip_start, strip_end

    @staticmethod
    def duration_filter(duration_s, offset_s):
        return LttngEventFilter(since=offset_s, until=offset_s + duration_s)

    @staticmethod
    def strip_filter(lsplit_s, rsplit_s):
        return LttngEventFilter(strip_start=math.nan if lsplit_s is None else lsplit_s,
                                strip_end=math.nan if rsplit_s is None else rsplit_s)

    @staticmethod
    def init_pass_filter():
        return LttngEventFilter()  # caret-c always keeps initialization events


class Lttng:
    """Lttng(trace_dir, force_conversion=False, *, event_filters=None,
    store_events=False, validate=True, reader='native', merge=False).
    force_conversion and validate are accepted and ignored: caret-c keeps no
    cache and analyzes plain ros2_tracing traces too."""

    # the traces open, by directories: Architecture('lttng', same dirs)
    # takes the architecture from one instead of loading the trace again
    # (a window leaves the architecture as it is: initialization counts)
    _open = weakref.WeakValueDictionary()

    @staticmethod
    def _key(dirs, reader='native', merge=False):
        merge = merge or len(dirs) > 1  # several folders: one system, as the original
        return tuple(os.path.realpath(expand(d)) for d in dirs), reader, merge

    @classmethod
    def opened(cls, trace_dir):
        """A live Lttng of these directories (default reader), or None."""
        dirs = trace_dir if isinstance(trace_dir, (list, tuple)) else [trace_dir]
        return cls._open.get(cls._key(dirs))

    @staticmethod
    def _directories(trace_dir_or_events):
        """The trace directories, ~ and $VARS expanded; the original's
        errors for an empty or mixed list; a list of events is not taken."""
        dirs = trace_dir_or_events if isinstance(trace_dir_or_events, (list, tuple)) \
            else [trace_dir_or_events]
        if not dirs:
            raise InvalidArgumentError('trace_dir_or_events should not be an empty list.')
        paths = [isinstance(d, (str, os.PathLike)) for d in dirs]
        if not all(paths):
            if any(paths) or not all(isinstance(d, dict) for d in dirs):
                raise InvalidArgumentError(f'all elements of {trace_dir_or_events} should be '
                                           'the same type.')
            raise UnsupportedTypeError('caret_c reads trace directories, not lists of events')
        return [expand(d) for d in dirs]

    def __init__(self, trace_dir_or_events, force_conversion=False, *, event_filters=None,
                 store_events=False, validate=True, reader='native', merge=False):
        self._handle = None
        self.trace_dirs = self._directories(trace_dir_or_events)
        if reader not in _lib.READERS:
            raise ValueError(f'reader: one of {", ".join(_lib.READERS)}')
        o = lib.caret_open_defaults()
        # several folders are one system (hosts), as the original loads them
        merge = bool(merge) or len(self.trace_dirs) > 1
        o.reader, o.keep_events, o.merge = _lib.READERS[reader], bool(store_events), merge
        # records joined when first asked for: a path's DataFrame needs none
        # (its own pass), a callback's runs a pass that keeps runs alone
        o.lazy = True
        for f in event_filters or []:
            for key in ('since', 'until', 'strip_start', 'strip_end'):
                if not math.isnan(getattr(f, key)):
                    setattr(o, key, getattr(f, key))
        paths = _lib.strings(self.trace_dirs)
        handle, error = ctypes.c_void_p(), ctypes.c_void_p()
        try:
            _lib.check(lib.caret_open(paths, len(self.trace_dirs), ctypes.byref(o),
                                      ctypes.byref(handle), ctypes.byref(error)), error, 'trace')
        except CaretFileNotFoundError as e:
            missing = next((d for d in self.trace_dirs if not os.path.exists(d)), None)
            if missing is None:
                raise
            raise CaretFileNotFoundError(f'Failed to found {missing}', e.status,
                                         e.causes) from None
        except InvalidArgumentError as e:
            if not event_filters:
                raise
            # a window with nothing of the trace in it: the original finds
            # none of its trace points there and refuses the trace so
            raise InvalidTraceFormatError(str(e), e.status, e.causes) from None
        self._handle = handle.value
        self._cache = {}
        Lttng._open[self._key(self.trace_dirs, reader, bool(merge))] = self

    def __del__(self):
        if getattr(self, '_handle', None):
            lib.caret_trace_free(self._handle)
            self._handle = None

    @property
    def handle(self):
        return self._handle

    def summary(self):
        s = _lib.Summary()
        lib.caret_trace_summary(self._handle, ctypes.byref(s))
        return {k: (_lib.text(getattr(s, k)) if k == 'reader_note' else getattr(s, k))
                for k, _ in _lib.Summary._fields_}

    def _datetime(self, key):
        s = self.summary()
        # as the original: the epoch's ns as float seconds, local time
        return datetime.datetime.fromtimestamp((s[key] + s['epoch_offset_ns']) * 1.0e-9)

    def get_trace_range(self):
        """(first, last) event of the trace as datetimes (local time), as
        the original: every event read, whatever the event filters."""
        return self._datetime('read_first_ns'), self._datetime('read_last_ns')

    def get_trace_creation_datetime(self):
        return self._datetime('read_first_ns')

    # ---- what the C library knows, walked once ------------------------------
    def callbacks(self):
        """{name: caret_callback as a dict}, the original's visible ones."""
        if 'callbacks' not in self._cache:
            out, it, cb = {}, lib.caret_callbacks(self._handle), _lib.Callback()
            try:
                while lib.caret_next_callback(it, ctypes.byref(cb)):
                    out[_lib.text(cb.name)] = {
                        'id': cb.id, 'name': _lib.text(cb.name), 'node': _lib.text(cb.node),
                        'type': _lib.CALLBACK_TYPES.get(cb.type), 'topic': _lib.text(cb.topic),
                        'symbol': _lib.text(cb.symbol), 'period_ns': cb.period_ns}
            finally:
                lib.caret_iter_free(it)
            self._cache['callbacks'] = out
        return self._cache['callbacks']

    def communications(self):
        """[(topic, publisher node, subscription node, callback name, id)]."""
        if 'comms' not in self._cache:
            out, it, c = [], lib.caret_communications(self._handle), _lib.Communication()
            try:
                while lib.caret_next_communication(it, ctypes.byref(c)):
                    out.append((_lib.text(c.topic), _lib.text(c.publisher_node),
                                _lib.text(c.subscription_node), _lib.text(c.callback_name), c.id))
            finally:
                lib.caret_iter_free(it)
            self._cache['comms'] = out
        return self._cache['comms']

    def runs(self, callback_id):
        return _lib.records(lib.caret_callback_runs, _lib.RUN, self._handle, callback_id)

    def messages(self, communication_id):
        return _lib.records(lib.caret_communication_messages, _lib.MESSAGE, self._handle,
                            communication_id)

    def communication_records(self, communication_id):
        """Every publish of the communication's publisher, with its handling
        (MESSAGE records; callback_start 0: not handled)."""
        return _lib.records(lib.caret_communication_records, _lib.MESSAGE, self._handle,
                            communication_id, owned=True)

    def publisher_records(self, node, topic):
        """Every publish of node's publishers on topic through the DDS
        (MESSAGE records, handling 0): the original's publisher records."""
        return _lib.records(lib.caret_publisher_records, _lib.MESSAGE, self._handle,
                            node.encode(), topic.encode(), owned=True)

    def communication_splits(self, communication_id):
        """Where each inter-process message handled waited (SPLIT records,
        publish order; split False: not known)."""
        return _lib.records(lib.caret_communication_splits, _lib.SPLIT, self._handle,
                            communication_id, owned=True)

    def communication_intra(self, communication_id):
        """Whether every one of communication_records' intra is set, no
        array made (caret_communication_intra)."""
        intra, error = ctypes.c_bool(), ctypes.c_void_p()
        _lib.check(lib.caret_communication_intra(self._handle, communication_id,
                                                 ctypes.byref(intra), ctypes.byref(error)), error)
        return intra.value

    def callback_chain(self, callback_id, topic):
        return _lib.records(lib.caret_callback_chain, _lib.CHAIN, self._handle, callback_id,
                            topic.encode(), owned=True)

    def node_path_records(self, callback_id, topic, policy):
        """Per run of a subscription callback, its input's source timestamp
        and its node's output under policy (caret_node_path_records)."""
        return _lib.records(lib.caret_node_path_records, _lib.NODE_RECORD, self._handle,
                            callback_id, topic.encode(), policy, owned=True)

    def follow(self, nodes, topics, policies=None, policy=_lib.CALLBACK_CHAIN):
        """A path followed (caret_follow_path), kept as a FollowedPath."""
        path = _lib.Path(len(nodes), _lib.strings(nodes), _lib.strings(topics), None)
        keep = [path.nodes, path.topics]
        if policies is not None:
            pol = (ctypes.c_int * len(nodes))(*policies)
            keep.append(pol)
            path.policies = ctypes.cast(pol, ctypes.POINTER(ctypes.c_int))
        handle, error = ctypes.c_void_p(), ctypes.c_void_p()
        _lib.check(lib.caret_follow_path(self._handle, ctypes.byref(path), policy,
                                         ctypes.byref(handle), ctypes.byref(error)), error)
        return FollowedPath(self, handle.value)

    def search_paths(self, src, dst, max_depth=0):
        """[(nodes, topics)] from node src to node dst, shortest first."""
        error = ctypes.c_void_p()
        it = lib.caret_search_paths(self._handle, src.encode(), dst.encode(), max_depth,
                                    ctypes.byref(error))
        if not it:
            _lib.raise_error(error.value)
        out, p = [], _lib.Path()
        try:
            while lib.caret_next_path(it, ctypes.byref(p)):
                out.append(([_lib.text(p.nodes[i]) for i in range(p.n_nodes)],
                            [_lib.text(p.topics[i]) for i in range(p.n_nodes - 1)]))
        finally:
            lib.caret_iter_free(it)
        return out

    def write_architecture(self, file, all=False):
        error = ctypes.c_void_p()
        _lib.check(lib.caret_write_architecture(self._handle, expand(file).encode(), all,
                                                ctypes.byref(error)), error)


class FollowedPath:
    """A followed path (caret_path_latency): its messages, the times of
    each stage along it a column at a time (caret_path_latency_stamps'
    layout), what it saw on each topic, and its response times. Keeps its
    trace alive."""

    CASES = {'all': 0, 'best': 1, 'worst': 2, 'worst_with_external_latency': 3}

    def __init__(self, lttng, handle):
        self._lttng, self._handle = lttng, handle
        m, hops, hop_count = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_size_t()
        self.n = lib.caret_path_latency_messages(handle, ctypes.byref(m), ctypes.byref(hops),
                                                 ctypes.byref(hop_count))
        self.messages = _lib.array(m.value, self.n, _lib.PATH_MESSAGE)

    def column(self, index):
        """Stage `index` of every message (uint64, 0: not there), made now."""
        out = _lib.numpy.zeros(self.n + 1, _lib.numpy.uint64)
        if not lib.caret_path_latency_column(self._handle, index,
                                             out.ctypes.data_as(ctypes.c_void_p)):
            raise IndexError(f'the path has no column {index}')
        return out[:self.n]

    def topic(self, index):
        """(a message delivered within its process, a publish through the
        DDS) on the path's topic `index`."""
        seen = _lib.PathTopic()
        lib.caret_path_latency_topic(self._handle, index, ctypes.byref(seen))
        return seen.intra, seen.inter

    def __del__(self):
        if getattr(self, '_handle', None):
            lib.caret_path_latency_free(self._handle)
            self._handle = None

    def response_times(self, case, first_callback, last_callback):
        """(inputs uint64, times int64) of one of CASES."""
        np = _lib.numpy
        inputs, times = np.zeros(self.n + 1, np.uint64), np.zeros(self.n + 1, np.int64)
        n, error = ctypes.c_size_t(), ctypes.c_void_p()
        _lib.check(lib.caret_path_response_times(
            self._handle, first_callback, last_callback, self.CASES[case],
            inputs.ctypes.data_as(ctypes.c_void_p), times.ctypes.data_as(ctypes.c_void_p),
            ctypes.byref(n), ctypes.byref(error)), error)
        return inputs[:n.value], times[:n.value]
