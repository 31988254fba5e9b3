"""libcaret-analyze.so.0 through ctypes: finding it, its structs, its
errors. The one module that knows the C API's layout (caret/analyze.h,
CARET_ANALYZE_API_VERSION 3)."""
import ctypes
import ctypes.util
import os
import sys

import numpy

from .exceptions import CaretError, from_status  # noqa: F401 (CaretError: here before)

API_VERSION = 3
SONAME = 'libcaret-analyze.so.0'


def _candidates():
    """Where the library may be, in order: the variable, the build tree
    this package sits in, next to an installed package (PREFIX/lib), the
    loader's own search (ldconfig), the prefixes."""
    env = os.environ.get('CARET_ANALYZE_LIBRARY')
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, '..', '..', 'build', 'lib', SONAME)
    try:  # written by make install: the library's place relative to this one
        from ._installed import LIBRARY_RELATIVE
        yield os.path.join(here, LIBRARY_RELATIVE)
    except ImportError:
        pass
    found = ctypes.util.find_library('caret-analyze')
    if found:
        yield found
    for prefix in (sys.prefix, '/usr/local', '/usr'):
        yield os.path.join(prefix, 'lib', SONAME)
    yield SONAME


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f'{path} ({e})')
            continue
        if lib.caret_analyze_api_version() != API_VERSION:
            tried.append(f'{path} (API version {lib.caret_analyze_api_version()}, '
                         f'not {API_VERSION})')
            continue
        return lib, path
    raise ImportError('caret_c: cannot find libcaret-analyze.so.0 (API version '
                      f'{API_VERSION}); set CARET_ANALYZE_LIBRARY. Tried: ' + '; '.join(tried))


# ---- structs (caret/analyze.h, caret/error.h) ------------------------------
c_size = ctypes.c_size_t
c_str = ctypes.c_char_p
u64, i64 = ctypes.c_uint64, ctypes.c_int64


class OpenOptions(ctypes.Structure):
    _fields_ = [('reader', ctypes.c_int), ('since', ctypes.c_double), ('until', ctypes.c_double),
                ('strip_start', ctypes.c_double), ('strip_end', ctypes.c_double),
                ('keep_events', ctypes.c_bool), ('merge', ctypes.c_bool),
                ('lazy', ctypes.c_bool)]  # v3


class Summary(ctypes.Structure):
    _fields_ = [('events', u64), ('other_events', u64), ('discarded', u64), ('first_ns', u64),
                ('last_ns', u64), ('processes', c_size), ('nodes', c_size),
                ('callbacks', c_size), ('communications', c_size), ('reader_note', c_str),
                ('epoch_offset_ns', i64), ('read_first_ns', u64), ('read_last_ns', u64),  # v3
                ('rcl_publish_recorded', ctypes.c_bool), ('dds_write_recorded', ctypes.c_bool)]


class Callback(ctypes.Structure):
    _fields_ = [('id', c_size), ('name', c_str), ('node', c_str), ('type', ctypes.c_int),
                ('symbol', c_str), ('topic', c_str), ('period_ns', i64), ('pid', i64)]


class Communication(ctypes.Structure):
    _fields_ = [('id', c_size), ('topic', c_str), ('publisher_node', c_str),
                ('subscription_node', c_str), ('callback', c_size), ('callback_name', c_str)]


class Path(ctypes.Structure):
    _fields_ = [('n_nodes', c_size), ('nodes', ctypes.POINTER(c_str)),
                ('topics', ctypes.POINTER(c_str)), ('policies', ctypes.POINTER(ctypes.c_int))]


class ErrorCause(ctypes.Structure):
    _fields_ = [('status', ctypes.c_int), ('message', c_str), ('file', c_str), ('offset', i64),
                ('event', c_str)]


# the record arrays, as numpy sees them (C's layout: align=True)
RUN = numpy.dtype({'names': ['start', 'end', 'pid', 'tid'],
                   'formats': ['u8', 'u8', 'i8', 'i8']}, align=True)
