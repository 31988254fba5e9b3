"""What the differential tests of caret_c against the original caret_analyze
share: a tally of checks printed as "ok ..." / "FAIL ..." lines, the
comparison of two DataFrames (columns, dtypes, index, rows, every value
exactly: pandas 1.5 compares Int64 columns through floats, blind to the
last ~256 ns of an epoch time), of two raised exceptions (class and
message), and quiet() for the original's warnings."""
import contextlib
import io
import os
import warnings

import numpy
import pandas


def quiet(f, *args, **kw):
    """f(...) without its warnings and its prints (the original's progress)."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter('ignore')
        return f(*args, **kw)


def tie_sorted(df):
    """Rows in runs of equal first-column values sorted by every column
    (the original's std::sort leaves such runs in any order); the runs
    stay where they are."""
    if not len(df.columns) or len(df) < 2:
        return df.reset_index(drop=True)
    first = df.iloc[:, 0]
    run = (first.ne(first.shift()) | first.isna()).cumsum().rename('__run__')
    # by position: a plot's columns can repeat a label (a publisher and a
    # subscription of one topic)
    plain = df.reset_index(drop=True).fillna(numpy.iinfo('int64').max)
    plain.columns = range(len(plain.columns))
    keyed = pandas.concat([run.reset_index(drop=True).rename(-1), plain], axis=1)
    order = keyed.sort_values(list(keyed.columns), kind='stable').index
    return df.reset_index(drop=True).loc[order].reset_index(drop=True)


def difference(a, b, ties=False, index=False):
    """Why DataFrame b is not a (None: equal); ties: rows tied on the first
    column compared sorted; index: the indexes too."""
    if list(a.columns) != list(b.columns):
        return f'columns\n  original: {list(a.columns)}\n  caret_c:  {list(b.columns)}'
    if list(a.dtypes) != list(b.dtypes):
        return f'dtypes\n  original: {list(a.dtypes)}\n  caret_c:  {list(b.dtypes)}'
    if len(a) != len(b):
        return f'{len(a)} rows in the original, {len(b)} in caret_c'
    if index and list(a.index) != list(b.index):
        return f'index\n  original: {list(a.index)[:20]}\n  caret_c:  {list(b.index)[:20]}'
    ra, rb = (tie_sorted(a), tie_sorted(b)) if ties else \
        (a.reset_index(drop=True), b.reset_index(drop=True))
    try:
        pandas.testing.assert_frame_equal(ra, rb, check_exact=True)
        rows = (ra.isna() != rb.isna()) | (ra.fillna(-1) != rb.fillna(-1))
        if rows.any(axis=None):
            raise AssertionError('values')
    except AssertionError as e:
        rows = (ra.isna() != rb.isna()) | (ra.fillna(-1) != rb.fillna(-1))
        first = rows.any(axis=1).idxmax()
        return f'values ({e.__class__.__name__}), first at row {first}:\n  original: ' \
            f'{ra.iloc[first].tolist()}\n  caret_c:  {rb.iloc[first].tolist()}'
    return None


def _plain(values):
    """An array's values, <NA> as None, for comparing object arrays."""
    return [None if pandas.isna(x) else x.item() if hasattr(x, 'item') else x for x in values]


class Checks:
    """The tally: report(), compare() DataFrames, same() values,
    same_exception() raised by two calls."""

    def __init__(self):
        self.failures = self.frames = self.exceptions = self.values = 0

    def report(self, ok, what):
        self.failures += not ok
        print(f"{'ok' if ok else 'FAIL'} {what}")
        return ok

    def compare(self, what, theirs, ours, ties=False, index=False):
        self.frames += 1
        why = difference(theirs, ours, ties, index)
        na = int(theirs.isna().sum().sum())
        return self.report(why is None, f'{what}: {len(theirs)} rows x {len(theirs.columns)} '
                           f'columns, {na} <NA>' if why is None else f'{what}: differs in {why}')

    def same(self, what, theirs, ours):
        self.values += 1
        ok = theirs == ours
        return self.report(ok, f'{what}: {theirs!r}' if ok else
                           f'{what}\n  original: {theirs!r}\n  caret_c:  {ours!r}')

    def same_arrays(self, what, theirs, ours):
        """numpy arrays: dtype and every value (<NA> included) equal."""
        self.values += 1
        ok = numpy.asarray(theirs).dtype == numpy.asarray(ours).dtype and \
            _plain(theirs) == _plain(ours)
        return self.report(ok, f'{what}: {len(theirs)} values, {numpy.asarray(ours).dtype}'
                           if ok else f'{what}\n  original: {numpy.asarray(theirs).dtype} '
                           f'{_plain(theirs)[:8]}\n  caret_c:  {numpy.asarray(ours).dtype} '
                           f'{_plain(ours)[:8]}')

    def same_exception(self, what, theirs, ours, message=True):
        """theirs() and ours() raise the same class (by name, or ours a
        subclass of the original's built-in one) with the same message."""
        self.exceptions += 1
        got = []
        for f in (theirs, ours):
            try:
                quiet(f)
                got.append(None)
            except Exception as e:  # noqa: B902 (any exception is the subject)
                got.append(e)
        a, b = got
        if a is None and b is None:
            return self.report(True, f'{what}: neither raises')
        if a is None or b is None:
            return self.report(False, f'{what}: raised by one only\n  original: {a!r}\n'
                               f'  caret_c:  {b!r}')
        builtin = type(a).__module__ == 'builtins'
        same_class = isinstance(b, type(a)) if builtin else type(a).__name__ == type(b).__name__
        ok = same_class and (not message or str(a) == str(b))
        return self.report(ok, f'{what}: {type(a).__name__}: {a}' if ok else
                           f'{what}\n  original: {type(a).__name__}: {a}\n'
                           f'  caret_c:  {type(b).__name__}: {b}')

    def same_export(self, what, pair, directory):
        """Both architectures' exported files, equal byte for byte; the
        original's file name."""
        files = [os.path.join(directory, f'{n}.yaml') for n in ('theirs', 'ours')]
        quiet(pair.theirs.export, files[0], force=True)
        pair.ours.export(files[1], force=True)
        texts = []
        for f in files:
            with open(f) as fh:
                texts.append(fh.read())
        self.same(f'{what}: the exported file', *texts)
        return files[0]

    def line(self):
        return f'{self.frames} DataFrames, {self.exceptions} exceptions and {self.values} ' \
               f'values compared, {self.failures} differences from the original'


class Pair:
    """The original's object and caret_c's, built the same way."""

    def __init__(self, theirs, ours):
        self.theirs, self.ours = theirs, ours

    def both(self, f):
        return quiet(f, self.theirs), quiet(f, self.ours)


def node_paths_of(arch):
    return [(n.node_name, p.subscribe_topic_name, p.publish_topic_name,
             p.message_context.type_name if p.message_context else None, p.callback_names)
            for n in arch.nodes for p in n.paths]
