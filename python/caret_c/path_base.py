"""What every measured object shares with the original's PathBase: its
DataFrame under the original's options (dropped messages removed or
counted as delay, seconds stripped from either end, a shaper), its
column names, its latencies as a time series and as a histogram.

A subclass gives _frame(): its whole DataFrame, one Int64 column per
stage (<NA>: the message did not get there)."""
import math

import numpy
import pandas

from .exceptions import InvalidRecordsError


class FrameRecords:
    """An object's records (to_records()): the DataFrame and its columns."""

    def __init__(self, frame):
        self._frame = frame

    @property
    def columns(self):
        return list(self._frame.columns)

    def to_dataframe(self):
        return self._frame.copy()

    def __len__(self):
        return len(self._frame)


def drop_as_delay(df):
    """The original's treat_drop_as_delay: rows ordered by their stages
    (a missing one after every time), each missing stage taking the next
    row's, and ordered again."""
    if not len(df.columns) or not len(df):
        return df
    big = numpy.iinfo(numpy.int64).max
    ordered = df.fillna(big).sort_values(list(df.columns), kind='stable').index
    out = df.loc[ordered].bfill().reset_index(drop=True)
    keys = out.fillna(big)
    return out.loc[keys.sort_values(list(keys.columns), kind='stable').index] \
        .reset_index(drop=True)


def strip(df, lstrip_s, rstrip_s):
    """Rows whose first stage is within lstrip_s of the first row's and
    rstrip_s of the last row's (the original's Strip)."""
    if not len(df.columns) or not len(df):
        return df
    first = df.columns[0]
    lo, hi = df.at[0, first] + lstrip_s * 1.0e9, df.at[len(df) - 1, first] - rstrip_s * 1.0e9
    return df[(df[first] >= lo) & (df[first] <= hi)].reset_index(drop=True)


class PathBase:
    def _frame(self):
        raise NotImplementedError

    def to_records(self):
        return FrameRecords(self._frame())

    @property
    def column_names(self):
        return list(self._frame().columns)

    def to_dataframe(self, remove_dropped=False, treat_drop_as_delay=False, lstrip_s=0,
                     rstrip_s=0, *, shaper=None):
        df = self._frame()
        if treat_drop_as_delay and not remove_dropped:
            df = drop_as_delay(df)
        if lstrip_s > 0 or rstrip_s > 0:
            df = strip(df, lstrip_s, rstrip_s)
        if shaper is not None:
            df = shaper.execute(df)
        if remove_dropped:
            df = df.dropna()  # the index keeps its gaps, as the original's
        return df

    def to_timeseries(self, remove_dropped=False, treat_drop_as_delay=False, lstrip_s=0,
                      rstrip_s=0, *, shaper=None):
        """(t, latency): the first stage's times and the last's minus the
        first's, ns; object arrays (pandas' values, <NA> kept) unless
        remove_dropped."""
        df = self.to_dataframe(remove_dropped, treat_drop_as_delay, lstrip_s, rstrip_s,
                               shaper=shaper)
        if len(df.columns) == 0:
            raise InvalidRecordsError('Failed to calculate time series latency.There is a '
                                      'possibility that records are dummy data.')
        if len(df) == 0:
            raise InvalidRecordsError('Failed to find any records that went through the '
                                      'path.There is a possibility that all records are lost.')
        t = numpy.array(df.iloc[:, 0].values)
        latency = numpy.array(df.iloc[:, -1].values) - t
        if remove_dropped:
            return t.astype('int64'), latency.astype('int64')
        return t, latency

    def to_histogram(self, binsize_ns=1000000, treat_drop_as_delay=False, lstrip_s=0,
                     rstrip_s=0, *, shaper=None):
        """numpy.histogram of the latencies in bins of binsize_ns, from the
        bin below the least to the bin above the greatest: (counts, edges)."""
        _, latency = self.to_timeseries(not treat_drop_as_delay, treat_drop_as_delay,
                                        lstrip_s, rstrip_s, shaper=shaper)
        latency = latency[[not pandas.isnull(x) for x in latency]]
        lo = math.floor(min(latency) / binsize_ns) * binsize_ns
        hi = math.ceil(max(latency) / binsize_ns) * binsize_ns
        return numpy.histogram(latency, bins=math.ceil((hi - lo) / binsize_ns), range=(lo, hi))
