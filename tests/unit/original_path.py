#!/usr/bin/env python3
"""The original CARET analyzer (shared/anchors) on a trace: its architecture
export with the path /sensor -> /sink named sensor_to_sink, and that path's
end-to-end latency (first callback start to last callback end) as one CSV
row of caret's form: "end to end,count,min,mean,p50,p90,p99,max".

usage: PYTHONPATH=ANCHOR original_path.py TRACE_COPY ARCH_OUT [--export-only]
(--export-only: the architecture file without a path, and no row)
"""
import logging
import sys

import numpy

logging.getLogger().setLevel(logging.ERROR)
from caret_analyze import Application, Architecture, Lttng  # noqa: E402

trace, out = sys.argv[1], sys.argv[2]
arch = Architecture('lttng', trace)
if '--export-only' in sys.argv:
    arch.export(out, force=True)
    sys.exit(0)
lttng = Lttng(trace, force_conversion=True)
arch.add_path('sensor_to_sink', arch.search_paths('/sensor', '/sink')[0])
arch.export(out, force=True)
path = Application(arch, lttng).get_path('sensor_to_sink')
path.include_first_callback = True
path.include_last_callback = True
df = path.to_dataframe().dropna()
v = (df.iloc[:, -1] - df.iloc[:, 0]).astype('int64').to_numpy()
p50, p90, p99 = numpy.percentile(v, [50, 90, 99])
print(f'end to end,{len(v)},{v.min()},{v.mean()!r},{p50!r},{p90!r},{p99!r},{v.max()}')
