# caret_doc: docs/configuration/rename_function.md
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/configuration/rename_function/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Placeholders: 'src' / 'dst' stand for an existing name and its new name (callback, node, path, executor, topic).
#   All blocks assume `arch` is loaded.

# --- block 1 ---
# arch is caret_analyze.architecture.architecture.Architecture-based object

arch.rename_callback('src', 'dst')

# --- block 2 ---
# arch is caret_analyze.architecture.architecture.Architecture-based object

arch.rename_node('src', 'dst')

# --- block 3 ---
# arch is caret_analyze.architecture.architecture.Architecture-based object

arch.rename_path('src', 'dst')

# --- block 4 ---
# arch is caret_analyze.architecture.architecture.Architecture-based object

arch.rename_executor('src', 'dst')

# --- block 5 ---
# arch is caret_analyze.architecture.architecture.Architecture-based object

arch.rename_topic('src', 'dst')
