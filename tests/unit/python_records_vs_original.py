#!/usr/bin/env python3
"""caret_c.record's helpers against the original's (shared/anchors,
caret_analyze.record 0.7.3) on generated records that the shared traces
do not have: messages lost at a stage, several inputs reaching one
output (a node taking the latest message), stages out of order, runs
without an end. For each seed, both get the same records and must give
the same DataFrames (columns, dtypes, every value) or fail the same way:

- ResponseTime, by the first and last column and by every column: its
  four cases and its four stacked bars;
- StackedBar of each stacked bar (its dict: what the plot draws);
- Latency, Period and Frequency (with a base, an end and an interval),
  and Range.

usage: PYTHONPATH=ANCHOR:PYTHON python_records_vs_original.py [SEEDS]
"""
import os
import random
import sys
import tempfile
import warnings

import pandas

os.chdir(tempfile.mkdtemp())  # the original's logging config opens ./caret.log
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    from caret_analyze import record as theirs  # noqa: E402
    from caret_analyze.record import ColumnValue, RecordsFactory  # noqa: E402
from caret_c import record as ours  # noqa: E402

COLUMNS = ['/a/callback_0/callback_start_timestamp/0', '/t1/rclcpp_publish_timestamp/0',
           '/t1/rcl_publish_timestamp/0', '/b/callback_0/callback_start_timestamp/0',
           '/t2/rclcpp_publish_timestamp/0', '/c/callback_0/callback_start_timestamp/0',
           '/c/callback_0/callback_end_timestamp/0']
failures = compared = 0


def report(ok, what):
    global failures
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} {what}")


def generate(rng, n, gaps):
    """n messages along COLUMNS: some lost at a stage (the later ones
    missing), some middle stages missing (gaps: where the original's
    stacked bars of every column fail for want of a time to fill one
    with), some taking the previous message's output (a latest-message
    node), a few out of order."""
    rows, t = [], 1_000_000_000_000
    for _ in range(n):
        t += rng.randrange(50_000_000, 150_000_000)
        row, s = {}, t
        for c in COLUMNS:
            s += rng.randrange(10_000, 900_000)
            row[c] = s
        kind = rng.random()
        if kind < 0.15:  # lost from a stage on
            for c in COLUMNS[rng.randrange(1, len(COLUMNS)):]:
                del row[c]
        elif kind < 0.25 and gaps:  # a middle stage not traced
            del row[COLUMNS[rng.randrange(1, len(COLUMNS) - 1)]]
        elif kind < 0.40 and rows:  # reached the previous message's output
            for c in COLUMNS[3:]:
                if c in rows[-1]:
                    row[c] = rows[-1][c]
        elif kind < 0.43:  # out of order
            row[COLUMNS[2]] = row[COLUMNS[1]] - 5
        rows.append(row)
    return rows


def their_records(rows, columns=COLUMNS):
    return RecordsFactory.create_instance(rows, columns=[ColumnValue(c) for c in columns])


def our_frame(rows, columns=COLUMNS):
    return pandas.DataFrame({c: pandas.array([r.get(c) for r in rows], dtype='Int64')
                             for c in columns})


def result(f):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            return f(), None
    except Exception as e:  # noqa: BLE001 - both sides' failures compared by class
        return None, type(e).__name__


def same(what, theirs_f, ours_f, convert=lambda x: x.to_dataframe()):
    global compared
    compared += 1
    a, ea = result(lambda: convert(theirs_f()))
    b, eb = result(lambda: convert(ours_f()))
    if ea or eb:
        report(ea == eb, f'{what}: both raise {ea}' if ea == eb else
               f'{what}: original {ea}, caret_c {eb}')
        return
    if isinstance(a, pandas.DataFrame):
        ok = list(a.columns) == list(b.columns) and list(a.dtypes) == list(b.dtypes) and \
            a.shape == b.shape and a.astype(object).fillna(-1).values.tolist() == \
            b.astype(object).fillna(-1).values.tolist()
    else:
        ok = a == b
    report(ok, f'{what}: {len(a)} rows' if ok else
           f'{what}: differs\n  original: {a}\n  caret_c:  {b}')


CASES = ['to_all_records', 'to_best_case_records', 'to_worst_case_records',
         'to_worst_with_external_latency_case_records']
BARS = ['to_all_stacked_bar', 'to_best_case_stacked_bar', 'to_worst_case_stacked_bar',
        'to_worst_with_external_latency_case_stacked_bar']

seeds = range(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
for seed in seeds:
    rng = random.Random(seed)
    rows = generate(rng, rng.randrange(2, 60), gaps=seed % 2)
    tr, our = (lambda: their_records(rows)), (lambda: our_frame(rows))
    for label, cols in (('first/last', None), ('every column', COLUMNS)):
        kw = {} if cols is None else {'columns': cols}
        for m in CASES:
            same(f'seed {seed} ResponseTime({label}).{m}',
                 lambda: getattr(theirs.ResponseTime(tr(), **kw), m)(),
                 lambda: getattr(ours.ResponseTime(our(), **kw), m)())
        for m in BARS:
            same(f'seed {seed} ResponseTime({label}).{m}',
                 lambda: getattr(theirs.ResponseTime(tr(), **kw), m)(),
                 lambda: getattr(ours.ResponseTime(our(), **kw), m)())
            if cols is not None:
                same(f'seed {seed} StackedBar of {m}',
                     lambda: theirs.StackedBar(getattr(theirs.ResponseTime(tr(), **kw), m)()),
                     lambda: ours.StackedBar(getattr(ours.ResponseTime(our(), **kw), m)()),
                     convert=lambda s: (s.to_dict(), s.columns))
    first, last = COLUMNS[0], COLUMNS[-1]
    same(f'seed {seed} Latency', lambda: theirs.Latency(tr()).to_records(),
         lambda: ours.Latency(our()).to_records())
    same(f'seed {seed} Latency of two columns',
         lambda: theirs.Latency(tr(), COLUMNS[1], COLUMNS[3]).to_records(),
         lambda: ours.Latency(our(), COLUMNS[1], COLUMNS[3]).to_records())
    same(f'seed {seed} Period of {COLUMNS[3]}',
         lambda: theirs.Period(tr(), COLUMNS[3]).to_records(),
         lambda: ours.Period(our(), COLUMNS[3]).to_records())
    base = rows[0][first] + rng.randrange(-10**9, 10**9)
    for kw in ({}, {'interval_ns': 300_000_000, 'base_timestamp': base},
               {'base_timestamp': base, 'until_timestamp': base + 2 * 10**9 - 1}):
        same(f'seed {seed} Frequency {kw}', lambda: theirs.Frequency(tr()).to_records(**kw),
             lambda: ours.Frequency(our()).to_records(**kw))
    same(f'seed {seed} Range', lambda: theirs.Range([tr(), their_records(rows[:3])]).get_range(),
         lambda: ours.Range([our(), our_frame(rows[:3])]).get_range(), convert=lambda r: r)

print(f'{compared} compared, {failures} failures')
sys.exit(1 if failures or not compared else 0)
