"""Frequency: the original's caret_analyze.record.Frequency."""
import math

import numpy

from .period import target_times
from .records import Records, converted, int64_column


class Frequency:
    """Frequency(records, target_column=None, row_filter=None): how many
    times of the column (the first by default) fall in each interval."""

    def __init__(self, records, target_column=None, row_filter=None):
        self._column, self._times = target_times(records, target_column, row_filter)

    def to_records(self, interval_ns=1000000000, base_timestamp=None, until_timestamp=None,
                   converter=None):
        """Columns: the target column (each interval's start) and
        'frequency'. Intervals from base_timestamp (the first time by
        default) to until_timestamp (the last), both inclusive; none at
        all but one of 0 when no time is in that range; no record when the
        column has no time."""
        columns = [self._column, 'frequency']
        if not len(self._times):
            return Records(columns)
        base = int(self._times[0]) if base_timestamp is None else base_timestamp
        until = int(self._times[-1]) if until_timestamp is None else until_timestamp
        times = self._times
        if converter is not None:
            base, until = round(converter.convert(base)), round(converter.convert(until))
            times = converted(times, converter)
        times = times[(times >= base) & (times <= until)]
        if not len(times):
            return Records(columns, [int64_column([base]), int64_column([0])])
        counts = numpy.bincount((times - base) // interval_ns)
        expected = int(math.ceil((until - base) / interval_ns))
        if expected > len(counts):
            counts = numpy.concatenate([counts, numpy.zeros(expected - len(counts), counts.dtype)])
        starts = numpy.arange(len(counts), dtype=numpy.int64) * interval_ns + base
        return Records(columns, [int64_column(starts), int64_column(counts)])
