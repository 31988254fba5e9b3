"""DataFrames as the original builds them: one nullable Int64 column per
stage, a time of 0 (not in the trace) as <NA>, built from numpy arrays
without a Python object per row."""
import numpy
import pandas


def column(values, offset=0):
    """uint64 trace-clock times (0: none) as a pandas Int64 array of ns
    since the epoch (offset: the clock's), as the original reports them."""
    v = numpy.asarray(values, dtype=numpy.uint64)
    # one new array: the sum written straight into int64 (no astype copy)
    return pandas.arrays.IntegerArray(numpy.add(v.view(numpy.int64), numpy.int64(offset)),
                                      v == 0)


def fresh_column(values, offset=0):
    """column() of an array made for it (a C column copied once): the
    offset added in place, no second array."""
    missing = values == 0
    times = values.view(numpy.int64)
    times += numpy.int64(offset)
    return pandas.arrays.IntegerArray(times, missing)


def frame_of(names, makers, offset=0):
    """frame() of columns made one at a time (each maker returns a fresh
    uint64 array): a large path's DataFrame without its columns held twice."""
    if not names:
        return pandas.DataFrame()
    return pandas.DataFrame({n: fresh_column(make(), offset) for n, make in zip(names, makers)})


def frame(names, columns, offset=0):
    if not names:
        return pandas.DataFrame()
    offsets = offset if isinstance(offset, (list, tuple)) else [offset] * len(names)
    # names are unique (a path's are numbered) and a dict keeps their order;
    # DataFrame(..., columns=) would reindex through object arrays: 0.3 s of
    # a 230,000-row path frame, ten times the rest (pandas 1.5)
    return pandas.DataFrame({n: column(c, o) for n, c, o in zip(names, columns, offsets)})


def numbered(names):
    """The original's path columns: each name with '/N', its occurrence so far."""
    seen, out = {}, []
    for n in names:
        out.append(f'{n}/{seen.get(n, 0)}')
        seen[n] = seen.get(n, 0) + 1
    return out
