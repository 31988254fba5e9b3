"""Records as the original's helpers take and give them, over pandas:
what they take is anything with to_dataframe() (an object's records, the
object itself, Path.to_records()) or a DataFrame; a missing time is <NA>,
the original's record without that column. What they give is Records,
whose to_dataframe() has the original's nullable Int64 columns."""
import numpy
import pandas


def frame_of(records):
    """The DataFrame behind records (not copied: read it, never write)."""
    if isinstance(records, pandas.DataFrame):
        return records
    if hasattr(records, '_frame'):
        return records._frame
    if hasattr(records, 'to_dataframe'):
        return records.to_dataframe()
    raise TypeError(f'records: a DataFrame or an object with to_dataframe(), '
                    f'not {type(records).__name__}')


def values_and_mask(series):
    """An Int64 (or any integer) column as (int64 values, missing mask)."""
    array = pandas.array(series, dtype='Int64')
    return array.to_numpy(dtype=numpy.int64, na_value=0), numpy.asarray(array.isna())


def int64_column(values, missing=None):
    """int64 values (with an optional missing mask) as a pandas Int64 array."""
    v = numpy.asarray(values, dtype=numpy.int64)
    mask = numpy.zeros(len(v), bool) if missing is None else numpy.asarray(missing, bool)
    return pandas.arrays.IntegerArray(v.copy(), mask.copy())


class Row:
    """One record for a row_filter: data ({column: value}, the missing
    columns left out), columns and get(), as the original's record."""

    def __init__(self, data):
        self.data = data

    @property
    def columns(self):
        return set(self.data)

    def get(self, column):
        return self.data[column]


def rows(frame):
    """Each row of a frame as a Row (for row_filter: one Python object per
    row, as the original's filter takes them)."""
    columns = list(frame.columns)
    arrays = [values_and_mask(frame[c]) for c in columns]
    for i in range(len(frame)):
        yield Row({c: int(v[i]) for c, (v, m) in zip(columns, arrays) if not m[i]})


class Records:
    """Columns of Int64 times (or durations): the original's records of a
    helper, with its to_dataframe() and columns."""

    def __init__(self, columns, arrays=None):
        arrays = arrays if arrays is not None else [int64_column([]) for _ in columns]
        self._frame = pandas.DataFrame({c: a for c, a in zip(columns, arrays)}) \
            if columns else pandas.DataFrame()

    @property
    def columns(self):
        return list(self._frame.columns)

    def __len__(self):
        return len(self._frame)

    def get_column_series(self, column):
        """The column as a list, None where missing (the original's)."""
        return [None if pandas.isna(v) else int(v) for v in self._frame[column]]

    def to_dataframe(self):
        return self._frame.copy()


def converted(values, converter):
    """Times through a clock converter (sim time), rounded as the original."""
    if converter is None:
        return values
    return numpy.array([round(converter.convert(int(v))) for v in values], dtype=numpy.int64)
