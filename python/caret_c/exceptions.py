"""The original's exceptions (caret_analyze.exceptions), each also a
CaretError: a notebook that catches caret_analyze's classes catches these
under the same names, and code written for caret_c's CaretError (status,
causes) keeps working. Failures of the C library become the class the
original raises for the same input (from_status)."""


class CaretError(Exception):
    """A failure of caret_c or of libcaret-analyze: `status` ('format',
    'i/o', 'not found', ...), the message, and `causes`, outermost first,
    each a dict of status, message, file, offset (-1: unknown) and event
    (empty where Python found the fault itself)."""

    def __init__(self, message, status='invalid', causes=()):
        super().__init__(message)
        self.status, self.causes = status, list(causes)


class Error(CaretError):
    """The original's base class: catch it for any CARET error."""

    STATUS = 'invalid'

    def __init__(self, message='', status=None, causes=()):
        super().__init__(message, status or self.STATUS, causes)
        self.message = message


class TraceResultAnalyzeError(Error):
    pass


class InvalidYamlFormatError(Error):
    STATUS = 'format'


class InvalidTraceFormatError(Error):
    STATUS = 'format'


class InvalidReaderError(Error):
    pass


class ItemNotFoundError(Error):
    STATUS = 'not found'


class MultipleItemFoundError(Error):
    pass


class InvalidArgumentError(Error):
    pass


class UnsupportedTypeError(Error):
    STATUS = 'unsupported'


class InvalidRecordsError(Error):
    pass


class UnsupportedNodeRecordsError(Error):
    STATUS = 'unsupported'


class CompatibilityWarning(UserWarning):
    """Where caret_c goes on and the original does otherwise (a path
    through a node whose message context is undefined): said once."""


# Python's own classes where the original lets them through (a missing
# trace directory or file, an unreadable one, memory), with CaretError's
# status and causes too
class CaretFileNotFoundError(CaretError, FileNotFoundError):
    pass


class CaretOSError(CaretError, OSError):
    pass


class CaretMemoryError(CaretError, MemoryError):
    pass


# the C library's status -> the class, by what was being read
_BY_STATUS = {
    'trace': {'format': InvalidTraceFormatError, 'unsupported': InvalidTraceFormatError,
              'empty': InvalidTraceFormatError, 'not found': CaretFileNotFoundError},
    'architecture': {'format': InvalidYamlFormatError, 'unsupported': InvalidYamlFormatError,
                     'empty': InvalidYamlFormatError, 'not found': CaretFileNotFoundError},
    'analysis': {'not found': ItemNotFoundError, 'format': InvalidTraceFormatError,
                 'unsupported': UnsupportedTypeError, 'empty': InvalidRecordsError},
}
_ANY = {'invalid': InvalidArgumentError, 'i/o': CaretOSError, 'no memory': CaretMemoryError}


def from_status(status, message, causes=(), reading='analysis'):
    """The exception for a failure of the C library while reading
    ('trace', 'architecture') or analyzing ('analysis')."""
    cls = _BY_STATUS[reading].get(status) or _ANY.get(status, Error)
    return cls(message, status, causes)