MESSAGE = numpy.dtype({'names': ['rclcpp_publish', 'rcl_publish', 'dds_write', 'source_timestamp',
                                 'take', 'callback_start', 'intra'],
                       'formats': ['u8'] * 6 + ['?']}, align=True)
SPLIT = numpy.dtype({'names': ['rclcpp_publish', 'source_timestamp', 'callback_start',
                              'publish_to_write', 'write_to_reception', 'reception_to_callback',
                              'split'],
                    'formats': ['u8'] * 3 + ['i8'] * 3 + ['?']}, align=True)
PATH_MESSAGE = numpy.dtype({'names': ['callback_start', 'publish', 'last_start', 'last_end'],
                            'formats': ['u8'] * 4}, align=True)
CHAIN = numpy.dtype({'names': ['callback_start', 'publish'], 'formats': ['u8', 'u8']},
                    align=True)
NODE_RECORD = numpy.dtype({'names': ['callback_start', 'source_timestamp', 'publish'],
                          'formats': ['u8'] * 3}, align=True)

class PathTopic(ctypes.Structure):
    _fields_ = [('intra', ctypes.c_bool), ('inter', ctypes.c_bool)]


POLICY_DEFAULT, USE_LATEST_MESSAGE, CALLBACK_CHAIN, INHERIT_UNIQUE_STAMP, CONSUME_LATEST_MESSAGE = \
    -1, 0, 1, 2, 3
READERS = {'native': 0, 'babeltrace2': 1}
CALLBACK_TYPES = {0: 'timer_callback', 1: 'subscription_callback', 2: 'service_callback'}

lib, library_path = _load()
P = ctypes.POINTER
err_p = P(ctypes.c_void_p)


def _sig(name, res, *args):
    f = getattr(lib, name)
    f.restype, f.argtypes = res, list(args)


_sig('caret_open_defaults', OpenOptions)
_sig('caret_open', ctypes.c_int, P(c_str), c_size, P(OpenOptions), P(ctypes.c_void_p), err_p)
_sig('caret_trace_free', None, ctypes.c_void_p)
_sig('caret_trace_summary', None, ctypes.c_void_p, P(Summary))
_sig('caret_iter_free', None, ctypes.c_void_p)
_sig('caret_callbacks', ctypes.c_void_p, ctypes.c_void_p)
_sig('caret_next_callback', ctypes.c_bool, ctypes.c_void_p, P(Callback))
_sig('caret_communications', ctypes.c_void_p, ctypes.c_void_p)
_sig('caret_next_communication', ctypes.c_bool, ctypes.c_void_p, P(Communication))
_sig('caret_search_paths', ctypes.c_void_p, ctypes.c_void_p, c_str, c_str, c_size, err_p)
_sig('caret_next_path', ctypes.c_bool, ctypes.c_void_p, P(Path))
_sig('caret_callback_runs', ctypes.c_int, ctypes.c_void_p, c_size, P(ctypes.c_void_p),
     P(c_size), err_p)
_sig('caret_communication_messages', ctypes.c_int, ctypes.c_void_p, c_size, P(ctypes.c_void_p),
     P(c_size), err_p)
_sig('caret_communication_records', ctypes.c_int, ctypes.c_void_p, c_size, P(ctypes.c_void_p),
     P(c_size), err_p)
_sig('caret_publisher_records', ctypes.c_int, ctypes.c_void_p, c_str, c_str, P(ctypes.c_void_p),
     P(c_size), err_p)
_sig('caret_communication_splits', ctypes.c_int, ctypes.c_void_p, c_size, P(ctypes.c_void_p),
     P(c_size), err_p)
_sig('caret_communication_intra', ctypes.c_int, ctypes.c_void_p, c_size, P(ctypes.c_bool),
     err_p)
_sig('caret_follow_path', ctypes.c_int, ctypes.c_void_p, P(Path), ctypes.c_int,
     P(ctypes.c_void_p), err_p)
