"""The comparison of two caret_doc_run.py results: per page and block the
outcome (both succeed, or both raise the original's class, by its name
in caret_c's MRO, with the same message) and every value kept (DataFrames
by python_api_compare's difference(): columns, dtypes, values exactly,
rows tied on the first column compared sorted).

Where caret-c differs by design (docs/python.md), the difference is
named as documented, never counted as equal: DOCUMENTED below."""
from python_api_compare import _plain, difference


def _raised(e):
    return f"{e['mro'][0]}: {e['message']}"


def _histogram_not_implemented(theirs, ours):
    return theirs[0] == 'raises' and theirs[1].endswith('HistogramPlot') and ours[0] == 'frame' \
        and theirs[2]['mro'][0] in ('NotImplementedError', 'TypeError')


def _empty_in_the_original(cls):
    return lambda theirs, ours: theirs[0] == 'frame' and theirs[1] == cls and \
        theirs[2].empty and ours[0] == 'frame'


def _followed_past_an_undefined_context(theirs, ours):
    """caret_c said it followed a node the original stops at, and the
    original's DataFrame is the stopped one: empty, or caret_c's first columns."""
    if theirs[0] != 'frame' or ours[0] != 'frame' or 'CompatibilityWarning' not in ours[-1]:
        return False
    a, b = list(theirs[2].columns), list(ours[2].columns)
    return not a or (len(a) < len(b) and b[:len(a)] == a)


def _range_of_several_folders(theirs, ours):
    """Several folders (the pages' hosts, here two unrelated recordings:
    no multi-host recording is among the inputs): the original's range is
    the last folder's, caret_c's spans them all on the first's clock."""
    return theirs[0] == 'range' and ours[0] == 'range' and ours[1].startswith('Lttng of ')


# (test, what is documented and where)
DOCUMENTED = [
    (_followed_past_an_undefined_context,
     "a path through a node with no message context: the original stops there, caret_c "
     "follows it and says so (CompatibilityWarning; docs/python.md, An undefined message "
     "context)"),
    (_range_of_several_folders,
     "Lttng of several folders: get_trace_range() is the last folder's in the original, "
     "all of them on the first's clock in caret_c (docs/python.md, Where the original is "
     "wrong; the pages' two hosts are two unrelated recordings here, so the values are not "
     "compared)"),
    (_histogram_not_implemented,
     "a histogram's to_dataframe(): the original's is not implemented (it raises), "
     "caret-c's gives the bins it draws (docs/python.md, Plots)"),
    (_empty_in_the_original('MessageFlowPlot'),
     "the message flow's to_dataframe(): the original's is empty, caret-c's a row a message "
     "(docs/python.md, Plots)"),
    (_empty_in_the_original('CallbackSchedulingPlot'),
     "the callback scheduling's to_dataframe(): the original's is empty, caret-c's the runs "
     "drawn (docs/python.md, Plots)"),
]


# (test of the blocks' outcomes, what is documented and where): a block's
# values that caret_c then lacks, or that raise the same, are part of it
NO_RECORDS = 'has no records of it to plot'
DOCUMENTED_OUTCOMES = [
    (lambda theirs, ours: theirs is not None and ours is not None and
     theirs['mro'][0] == 'InvalidTraceFormatError' and theirs['mro'][0] in ours['mro'] and
     ours['message'].startswith('the time window '),
     "an event filter's window with nothing of the trace in it: both raise "
     "InvalidTraceFormatError, the original's message speaks of its missing trace points, "
     "caret_c's of the window (docs/python.md, The mapping)"),
]


