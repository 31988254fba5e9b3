# caret_doc: docs/visualization/filter/lttng_event_filter.md  (site path visualization/filter/lttng_event_filter/)
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/visualization/filter/lttng_event_filter/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Blocks 1-3 are signature listings (type annotations inside calls), kept as strings.
# Placeholder: '/path/to/ctf' (trace dir).
# NOTE (as written in the doc): strip_filter is documented with lsplit_s/rsplit_s in the signature but
#   lstrip_s/rstrip_s in the prose; the 0.7.3 source uses lsplit_s / rsplit_s.

# --- block 1 (as written) ---
_AS_DOCUMENTED_1 = '''
LttngEventFilter.init_pass_filter()
'''

# --- block 2 (as written) ---
_AS_DOCUMENTED_2 = '''
LttngEventFilter.duration_filter(duration_s: float, offset_s: float)
'''

# --- block 3 (as written) ---
_AS_DOCUMENTED_3 = '''
LttngEventFilter.strip_filter(lsplit_s: Optional[float], rsplit_s: Optional[float])
'''

# --- block 4 ---
from caret_analyze import Lttng, LttngEventFilter

lttng = Lttng('/path/to/ctf', event_filters=[
  LttngEventFilter.duration_filter(10, 5)
]) # Filtering for 10 from 5 seconds
