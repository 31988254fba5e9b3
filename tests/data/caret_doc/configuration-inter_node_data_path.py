# caret_doc: docs/configuration/inter_node_data_path.md
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/configuration/inter_node_data_path/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Blocks assume `arch` (Architecture) and, for the last block, `arch` + `lttng` are already loaded.
# Block 4 is a signature listing, kept as a string.
# Placeholders: node names 'source_node', 'destination_node', 'intermediate_node_1', 'intermediate_node_2',
#   'intermediate_node', '/start_node', '/intermediate_node', '/end_node'; paths 'target_path',
#   'combined_path_name'; files 'new_architecture_with_path.yaml', 'new_architecture.yaml'.
# NOTE (as written in the doc): block 7 is missing a comma between '/intermediate_node' and '/end_node',
#   so Python concatenates them into one node name '/intermediate_node/end_node'.

# --- block 1 ---
# Architecture object is loaded to variable of arch

paths = arch.search_paths('source_node',
                          'destination_node')

type(paths) # list of multiple paths
paths[0].summary.pprint() # shows nodes and topics in paths[0]

# --- block 2 ---
arch.add_path('target_path', paths[0])

arch.export('new_architecture_with_path.yaml')

# --- block 3 ---
arch = Architecture('yaml', 'new_architecture_with_path.yaml')

path = arch.get_path('target_path') # path object is same as paths[0] in the previous sample

# --- block 4 (signature listing as written in the doc) ---
_SIGNATURE_AS_DOCUMENTED = '''
search_paths(
    *node_names: 'str',
    max_node_depth: 'Optional[int]' = None,
    node_filter: 'Optional[Callable[[str], bool]]' = None,
    communication_filter: 'Optional[Callable[[str], bool]]' = None
) -> 'List[PathStructValue]'
'''

# --- block 5 ---
# Architecture object is loaded to variable of arch

paths = arch.search_paths('source_node',
                          'intermediate_node_1',
                          'intermediate_node_2',
                          'destination_node')

# --- block 6 ---
# Architecture object is loaded to variable of arch

paths = arch.search_paths('source_node',
                          'intermediate_node_1',
                          'destination_node',
                          max_node_depth=10)

# --- block 7 ---
import re

# name list of nodes to be excluded
node_filters = [
    re.compile(r'/_ros2cli_/*'),
    re.compile(r'/launch_ros_*'),
]

# name list of topics to be excluded
comm_filters = [
    re.compile(r'/tf/*'),
]
def comm_filter(topic_name: str) -> bool:
    can_pass = True
    for comm_filter in comm_filters:
        can_pass &= not bool(comm_filter.search(topic_name))
    return can_pass

def node_filter(node_name: str) -> bool:
    can_pass = True
    for node_filter in node_filters:
        can_pass &= not bool(node_filter.search(node_name))
    return can_pass

paths = arch.search_paths(
    '/start_node',
    '/intermediate_node'
    '/end_node',
    max_node_depth=30,
    node_filter = node_filter,
    communication_filter = comm_filter)

# --- block 8 ---
paths_1 = arch.search_paths('source_node',
                            'intermediate_node')
paths_2 = arch.search_paths('intermediate_node',
                            'destination_node')
target_path = arch.combine_path(paths_1[0], paths_2[0])

arch.add_path('combined_path_name', target_path)
arch.export('new_architecture.yaml')

# --- block 9 ---
app = Application(arch, lttng)

path_name = 'target_path'
target_path = app.get_path(path_name)

target_path.include_first_callback = True     # Include first callback in path analysis.
target_path.include_last_callback = True      # Include last callback in path analysis.
