#!/usr/bin/env python3
"""What caret report shows by default is the user's system: no card, table
row or graph box of the tracer's nodes (caret_trace_), of ignored_callback_N
or of the topics every node has (/parameter_events, /rosout, /clock); with
--all (the second report) what the trace has of them comes back.

usage: report_filtered.py DEFAULT.html [ALL.html]
Prints one line; exits 1 when something is shown that should not be (or,
given ALL.html, when the trace has such objects and --all does not show
them)."""
import re
import sys

NOISE = re.compile(r"caret_trace_|ignored_callback_|^/parameter_events|^/rosout|^/clock")


def names(path):
    page = open(path, encoding="utf-8").read()
    page = page[:page.index("<script type='application/json'")]  # the HTML, not the data
    return [n.replace("&#39;", "'") for n in re.findall(r"data-name='([^']*)'", page)]


shown = names(sys.argv[1])
noise = [n for n in shown if NOISE.search(n)]
ok = not noise and shown
msg = f"{len(shown)} named things shown by default, of them the tracer's or ROS 2's own: {noise[:5]}"
if len(sys.argv) > 2:
    with_all = names(sys.argv[2])
    back = [n for n in with_all if NOISE.search(n)]
    trace_has = "caret_trace_" in open(sys.argv[2], encoding="utf-8").read() or \
        "ignored_callback_" in open(sys.argv[2], encoding="utf-8").read()
    ok = ok and (back or not trace_has) and len(with_all) >= len(shown)
    msg += f"; with --all {len(with_all)}, {len(back)} of them"
print(("ok " if ok else "FAIL ") + msg)
sys.exit(0 if ok else 1)
