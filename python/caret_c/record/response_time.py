"""ResponseTime: the original's four response-time cases of a path's
records (caret_analyze.record.ResponseTime), computed by libcaret-analyze."""
import pandas

from . import frames
from .application import PathRecords


class _Records:
    def __init__(self, column, inputs, times, offset):
        self._column, self._inputs, self._times = column, inputs, times
        self._offset = offset

    def to_dataframe(self):
        df = frames.frame([self._column], [self._inputs], self._offset)
        # durations: 0 is a value here, not a missing time
        df['response_time'] = pandas.array(self._times, dtype='Int64')
        return df


class ResponseTime:
    """ResponseTime(path.to_records()): inputs from the path's first column,
    responses to its last."""

    def __init__(self, records, *, columns=None):
        if not isinstance(records, PathRecords):
            raise TypeError('caret_c.record.ResponseTime takes a Path.to_records()')
        if columns is not None:
            raise NotImplementedError('columns: caret_c takes the first and last of the path')
        self._records = records

    def _case(self, case):
        path = self._records.path
        inputs, times = path._followed().response_times(case, self._records.first,
                                                       self._records.last)
        column = self._records.columns[0]
        return _Records(column, inputs, times, path._app.epoch_offset)

    def to_all_records(self):
        return self._case('all')

    def to_best_case_records(self):
        return self._case('best')

    def to_worst_case_records(self):
        return self._case('worst')

    def to_worst_with_external_latency_case_records(self):
        return self._case('worst_with_external_latency')
