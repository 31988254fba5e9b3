# caret_doc: docs/configuration/load_and_save.md
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/configuration/load_and_save/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Lines starting with "!" are IPython shell escapes (kept as written, commented out here so the file parses).
# Placeholders: '/path/to/ctf-based_recorded_data', ['/path/to/host0/data', '/path/to/host1/data'],
#   '/path/to/architecture.yaml', '/path/to/destination/architecture.yaml'.

# --- block 1 ---
from caret_analyze import Architecture

arch = Architecture('lttng', '/path/to/ctf-based_recorded_data')

# --- block 2 ---
arch = Architecture('lttng', ['/path/to/host0/data', '/path/to/host1/data'])

# --- block 3 ---
from caret_analyze import Architecture

arch = Architecture('yaml', '/path/to/architecture.yaml')

# --- block 4 ---
# arch is caret_analyze.architecture.architecture.Architecture-based object


arch.export('/path/to/destination/architecture.yaml')

# ! readlink -f /path/to/destination//architecture.yaml
# /path/to/destination/architecture.yaml

# --- block 5 ---
arch.export('/path/to/destination/architecture.yaml', force=True)

# ! readlink -f /path/to/destination//architecture.yaml
# /path/to/destination/architecture.yaml
