"""Where caret_doc's placeholders point on a real trace: per system (the
tutorials' own, recorded by tests/real; the shared traces' three-node
pipeline) the names, and per page the literals replaced. A literal the
table leaves alone stays as written: nonsense names ('src', 'dst') and
names the system has no counterpart for, so that both analyzers raise.
(On the tutorial's system most replacements give the literal itself.)

Files (absolute paths, each analyzer's own copy): trace, host1 (a second
trace, the pages' second host), arch (the tutorial's architecture file:
paths 'target' and 'target_path', the system's message contexts
use_latest_message), arch_plain (the path 'target_path', the contexts the
trace gives), old / new (an architecture and the same renamed), all made
from the trace by MAKE_FILES below under each analyzer."""

SYSTEMS = {
    # tests/real/apps/tutorial.cpp: caret_demos' end_to_end_sample by name
    'tutorial': {
        'source': '/sensor_dummy_node', 'sink': '/actuator_dummy_node',
        'latest': [('/message_driven_node', '/topic2', '/topic3'),
                   ('/timer_driven_node', '/topic3', '/topic4')],
        'renamed_topic': '/topic4', 'renamed_node': '/drive_node',
        'diff_node': '/timer_driven_node',
        'callback': '/timer_driven_node/callback_0', 'callbacks_of': '/timer_driven_node/',
        'sim_time': ('/filter_node', '/message_driven_node', '/filter_node'),
        'intermediate': ['/filter_node', '/message_driven_node'],
        'pong': ('/timer_driven_node', '/topic3', '/topic4', '/timer_driven_node/callback_0',
                 '/timer_driven_node/callback_1'),
        'node': '/timer_driven_node', 'executor': 'executor_0',
    },
    # shared/data/real-humble: /sensor -> /topic_a -> /filter -> /topic_b -> /sink
    'pipeline': {
        'source': '/sensor', 'sink': '/sink', 'latest': [],
        'renamed_topic': '/topic_b', 'renamed_node': '/sink', 'diff_node': '/filter',
        'callback': '/filter/callback_0', 'callbacks_of': '/filter/',
        'sim_time': ('/sensor', '/sink', '/filter'),
        'intermediate': ['/filter'],  # no fourth node: 'intermediate_node_2' stays
        'pong': ('/filter', '/topic_a', '/topic_b', '/filter/callback_0', None),  # no timer
        'node': '/filter', 'executor': 'executor_0',
    },
}

# The runner's own code (not caret_doc's), run under both analyzers like a
# page: the architecture files the pages read, made from the trace. The
# tutorial downloads its file from caret_demos; this one names the same
# path through the same nodes with the same contexts.
MAKE_FILES = '''
# --- block 1 (an architecture file of the trace) ---
from caret_analyze import Architecture
arch = Architecture('lttng', {trace!r})
arch.export('old_architecture.yaml')

# --- block 2 (the path as found: architecture_plain.yaml) ---
paths = arch.search_paths({source!r}, {sink!r})
arch.add_path('target_path', paths[0])
arch.export('architecture_plain.yaml')

# --- block 3 (the tutorial's: its contexts use_latest_message) ---
arch = Architecture('lttng', {trace!r})
for node, sub, pub in {latest!r}:
    arch.update_message_context(node, 'use_latest_message', sub, pub)
paths = arch.search_paths({source!r}, {sink!r})
arch.add_path('target', paths[0])
arch.add_path('target_path', paths[0])
arch.export('architecture.yaml')

# --- block 4 (a newer version: a topic and a node renamed) ---
arch = Architecture('lttng', {trace!r})
arch.rename_topic({renamed_topic!r}, {renamed_topic!r} + '_v2')
arch.rename_node({renamed_node!r}, {renamed_node!r} + '_v2')
arch.export('new_architecture.yaml')
'''
MADE = ('old_architecture.yaml', 'architecture_plain.yaml', 'architecture.yaml',
        'new_architecture.yaml')

# pages whose blocks assume objects already loaded ("arch is loaded")
PRELUDE = {
    'configuration-intra_node_data_path.py': "from caret_analyze import Architecture\n",
    'configuration-inter_node_data_path.py':
        "from caret_analyze import Application, Architecture, Lttng\n"
        "arch = Architecture('lttng', {trace!r})\nlttng = Lttng({trace!r})\n",
    'configuration-rename_function.py':
        "from caret_analyze import Architecture\narch = Architecture('yaml', {arch!r})\n",
    'visualization-search-wildcards_for_get_callbacks.py':
        "from caret_analyze import Application, Architecture, Lttng\n"
        "app = Application(Architecture('yaml', {arch!r}), Lttng({trace!r}))\n",
}