class Tally:
    """The comparisons made, the documented differences met and the blocks
    that differ; page() prints a line per block."""

    def __init__(self):
        self.frames = self.exceptions = self.values = 0
        self.pages = self.blocks = self.not_compared = 0
        self.documented, self.differences = [], []

    def page(self, page, theirs, ours):
        """Both runs of a page, block by block; a FAIL names each difference."""
        self.pages += 1
        for t, o in zip(theirs, ours):
            self.block(f"{page} {t['block']}", t, o)
        if len(theirs) != len(ours):
            self.differences.append(page)
            print(f'FAIL {page}: {len(theirs)} blocks run by the original, {len(ours)} by caret_c')

    def block(self, what, t, o):
        self.blocks += 1
        if t['error'] and t['error']['stand_in']:
            self.not_compared += 1
            print(f"not compared {what}: the original fails in bokeh's stand-in "
                  f"({_raised(t['error'])[:160]})")
            return
        whys, documented = [], []
        why = self.outcome(t['error'], o['error'])
        as_documented = why and self.documented_outcome(what, t['error'], o['error'])
        if as_documented:
            documented.append(f'documented: {as_documented}')
        elif why:
            whys.append(why)
        for var in sorted(set(t['values']) | set(o['values'])):
            mine = o['values'].get(var)
            if as_documented and (mine is None or (mine[0] == 'raises' and mine[2]['message'] ==
                                                   o['error']['message'])):
                documented.append(f'{var}: part of it')
            elif var not in t['values'] or mine is None:
                whys.append(f"{var}: kept by {'the original' if mine is None else 'caret_c'} only")
            else:
                why = self.value(f'{what}: {var}', t['values'][var], mine)
                if why:
                    (documented if why.startswith('documented: ') else whys).append(f'{var}: {why}')
        end = f"raises {t['error']['mro'][0]}" if t['error'] else 'succeeds'
        kept = ', '.join(sorted(t['values'])) or 'no value'
        if whys:
            self.differences.append(what)
            print(f'FAIL {what}: ' + '\n  '.join(whys))
        elif as_documented:
            print(f'documented {what}: the original {end}; {kept}')
        else:
            print(f'ok {what}: {end}; {kept}')
        for d in documented:
            print(f'  {d}')

    def line(self):
        return f'{self.pages} pages, {self.blocks} blocks run ({self.not_compared} not ' \
               f'compared); {self.frames} DataFrames, {self.exceptions} exceptions and ' \
               f'{self.values} other values compared; {len(self.documented)} documented ' \
               f'differences; {len(self.differences)} blocks differ from the original'

    def outcome(self, theirs, ours):
        """Why the blocks' outcomes differ (None: the same)."""
        if theirs is None and ours is None:
            return None
        if theirs is None or ours is None:
            return f"raised by one only\n    original: {theirs and _raised(theirs)}\n" \
                   f"    caret_c:  {ours and _raised(ours)}"
        self.exceptions += 1
        if theirs['mro'][0] in ours['mro'] and theirs['message'] == ours['message']:
            return None
        return f'another exception\n    original: {_raised(theirs)}\n    caret_c:  {_raised(ours)}'

    def documented_outcome(self, what, theirs, ours):
        """What documents the blocks' different outcomes (None: nothing)."""
        for test, documented in DOCUMENTED_OUTCOMES:
            if test(theirs, ours):
                self.documented.append((what, documented))
                return documented
        return None

    def value(self, what, theirs, ours):
        """Why two described values differ (None: equal); documented
        differences are kept in self.documented and are not None."""
        for test, documented in DOCUMENTED:
            if test(theirs, ours):
                self.documented.append((what, documented))
                return 'documented: ' + documented
        kind = theirs[0]
        if kind != ours[0]:
            return f'{kind} / {ours[0]}\n    original: {_short(theirs)}\n' \
                   f'    caret_c:  {_short(ours)}'
        a, b = theirs[2], ours[2]
        if kind == 'frame':
            self.frames += 1
            why = difference(a, b, ties=True)
            return why and why.replace('\n', '\n  ')
        if kind == 'raises':
            return self.outcome(a, b)
        if kind in ('array', 'arrays'):
            self.values += 1
            pairs = [(a, b)] if kind == 'array' else list(zip(a, b))
            if len(a) != len(b) or any(x.dtype != y.dtype or _plain(x) != _plain(y)
                                       for x, y in pairs):
                return f'{kind}\n    original: {_short(theirs)}\n    caret_c:  {_short(ours)}'
            return None
        if kind == 'items':
            if len(a) != len(b):
                return f'{len(a)} items in the original, {len(b)} in caret_c'
            for k, (x, y) in enumerate(zip(a, b)):
                why = self.value(f'{what}[{k}]', x, y)
                if why:
                    return f'[{k}]: {why}'
            return None
        self.values += 1
        if a != b:
            return f'{kind}\n    original: {_short(theirs)}\n    caret_c:  {_short(ours)}'
        return None


def _short(described):
    kind, name, payload = described
    if kind == 'raises':
        return f'{name} raises {_raised(payload)}'
    if kind in ('array', 'arrays'):
        arrays = [payload] if kind == 'array' else payload
        return f'{name} ' + ', '.join(f'{x.dtype} {_plain(x)[:6]}' for x in arrays)
    if kind == 'frame':
        return f'{name} {len(payload)} rows x {len(payload.columns)} columns'
    text = repr(payload)
    return f'{name} {text[:300]}' + ('...' if len(text) > 300 else '')
