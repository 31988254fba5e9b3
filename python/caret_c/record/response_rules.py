"""The original's response-time rules over any records' columns (its
ResponseMapAll and ResponseMap), for ResponseTime(records, columns=...)
and the stacked bars. A path's four cases without columns are the C
library's (ResponseTime's fast way); these are the same rules in Python,
one pass over the rows, for what the library does not take."""
import warnings

import numpy

from .records import values_and_mask

REVERSED = ('Trace data has records with reversed timestamps. '
            'These record entries are ignored for accurate analysis.')


class Table:
    """The chosen columns of a frame as Python lists (None: missing)."""

    def __init__(self, frame, columns):
        self.columns = list(columns)
        self.values = []
        for c in self.columns:
            v, m = values_and_mask(frame[c])
            self.values.append([None if miss else x for x, miss in zip(v.tolist(), m.tolist())])
        self.n = len(frame)

    def row(self, i):
        return [col[i] for col in self.values]

    def reversed_at(self, i):
        """A later stage before an earlier one (both present) in row i."""
        for prev, cur in zip(self.values, self.values[1:]):
            if prev[i] is not None and cur[i] is not None and prev[i] > cur[i]:
                return True
        return False


def sorted_by_columns(rows_):
    """Rows in the order of their columns, first to last (the original's
    sort_column_order: a missing time counts as 0)."""
    return sorted(rows_, key=lambda r: [0 if x is None else x for x in r])


class EveryOutput:
    """The original's view of every input with the earliest output it
    reaches (ResponseMapAll): rows walked from the last, an input seen
    again keeping its earliest output, a row without the output taking the
    earliest one seen so far; then the inputs of the very earliest output
    left out."""

    def __init__(self, frame, columns):
        self.table = t = Table(frame, columns)
        start, end = t.values[0], t.values[-1]
        starts, ends, rows_, where = [], [], [], {}
        least = None
        reversed_seen = False
        for i in range(t.n - 1, -1, -1):
            if end[i] is not None:
                e = end[i]
            elif least is not None:
                e = least
            else:
                continue
            s = start[i]
            if s is None:
                continue
            if t.reversed_at(i):
                reversed_seen = True
                continue
            k = where.get(s)
            if k is None:
                where[s] = len(starts)
                starts.append(s)
                ends.append(e)
                rows_.append(i)
            elif e < ends[k]:
                ends[k], rows_[k] = e, i
            least = e if least is None else min(least, e)
        if reversed_seen:
            warnings.warn(REVERSED)
        starts.reverse(), ends.reverse(), rows_.reverse()
        first_end = min(ends) if ends else None
        keep = [k for k, e in enumerate(ends) if e != first_end]
        self.starts = [starts[k] for k in keep]
        self.ends = [ends[k] for k in keep]
        self.rows = [rows_[k] for k in keep]

    # ---- the response-time cases: (input, response time) pairs -------------
    def all(self):
        return [(s, e - s) for s, e in zip(self.starts, self.ends)]

    def _one_input_per_output(self, better):
        chosen, order = {}, []
        for s, e in zip(self.starts, self.ends):
            if e not in chosen:
                chosen[e] = s
                order.append(e)
            elif better(s, chosen[e]):
                chosen[e] = s
        return sorted(((chosen[e], e - chosen[e]) for e in order), key=lambda p: p[0])

    def best(self):
        return self._one_input_per_output(lambda s, kept: s > kept)

    def worst(self):
        return self._one_input_per_output(lambda s, kept: s < kept)

    def worst_with_external_latency(self):
        """Each output from the input before its worst one."""
        chosen, order = {}, []
        for prev, s, e in zip(self.starts, self.starts[1:], self.ends[1:]):
            if e not in chosen:
                chosen[e] = (s, s - prev)
                order.append(e)
            elif s < chosen[e][0]:
                chosen[e] = (s, s - prev)
        out = sorted(((chosen[e][0], chosen[e][1], e) for e in order), key=lambda x: x[0])
        return [(s - gap, e - (s - gap)) for s, gap, e in out]

    # ---- the stacked bars: rows of every column -----------------------------
    def _groups_by_output(self, in_order):
        """Kept rows grouped by the output they reach, walked from the last;
        a row without the output joins the group of the row after it."""
        end = self.table.values[-1]
        groups, current = {}, None
        for i in reversed(self.rows):
            if end[i] is not None:
                current = end[i]
            elif current is None:
                continue
            group = groups.setdefault(current, [])
            if in_order:
                group.insert(0, i)
            else:
                group.append(i)
        return groups

    def all_stacked_bar(self):
        """Every kept row; a missing time filled with the least of that
        column among the group's later rows."""
        out = []
        for group in self._groups_by_output(True).values():
            filled = []
            for i in reversed(group):
                row = self.table.row(i)
                for c, x in enumerate(row):
                    if x is None:
                        later = [r[c] for r in filled]
                        if not later:
                            raise ValueError(f'no time of {self.table.columns[c]} to fill a '
                                             'dropped stage with (the original fails here too)')
                        row[c] = min(later)
                filled.append(row)
            out += filled
        return sorted_by_columns(out)

    def worst_case_stacked_bar(self):
        """Per output, each column's least time among the rows reaching it."""
        out = []
        for group in self._groups_by_output(False).values():
            row = []
            for c, col in enumerate(self.table.values):
                present = [col[i] for i in group if col[i] is not None]
                if not present:
                    raise ValueError(f'no time of {self.table.columns[c]} for an output '
                                     '(the original fails here too)')
                row.append(min(present))
            out.append(row)
        return sorted_by_columns(out)


class LatestInput:
    """The original's view of each output with the latest input that
    reaches it (ResponseMap): complete rows only, in row order; the
    outputs walked in time order, each kept when its input is later than
    the previous output's."""

    def __init__(self, frame, columns):
        self.table = t = Table(frame, columns)
        start, end = t.values[0], t.values[-1]
        self.reversed_count = 0
        self.first_input = None
        self.by_output = {}
        for i in range(t.n):
            if any(col[i] is None for col in t.values):
                continue
            if t.reversed_at(i):
                self.reversed_count += 1
                continue
            if self.first_input is None:
                self.first_input = start[i]
            k = self.by_output.get(end[i])
            if k is None or start[k] < start[i]:
                self.by_output[end[i]] = i
        if self.reversed_count:
            warnings.warn(REVERSED)

    def _kept(self):
        start = self.table.values[0]
        previous = 0
        for output in sorted(self.by_output):
            i = self.by_output[output]
            low = max(previous, self.first_input)
            high = max(previous, start[i])
            previous = start[i]
            if low != high:
                yield low, i

    def best_case_stacked_bar(self):
        return sorted_by_columns([self.table.row(i) for _, i in self._kept()])

    def worst_with_external_latency_stacked_bar(self):
        """Rows of (earliest input, latest input, the other columns...)."""
        return sorted_by_columns([[low] + self.table.row(i) for low, i in self._kept()])


def as_columns(rows_, width):
    """Rows as int64 columns."""
    if not rows_:
        return [numpy.zeros(0, numpy.int64) for _ in range(width)]
    array = numpy.array(rows_, dtype=numpy.int64)
    return [array[:, c] for c in range(width)]
