"""Period: the original's caret_analyze.record.Period."""
import numpy

from .records import Records, converted, frame_of, int64_column, rows, values_and_mask


def target_times(records, target_column, row_filter):
    """(column name, its times in record order, the missing ones and the
    rows row_filter refuses left out)."""
    frame = frame_of(records)
    column = target_column or frame.columns[0]
    values, missing = values_and_mask(frame[column])
    keep = ~missing
    if row_filter is not None:
        keep &= numpy.fromiter((bool(row_filter(r)) for r in rows(frame)), bool, len(frame))
    return column, values[keep]


class Period:
    """Period(records, target_column=None, row_filter=None): between each
    time of the column (the first by default) and the next, stamped at the
    earlier one: N - 1 records for N times, in record order."""

    def __init__(self, records, target_column=None, row_filter=None):
        self._column, self._times = target_times(records, target_column, row_filter)

    def to_records(self, converter=None):
        """Columns: the target column and 'period' (ns)."""
        t = self._times
        if converter is None:
            stamps, periods = t[:-1], numpy.diff(t)
        else:
            # the original converts each time and rounds the difference
            sim = [converter.convert(int(v)) for v in t]
            stamps = converted(t[:-1], converter)
            periods = numpy.array([round(b - a) for a, b in zip(sim, sim[1:])], numpy.int64)
        return Records([self._column, 'period'], [int64_column(stamps), int64_column(periods)])
