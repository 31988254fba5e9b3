# caret_doc: docs/visualization/search/wildcards_for_get_callbacks.md
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/visualization/search/wildcards_for_get_callbacks/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Assumes `app` (Application) exists (the block imports but does not build it).
# Placeholders: '/timer_driven_node/callback_0' and wildcard patterns '/timer_driven_node/callback_?',
#   '/timer_driven_node/*' (fnmatch-style UNIX wildcards).

# --- block 1 ---
from caret_analyze import Architecture, Application, Lttng

callback1 = app.get_callbacks('/timer_driven_node/callback_0')
callback2 = app.get_callbacks('/timer_driven_node/callback_?')
callback3 = app.get_callbacks('/timer_driven_node/*')
