#!/usr/bin/env python3
"""Checks a file of `caret export --format chrome-trace` against the rules
of the Trace Event format (the format Perfetto's UI and chrome://tracing
read): a JSON object with a traceEvents list; every event with a phase, a
pid and a tid; timestamps and durations numbers >= 0, in microseconds;
complete slices ("X") of a thread nesting (none ends inside another);
every flow with one start ("s") and one end ("f"), each inside a slice of
its thread, the start not after the end; async slices ("b"/"e") paired by
category and id, nested, each ending at or after its start; every process
and thread that has events named by metadata.

usage: chrome_trace_check.py TRACE.json [--runs RUNS.csv]
  RUNS.csv: `caret latency callbacks --records` of the same trace: every run
  it lists is a slice, at the same time in microseconds.
Prints one line of counts; exits 1 with the broken rules."""
import collections
import csv
import json
import sys

fail = []


def bad(msg):
    if len(fail) < 20:
        fail.append(msg)


doc = json.load(open(sys.argv[1]))
events = doc["traceEvents"] if isinstance(doc, dict) else None
if not isinstance(events, list):
    sys.exit("FAIL: no traceEvents list")

names = {}  # (pid, tid or None) -> name
slices = collections.defaultdict(list)  # (pid, tid) -> [(ts, end, name)]
flows = collections.defaultdict(dict)  # id -> phase -> event
asyncs = collections.defaultdict(list)  # (cat, id) -> [event]
tracks = set()
for e in events:
    ph = e.get("ph")
    if ph not in ("M", "X", "s", "f", "b", "e"):
        bad(f"unexpected phase {ph!r}")
        continue
    if not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
        bad(f"event without integer pid/tid: {e}")
        continue
    if ph == "M":
        if e["name"] == "process_name":
            names[(e["pid"], None)] = e["args"]["name"]
        elif e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        continue
    ts = e.get("ts")
    if not isinstance(ts, (int, float)) or ts < 0:
        bad(f"timestamp not a number >= 0: {e}")
        continue
    tracks.add((e["pid"], e["tid"]))
    if ph == "X":
        dur = e.get("dur")
        if not isinstance(dur, (int, float)) or dur < 0:
            bad(f"slice without a duration >= 0: {e}")
            continue
        slices[(e["pid"], e["tid"])].append((ts, ts + dur, e["name"]))
    elif ph in ("s", "f"):
        if ph in flows[e["id"]]:
            bad(f"flow {e['id']} has two '{ph}' events")
        if ph == "f" and e.get("bp") != "e":
            bad(f"flow end {e['id']} not bound to its enclosing slice (bp e)")
        flows[e["id"]][ph] = e
    else:
        asyncs[(e["cat"], e["id"])].append(e)

# slices nest on every thread
for track, xs in slices.items():
    xs.sort(key=lambda x: (x[0], -x[1]))
    stack = []
    for start, end, name in xs:
        while stack and stack[-1][1] <= start:
            stack.pop()
        if stack and end > stack[-1][1] + 1e-9:
            bad(f"{track}: slice {name} [{start}, {end}] overlaps {stack[-1][2]} "
                f"[{stack[-1][0]}, {stack[-1][1]}] without nesting")
        stack.append((start, end, name))


def enclosed(e):
    """Whether a slice of the event's thread holds its time."""
    for start, end, _ in slices.get((e["pid"], e["tid"]), []):
        if start - 1e-9 <= e["ts"] <= end + 1e-9:
            return True
    return False


for fid, ends in flows.items():
    if set(ends) != {"s", "f"}:
        bad(f"flow {fid} has {sorted(ends)}, not both ends")
        continue
    s, f = ends["s"], ends["f"]
    if s["ts"] > f["ts"] + 1e-9:
        bad(f"flow {fid} ends before it starts")
    if s["name"] != f["name"] or s["cat"] != f["cat"]:
        bad(f"flow {fid}: its ends differ in name or category")
    for end in (s, f):
        if not enclosed(end):
            bad(f"flow {fid}: its '{end['ph']}' at {end['ts']} is in no slice of "
                f"its thread {end['pid']}/{end['tid']}")

for key, evs in asyncs.items():
    stack = []
    for e in evs:  # in file order, as readers take them
        if e["ph"] == "b":
            stack.append(e)
        elif not stack or stack[-1]["name"] != e["name"]:
            bad(f"async {key}: '{e['name']}' ends without its begin")
        else:
            b = stack.pop()
            if e["ts"] < b["ts"] - 1e-9:
                bad(f"async {key}: '{e['name']}' ends before it begins")
    if stack:
        bad(f"async {key}: {len(stack)} slices never end")

for pid, tid in tracks:
    if (pid, None) not in names:
        bad(f"process {pid} has events but no name")
for pid, tid in slices:
    if (pid, tid) not in names:
        bad(f"thread {pid}/{tid} has slices but no name")

# the runs of `caret latency callbacks --records`: each a slice, in microseconds
matched = 0
if "--runs" in sys.argv:
    runs = list(csv.DictReader(open(sys.argv[sys.argv.index("--runs") + 1])))
    by_name = collections.defaultdict(list)
    for xs in slices.values():
        for start, end, name in xs:
            by_name[name].append((start, end))
    offset = None
    for run in runs:
        if not run.get("end_ns"):
            continue
        start_ns, end_ns = int(run["start_ns"]), int(run["end_ns"])
        cands = by_name.get(run["callback"], [])
        if offset is None and cands:  # the time base, from the first run
            first = min(cands)
            offset = start_ns - round(first[0] * 1000)
        if offset is None:
            continue
        want = (start_ns - offset) / 1000
        hit = [c for c in cands if abs(c[0] - want) < 0.0015]
        if not hit or abs((hit[0][1] - hit[0][0]) * 1000 - (end_ns - start_ns)) > 1.5:
            bad(f"run of {run['callback']} at {start_ns} ns is no slice at {want} us")
        else:
            matched += 1
    if not matched:
        bad("no run of the records found as a slice")

n_slices = sum(len(x) for x in slices.values())
print(f"{'FAIL' if fail else 'ok'} chrome trace: {len(events)} events, {n_slices} slices on "
      f"{len(slices)} threads, {len(flows)} flows, {len(asyncs)} async instances, "
      f"{matched} runs matched")
for f in fail:
    print("  " + f)
sys.exit(1 if fail else 0)
