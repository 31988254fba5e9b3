"""caret_c: caret_analyze's Lttng, Architecture and Application over
libcaret-analyze (caret-c's analyzer, through its public C API), with the
original's DataFrames (docs/python.md)."""
from ._lib import CaretError, library_path
from .application import Application
from .architecture import Architecture, PathStructValue
from .lttng import Lttng, LttngEventFilter
from . import record

__all__ = ['Application', 'Architecture', 'CaretError', 'Lttng', 'LttngEventFilter',
           'PathStructValue', 'library_path', 'record']
__version__ = '0.1.0'