NOT_RUN = {'recording-recording.py': 'ROS 2 launch files, no caret_analyze call'}


def _q(s):
    return repr(s)


def tables(system, files):
    """{page file: [(literal, replacement)]} for a system, files its paths."""
    s = SYSTEMS[system]
    trace, arch = _q(files['trace']), _q(files['arch'])
    data = [("'/path/to/trace_data'", trace), ("'/path/to/architecture_file'", arch)]
    hosts = [("'/path/to/host0/trace_data'", trace), ("'/path/to/host1/trace_data'",
                                                      _q(files['host1']))]
    pong_node, ping, pong, sub_cb, timer_cb = s['pong']
    inter = [("'source_node'", _q(s['source'])), ("'destination_node'", _q(s['sink'])),
             ("'intermediate_node_1'", _q(s['intermediate'][0])),
             ("'intermediate_node'", _q(s['intermediate'][-1])),
             ("'/start_node'", _q(s['source'])), ("'/intermediate_node'", _q(s['intermediate'][0])),
             ("'/end_node'", _q(s['sink']))]
    if len(s['intermediate']) > 1:
        inter.append(("'intermediate_node_2'", _q(s['intermediate'][1])))
    sim_search_from, sim_search_to, sim_node = s['sim_time']
    t = {
        'tutorials-visualization.py': [
            ("'./e2e_sample'", trace), ("'./architecture.yaml'", arch),
            ("'./architecture_jazzy.yaml'", arch),
            ("'/timer_driven_node/callback_0'", _q(s['callback']))],
        'recording-sim_time.py': [
            ("'./e2e_sample'", trace),
            ("    '/filter_node',\n    '/message_driven_node')",
             f"    {sim_search_from!r},\n    {sim_search_to!r})"),
            ("app.get_node('/filter_node')", f"app.get_node({sim_node!r})")],
        'configuration-load_and_save.py': [
            ("'/path/to/ctf-based_recorded_data'", trace),
            ("'/path/to/host0/data'", trace), ("'/path/to/host1/data'", _q(files['host1'])),
            ("'/path/to/architecture.yaml'", arch),
            ("'/path/to/destination/architecture.yaml'", "'exported_architecture.yaml'")],
        'configuration-inter_node_data_path.py': inter,
        'configuration-intra_node_data_path.py': [
            ("'/path/to/architecture.yaml'", _q(files['arch_plain'])),
            ("'/pong_node'", _q(pong_node)), ("'/ping'", _q(ping)), ("'/pong'", _q(pong)),
            ("'subscription_callback_0'", _q(sub_cb))] +
            ([("'timer_callback_1'", _q(timer_cb))] if timer_cb else []),
        'configuration-rename_function.py': [],
        'configuration-architecture_diff_func.py': [
            ("'old_architecture.yaml'", _q(files['old'])),
            ("'new_architecture.yaml'", _q(files['new'])), ("'node1'", _q(s['diff_node']))],
        'configuration-practical_example.py': [
            ("'./e2e_sample'", trace), ("'/sensor_dummy_node'", _q(s['source'])),
            ("'/actuator_dummy_node'", _q(s['sink']))],
        'visualization-index.py': data + hosts + [
            ("'/target/callback/name'", _q(s['callback']))],
        'visualization-frequency.py': data,
        'visualization-period.py': data,
        'visualization-latency.py': data,
        'visualization-scheduling-callback.py': [
            ("'./e2e_sample'", trace), ("'node_name'", _q(s['node'])),
            ("'cbg_name'", _q(s['node'] + '/callback_group_0')),
            ("'executor_name'", _q(s['executor']))],
        'visualization-path-message_flow.py': data,
        'visualization-path-chain_latency.py': data,
        'visualization-path-response_time.py': data,
        'visualization-filter-lttng_event_filter.py': [("'/path/to/ctf'", trace)],
        'visualization-search-wildcards_for_get_callbacks.py': [
            ("'/timer_driven_node/", _q(s['callbacks_of'])[:-1])],
    }
    return t


def notebook_table(files):
    """The example notebook (the tutorial page's code) reads ./e2e_sample and
    ./architecture.yaml as the tutorial does."""
    return [("'./e2e_sample'", _q(files['trace'])), ("'./architecture.yaml'", _q(files['arch']))]


def make_files_code(system, trace):
    s = SYSTEMS[system]
    return MAKE_FILES.format(trace=trace, **{k: s[k] for k in (
        'source', 'sink', 'latest', 'renamed_topic', 'renamed_node')})


def prelude(page, files):
    code = PRELUDE.get(page)
    return [code.format(**files)] if code else []
