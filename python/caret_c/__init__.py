"""caret_c: caret_analyze's Lttng, Architecture and Application over
libcaret-analyze (caret-c's analyzer, through its public C API), with the
original's DataFrames and exceptions (docs/python.md)."""
from ._lib import library_path
from .application import Application
from .architecture import Architecture, DEFAULT_MAX_CALLBACK_CONSTRUCTION_ORDER_ON_PATH_SEARCHING
from .check_procedure import check_procedure
from .exceptions import CaretError, CompatibilityWarning
from .lttng import Lttng, LttngEventFilter
from .value_objects import PathStructValue
from . import exceptions, record, value_objects

__all__ = ['Application', 'Architecture', 'CaretError', 'CompatibilityWarning',
           'DEFAULT_MAX_CALLBACK_CONSTRUCTION_ORDER_ON_PATH_SEARCHING', 'Lttng',
           'LttngEventFilter', 'PathStructValue', 'check_procedure', 'exceptions',
           'library_path', 'record', 'value_objects']
__version__ = '0.1.0'
