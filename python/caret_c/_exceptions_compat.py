"""The original's exception classes for the plots and records helpers:
caret_c.exceptions' own once that module is there, else the same names
over CaretError (so `except CaretError` catches them either way)."""
try:
    from .exceptions import (InvalidArgumentError, InvalidRecordsError,  # noqa: F401
                             ItemNotFoundError, UnsupportedTypeError)
except ImportError:
    from ._lib import CaretError

    class InvalidArgumentError(CaretError):
        pass

    class UnsupportedTypeError(CaretError):
        pass

    class ItemNotFoundError(CaretError):
        def __init__(self, message):
            super().__init__(message, 'not found')

    class InvalidRecordsError(CaretError):
        pass
