#!/usr/bin/env python3
"""The statistics caret prints against numpy's on the same instances.

usage: stats_vs_numpy.py STATS_CSV RECORDS_CSV NAME_COLUMN VALUE_COLUMN [ROW]
  STATS_CSV   `caret latency ... --format csv` or `caret path latency --format csv`
  RECORDS_CSV what --records wrote for the same run
  NAME_COLUMN the records' column naming the row (callback, topic), or '-'
              when every record belongs to ROW (path latency: "end to end")
  VALUE_COLUMN the records' column of the value (latency_ns)
Every row's count, min, mean, p50, p90, p99 and max must equal numpy's
(numpy.percentile's default, linear interpolation) to 1e-9 relative.
"""
import csv
import sys
from collections import defaultdict

import numpy

stats_path, records_path, name_col, value_col = sys.argv[1:5]
only_row = sys.argv[5] if len(sys.argv) > 5 else None

values = defaultdict(list)
with open(records_path) as f:
    for r in csv.DictReader(f):
        if r[value_col] != '':  # a path message that did not reach the end
            values[only_row if name_col == '-' else r[name_col]].append(int(r[value_col]))

checked = failures = 0
with open(stats_path) as f:
    for row in csv.reader(f):
        if row[0] in ('hop', 'callback', 'topic') or len(row) < 8:
            continue
        name = row[0]
        if only_row and name != only_row:
            continue
        v = numpy.array(values.get(name, []), dtype=numpy.int64)
        # topics have a delivery column before count
        first = 2 if not row[1].isdigit() else 1
        count, mn, mean, p50, p90, p99, mx = (float(x) for x in row[first:first + 7])
        if len(v) == 0:
            continue
        want = [len(v), v.min(), v.mean(), *numpy.percentile(v, [50, 90, 99]), v.max()]
        got = [count, mn, mean, p50, p90, p99, mx]
        for label, w, g in zip(['count', 'min', 'mean', 'p50', 'p90', 'p99', 'max'], want, got):
            if abs(w - g) > 1e-9 * max(1.0, abs(w)):
                print(f'{name}: {label} {g} but numpy says {w}')
                failures += 1
        checked += 1
print(f'{checked} rows equal to numpy\'s' if not failures else f'{failures} differences')
sys.exit(1 if failures or not checked else 0)
