#!/usr/bin/env python3
"""One notebook's work, timed: a trace loaded, its architecture, the path
from node FROM to node TO and that path's to_dataframe() (first and last
callback in), with caret_c or with the original caret_analyze (--original;
on a copy: it writes its cache into the trace). Prints "load SECONDS",
"frame SECONDS" and "SECONDS ROWS" of the whole.

usage: path_frame.py [--original] TRACE FROM TO
"""
import logging
import os
import shutil
import sys
import tempfile
import time
import warnings

original = '--original' in sys.argv
trace, source, sink = sys.argv[-3:]
trace = os.path.abspath(trace)
work = tempfile.mkdtemp()
os.chdir(work)
logging.getLogger().setLevel(logging.ERROR)
warnings.simplefilter('ignore')
if original:
    from caret_analyze import Application, Architecture, Lttng
    copy = os.path.join(work, 'trace')
    shutil.copytree(trace, copy)
    trace = copy
else:
    from caret_c import Application, Architecture, Lttng

started = time.perf_counter()
lttng = Lttng(trace, force_conversion=True) if original else Lttng(trace)
arch = Architecture('lttng', trace)
loaded = time.perf_counter()
arch.add_path('chain', arch.search_paths(source, sink)[0])
app = Application(arch, lttng)
path = app.get_path('chain')
path.include_first_callback = path.include_last_callback = True
framing = time.perf_counter()
df = path.to_dataframe()
done = time.perf_counter()
shutil.rmtree(work)
print(f'load {loaded - started:.3f}')
print(f'frame {done - framing:.3f}')
print(f'{done - started:.3f} {len(df)}')