_sig('caret_path_latency_messages', c_size, ctypes.c_void_p, P(ctypes.c_void_p),
     P(ctypes.c_void_p), P(c_size))
_sig('caret_path_latency_stamps', c_size, ctypes.c_void_p, P(ctypes.c_void_p), P(c_size))
_sig('caret_path_latency_column', ctypes.c_bool, ctypes.c_void_p, c_size, ctypes.c_void_p)
_sig('caret_path_latency_topic', ctypes.c_bool, ctypes.c_void_p, c_size, P(PathTopic))
_sig('caret_path_latency_free', None, ctypes.c_void_p)
_sig('caret_path_response_times', ctypes.c_int, ctypes.c_void_p, ctypes.c_bool, ctypes.c_bool,
     ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, P(c_size), err_p)
_sig('caret_callback_chain', ctypes.c_int, ctypes.c_void_p, c_size, c_str, P(ctypes.c_void_p),
     P(c_size), err_p)
_sig('caret_node_path_records', ctypes.c_int, ctypes.c_void_p, c_size, c_str, ctypes.c_int,
     P(ctypes.c_void_p), P(c_size), err_p)
_sig('caret_free', None, ctypes.c_void_p)
_sig('caret_write_architecture', ctypes.c_int, ctypes.c_void_p, c_str, ctypes.c_bool, err_p)
_sig('caret_check_architecture', ctypes.c_int, c_str, err_p)
_sig('caret_architecture_path', ctypes.c_void_p, c_str, c_str, err_p)
_sig('caret_status_name', c_str, ctypes.c_int)
_sig('caret_error_status', ctypes.c_int, ctypes.c_void_p)
_sig('caret_error_cause_count', c_size, ctypes.c_void_p)
_sig('caret_error_cause_at', P(ErrorCause), ctypes.c_void_p, c_size)
_sig('caret_error_message', c_str, ctypes.c_void_p)
_sig('caret_error_free', None, ctypes.c_void_p)


def text(b):
    return None if b is None else b.decode('utf-8', 'replace')


def raise_error(error, reading='analysis'):
    """Turns a caret_error (freed here) into the original's exception for
    it (exceptions.from_status), a CaretError."""
    if not error:
        raise CaretError('unknown failure')
    try:
        causes = []
        for i in range(lib.caret_error_cause_count(error)):
            c = lib.caret_error_cause_at(error, i).contents
            causes.append({'status': text(lib.caret_status_name(c.status)),
                           'message': text(c.message), 'file': text(c.file),
                           'offset': c.offset, 'event': text(c.event)})
        status = text(lib.caret_status_name(lib.caret_error_status(error)))
        message = text(lib.caret_error_message(error))
    finally:
        lib.caret_error_free(error)
    raise from_status(status, message, causes, reading)


def check(status, error, reading='analysis'):
    if status != 0:
        raise_error(error.value, reading)


def array(pointer, n, dtype):
    """n records of dtype at pointer, copied once into numpy."""
    if not n or not pointer:
        return numpy.zeros(0, dtype)
    raw = (ctypes.c_char * (n * dtype.itemsize)).from_address(pointer)
    return numpy.frombuffer(raw, dtype=dtype).copy()


def records(function, dtype, *args, owned=False):
    """Calls a caret_X(..., &records, &n, &error) of the C API and returns
    its records copied into numpy; owned: the array is the caller's, freed
    here once copied (caret_free)."""
    ptr, n, error = ctypes.c_void_p(), ctypes.c_size_t(), ctypes.c_void_p()
    check(function(*args, ctypes.byref(ptr), ctypes.byref(n), ctypes.byref(error)), error)
    try:
        return array(ptr.value, n.value, dtype)
    finally:
        if owned:
            lib.caret_free(ptr.value)


def strings(values):
    arr = (c_str * (len(values) + 1))(*[v.encode() for v in values], None)
    return arr
