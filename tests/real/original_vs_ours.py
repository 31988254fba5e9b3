"""The original CARET analyzer (shared/anchors: caret_analyze) and ours on
the same trace: every callback the original reports has, in ours, the same
number of runs (a callback is named by its node, type and topic, period or
service: the two name callbacks differently), ours has only the callbacks
the original leaves out besides (parameter services, /parameter_events),
and every topic has as many messages linked from publish to callback.

usage: original_vs_ours.py TRACE_COPY OUR_ARCH_YAML OUR_CALLBACKS_CSV OUR_TOPICS_CSV
(TRACE_COPY: the original writes a cache into the trace it loads)"""
import csv
import logging
import sys

import yaml

logging.getLogger().setLevel(logging.ERROR)
from caret_analyze import Application, Architecture, Lttng  # noqa: E402

trace, arch_file, callbacks_csv, topics_csv = sys.argv[1:5]

# ---- the original ---------------------------------------------------------
lttng = Lttng(trace, force_conversion=True)
arch = Architecture('lttng', trace)
app = Application(arch, lttng)


def key_of_original(cb):
    if cb.callback_type.type_name == 'timer_callback':
        return (cb.node_name, 'timer_callback', str(cb.period_ns))
    if cb.callback_type.type_name == 'subscription_callback':
        return (cb.node_name, 'subscription_callback', cb.subscribe_topic_name)
    return (cb.node_name, cb.callback_type.type_name, getattr(cb, 'service_name', ''))


# key -> the run counts of the callbacks it names (two timers of one period
# in one node share a key)
theirs = {}
for cb in app.callbacks:
    if cb.node_name.startswith('/caret_trace'):
        continue
    theirs.setdefault(key_of_original(cb), []).append(len(cb.to_dataframe().dropna()))
their_topics = {}
for comm in app.communications:
    n = len(comm.to_dataframe().dropna())
    their_topics[comm.topic_name] = their_topics.get(comm.topic_name, 0) + n

# ---- ours -----------------------------------------------------------------
with open(arch_file) as f:
    our_arch = yaml.safe_load(f)
runs = {}
with open(callbacks_csv) as f:
    for row in csv.DictReader(f):
        runs[row['callback']] = int(row['count'])
ours = {}
for node in our_arch.get('nodes') or []:
    for cb in node.get('callbacks') or []:
        kind = cb['callback_type']
        what = (str(cb.get('period_ns')) if kind == 'timer_callback' else
                cb.get('topic_name') if kind == 'subscription_callback' else
                cb.get('service_name', ''))
        ours.setdefault((node['node_name'], kind, what), []).append(
            runs.get(cb['callback_name'], 0))
our_topics = {}
with open(topics_csv) as f:
    for row in csv.DictReader(f):
        our_topics[row['topic']] = our_topics.get(row['topic'], 0) + int(row['count'])

# ---- compared -------------------------------------------------------------
failures = 0
for key, n in sorted(theirs.items()):
    n = sorted(n)
    mine = sorted(ours.get(key, []))
    ok = mine == n
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} callback {' '.join(key)}: original {n}, ours {mine}")
for key in sorted(set(ours) - set(theirs)):
    left_out = key[1] == 'service_callback' or key[2] == '/parameter_events'
    if not left_out:
        failures += 1
        print(f"FAIL callback {' '.join(key)}: only in ours ({ours[key]} runs)")
for topic, n in sorted(their_topics.items()):
    mine = our_topics.get(topic, 0)  # a topic without messages has no row
    ok = mine == n
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} topic {topic}: original {n} messages, ours {mine}")
if not theirs:
    failures += 1
    print("FAIL the original finds no callback at all")
sys.exit(1 if failures else 0)
