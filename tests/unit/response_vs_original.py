#!/usr/bin/env python3
"""Response time: caret-c's four cases against the original analyzer's
(shared/anchors: caret_analyze's ResponseTime) on the same records, exactly,
row for row. The records are random but shaped like real paths: inputs in
time order, some sharing a timestamp, outputs that answer one input or
several (a node taking the latest message), lost messages (no output) at
the head, in the middle and at the tail, and a few reversed timestamps.

usage: PYTHONPATH=ANCHOR response_vs_original.py RESPONSE_CASES [SEEDS]
"""
import atexit
import logging
import os
import random
import shutil
import subprocess
import sys
import tempfile
import warnings

binary = os.path.abspath(sys.argv[1])
# The original's logging config opens ./caret.log where it is imported.
os.chdir(tempfile.mkdtemp())
atexit.register(shutil.rmtree, os.getcwd(), True)
logging.getLogger().setLevel(logging.ERROR)
from caret_analyze.record import ColumnValue, RecordsFactory, ResponseTime  # noqa: E402

CASES = (('all', 'to_all_records'), ('best', 'to_best_case_records'),
         ('worst', 'to_worst_case_records'),
         ('worst-with-external-latency', 'to_worst_with_external_latency_case_records'))


def records(rng):
    rows, t = [], 1_000_000
    pending = []  # inputs waiting for one output (several answered at once)
    for _ in range(rng.randint(0, 60)):
        t += rng.choice((0, 1, 7, 100, 100, 100, 250))  # 0: a shared timestamp
        pending.append(t)
        r = rng.random()
        if r < 0.1:
            rows.append((pending.pop(), None))  # lost on the way
        elif r < 0.2:
            continue  # answered later, with the next ones
        elif r < 0.25:
            rows.append((pending.pop(), t - rng.randint(1, 50)))  # reversed
        else:
            end = t + rng.randint(1, 400)
            rows += [(s, end) for s in pending]
            pending = []
    rows += [(s, None) for s in pending]
    return sorted(rows, key=lambda x: x[0])


def theirs(rows):
    data = [{'s': s} if e is None else {'s': s, 'e': e} for s, e in rows]
    rt = ResponseTime(RecordsFactory.create_instance(
        data, columns=[ColumnValue('s'), ColumnValue('e')]), columns=['s', 'e'])
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for name, method in CASES:
            for r in getattr(rt, method)().to_dataframe().itertuples(index=False):
                out.append(f'{name} {int(r[0])} {int(r[1])}')
    return out


def ours(binary, rows):
    text = ''.join(f'{s} {e or 0}\n' for s, e in rows)
    return subprocess.run([binary], input=text, capture_output=True, text=True,
                          check=True).stdout.split('\n')[:-1]


seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 300
failures = rows_compared = 0
for seed in range(seeds):
    rows = records(random.Random(seed))
    a, b = theirs(rows), ours(binary, rows)
    rows_compared += len(a)
    if a != b:
        failures += 1
        if failures <= 3:
            print(f'FAIL seed {seed}: {len(rows)} records')
            print('  records: ', rows)
            print('  original:', a)
            print('  caret-c: ', b)
print(f'{seeds - failures} of {seeds} random record sets give the original\'s response times '
      f'({rows_compared} rows compared)')
sys.exit(1 if failures else 0)
