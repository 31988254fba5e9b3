"""The parts of test_python_api_differential that need no trace: caret_c
against the original caret_analyze on seeded frames (treat_drop_as_delay,
the strip) and on an architecture file of the docs' /pong_node (edits of
callback chains through variable passings). The original must be
importable (python_api_vs_original.py puts it on the path)."""
import os
import random

import caret_analyze as original
from caret_analyze.record import RecordFactory, RecordsFactory
from caret_analyze.record.column import ColumnValue
from caret_analyze.record.data_frame_shaper import Strip
import caret_c
from caret_c import path_base
import pandas

from python_api_compare import Pair, node_paths_of, quiet


def synthetic_frames(checks):
    """treat_drop_as_delay and the strip over frames with drops and ties
    the real traces lack: the original's own records (its C++
    bind_drop_as_delay, its Strip) against caret_c's, on seeded random
    stages (<NA> a drop)."""
    rng = random.Random(43)
    for case in range(40):
        columns = [f'/s{k}/stamp' for k in range(rng.randint(2, 5))]
        rows = []
        for _ in range(rng.randint(1, 30)):
            start = rng.randrange(0, 10) * 200_000_000 + rng.choice((0, 0, 1))
            row = {columns[0]: start}
            for k, c in enumerate(columns[1:], 1):
                if rng.random() > 0.3:
                    row[c] = start + k * rng.randrange(1, 50_000_000)
            rows.append(row)
        records = RecordsFactory.create_instance([RecordFactory.create_instance(r) for r in rows],
                                                 [ColumnValue(c) for c in columns])
        ours = pandas.DataFrame({c: pandas.array([r.get(c) for r in rows], dtype='Int64')
                                 for c in columns})
        records.bind_drop_as_delay()
        checks.compare(f'synthetic {case}: treat_drop_as_delay', records.to_dataframe(),
                       path_base.drop_as_delay(ours))
        ordered = ours.sort_values(columns[0], kind='stable').reset_index(drop=True)
        lstrip, rstrip = rng.choice((0.2, 0.4, 1.0)), rng.choice((0, 0.2, 0.6))
        checks.compare(f'synthetic {case}: strip {lstrip} {rstrip}',
                       Strip(lstrip, rstrip).execute(ordered.copy()),
                       path_base.strip(ordered.copy(), lstrip, rstrip))


# a node whose output a timer makes from what its subscription took (the
# docs' /pong_node), for the edits of callback chains through variable
# passings the real traces' one-callback nodes cannot show; a callback
# past the construction order the search takes
PONG = """\
named_paths:
- path_name: target_path
  node_chain:
  - node_name: /ping_node
    publish_topic_name: /ping
    subscribe_topic_name: UNDEFINED
  - node_name: /pong_node
    publish_topic_name: /pong
    subscribe_topic_name: /ping
  - node_name: /sink_node
    publish_topic_name: UNDEFINED
    subscribe_topic_name: /pong
executors:
- executor_type: single_threaded_executor
  executor_name: executor_0
  callback_group_names:
  - /ping_node/callback_group_0
  - /pong_node/callback_group_0
  - /sink_node/callback_group_0
nodes:
- node_name: /ping_node
  callback_groups:
  - callback_group_type: mutually_exclusive
    callback_group_name: /ping_node/callback_group_0
    callback_names:
    - /ping_node/callback_0
  callbacks:
  - callback_name: /ping_node/callback_0
    callback_type: timer_callback
    period_ns: 100000000
    symbol: ping
  publishes:
  - topic_name: /ping
    callback_names:
    - /ping_node/callback_0
- node_name: /pong_node
  callback_groups:
  - callback_group_type: mutually_exclusive
    callback_group_name: /pong_node/callback_group_0
    callback_names:
    - /pong_node/callback_0
    - /pong_node/callback_1
  callbacks:
  - callback_name: /pong_node/callback_0
    callback_type: subscription_callback
    topic_name: /ping
    symbol: pong_sub
  - callback_name: /pong_node/callback_1
    callback_type: timer_callback
    period_ns: 50000000
    symbol: pong_timer
  variable_passings:
  - callback_name_write: UNDEFINED
    callback_name_read: UNDEFINED
  publishes:
  - topic_name: /pong
    callback_names:
    - UNDEFINED
  subscribes:
  - topic_name: /ping
    callback_name: /pong_node/callback_0
  message_contexts:
  - context_type: UNDEFINED
    subscription_topic_name: /ping
    publisher_topic_name: /pong
- node_name: /sink_node
  callback_groups:
  - callback_group_type: reentrant
    callback_group_name: /sink_node/callback_group_0
    callback_names:
    - /sink_node/callback_0
    - /sink_node/callback_1
  callbacks:
  - callback_name: /sink_node/callback_0
    callback_type: subscription_callback
    topic_name: /pong
    symbol: sink_sub
  - callback_name: /sink_node/callback_1
    callback_type: subscription_callback
    topic_name: /ping
    symbol: sink_sub2
    construction_order: 12
  subscribes:
  - topic_name: /pong
    callback_name: /sink_node/callback_0
  - topic_name: /ping
    callback_name: /sink_node/callback_1
    construction_order: 12
"""


def synthetic_architecture(checks, work):
    """The docs' intra-node blocks (their arguments in 0.7.3's order) on
    both, the file, the node paths and the search after each."""
    file = os.path.join(work, 'pong.yaml')
    with open(file, 'w') as f:
        f.write(PONG)
    arch = Pair(quiet(original.Architecture, 'yaml', file),
                quiet(caret_c.Architecture, 'yaml', file))
    cb0, cb1 = '/pong_node/callback_0', '/pong_node/callback_1'
    blocks = [
        ('loaded', []),
        ('block 2', [('insert_publisher_callback', '/pong_node', '/pong', cb1, 0),
                     ('update_message_context', '/pong_node', 'use_latest_message', '/ping',
                      '/pong')]),
        ('block 3', [('remove_publisher_callback', '/pong_node', '/pong', cb1, 0),
                     ('update_message_context', '/pong_node', 'UNDEFINED', '/ping', '/pong')]),
        ('block 4', [('insert_publisher_callback', '/pong_node', '/pong', cb1, 0),
                     ('insert_variable_passing', '/pong_node', cb0, cb1),
                     ('update_message_context', '/pong_node', 'callback_chain', '/ping',
                      '/pong')]),
        ('block 5', [('remove_publisher_callback', '/pong_node', '/pong', cb1, 0),
                     ('remove_variable_passing', '/pong_node', cb0, cb1),
                     ('update_message_context', '/pong_node', 'UNDEFINED', '/ping', '/pong')])]
    for label, calls in blocks:
        for name, *args in calls:
            for a in (arch.theirs, arch.ours):
                quiet(getattr(a, name), *args)
        label = f'/pong_node {label}'
        checks.same_export(label, arch, work)
        checks.same(f'{label}: node paths', *arch.both(node_paths_of))
        checks.same(f'{label}: search_paths', *arch.both(lambda a: [
            (p.child_names, str(p.summary), p.verify())
            for p in a.search_paths('/ping_node', '/sink_node')]))
        checks.same(f'{label}: check_procedure', *[
            [(p.subscribe_topic_name, p.publish_topic_name, p.callback_names,
              p.message_context and p.message_context.type_name)
             for p in quiet(f, 'yaml', file, a, '/pong_node')]
            for f, a in [(original.check_procedure, arch.theirs),
                         (caret_c.check_procedure, arch.ours)]])
