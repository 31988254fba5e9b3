"""Latency: the original's caret_analyze.record.Latency."""
import warnings

from .records import Records, converted, frame_of, int64_column, values_and_mask


class Latency:
    """Latency(records, start_column=None, end_column=None): for each record
    with both times (first and last column by default), end - start; a
    negative one is left out with a warning, as the original."""

    def __init__(self, records, start_column=None, end_column=None):
        frame = frame_of(records)
        self._start_column = start_column or frame.columns[0]
        self._end_column = end_column or frame.columns[-1]
        start, start_missing = values_and_mask(frame[self._start_column])
        end, end_missing = values_and_mask(frame[self._end_column])
        both = ~start_missing & ~end_missing
        self._start, self._latency = start[both], end[both] - start[both]

    def to_records(self, converter=None):
        """Columns: the start column and 'latency' (ns)."""
        keep = self._latency >= 0
        if not keep.all():
            warnings.warn('Record data is invalid. The end time of the callback or '
                          'communication is recorded before the start time.', UserWarning)
        start = converted(self._start[keep], converter)
        return Records([self._start_column, 'latency'],
                       [int64_column(start), int64_column(self._latency[keep])])
