#!/usr/bin/env python3
"""The original CARET analyzer (shared/anchors) on a trace: its architecture
export with the path /sensor -> /sink named sensor_to_sink, and that path's
numbers for the four spans (include_first_callback, include_last_callback)
as CSV rows of caret's form, each preceded by the span:
  "F,L,end to end,count,min,mean,p50,p90,p99,max"
  "F,L,response time (CASE),count,..." for the four response-time cases
(F, L: 0 or 1). The latency is the last column minus the first of the
path's records, the messages that reached the end; the response times are
its ResponseTime over the same records.

usage: PYTHONPATH=ANCHOR original_path.py TRACE_COPY ARCH_OUT [--export-only]
(--export-only: the architecture file without a path, and no rows)
"""
import logging
import sys
import warnings

import numpy

logging.getLogger().setLevel(logging.ERROR)
from caret_analyze import Application, Architecture, Lttng  # noqa: E402
from caret_analyze.record import ResponseTime  # noqa: E402

trace, out = sys.argv[1], sys.argv[2]
arch = Architecture('lttng', trace)
if '--export-only' in sys.argv:
    arch.export(out, force=True)
    sys.exit(0)
lttng = Lttng(trace, force_conversion=True)
arch.add_path('sensor_to_sink', arch.search_paths('/sensor', '/sink')[0])
arch.export(out, force=True)
path = Application(arch, lttng).get_path('sensor_to_sink')


def row(span, name, v):
    v = numpy.array(v, dtype=numpy.int64)
    if len(v) == 0:
        print(f'{span},{name},0,0,0,0,0,0,0')
        return
    p50, p90, p99 = numpy.percentile(v, [50, 90, 99])
    print(f'{span},{name},{len(v)},{v.min()},{v.mean()!r},{p50!r},{p90!r},{p99!r},{v.max()}')


for first in (0, 1):
    for last in (0, 1):
        path.include_first_callback = bool(first)
        path.include_last_callback = bool(last)
        span = f'{first},{last}'
        df = path.to_dataframe().dropna()
        row(span, 'end to end', (df.iloc[:, -1] - df.iloc[:, 0]).astype('int64').to_numpy())
        rt = ResponseTime(path.to_records())
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            for case, method in (('all', rt.to_all_records), ('best', rt.to_best_case_records),
                                 ('worst', rt.to_worst_case_records),
                                 ('worst-with-external-latency',
                                  rt.to_worst_with_external_latency_case_records)):
                row(span, f'response time ({case})',
                    method().to_dataframe()['response_time'].to_numpy())
