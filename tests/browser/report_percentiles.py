#!/usr/bin/env python3
"""One percentile on a report's page: in each path's card, the worst
instances' p99 and p50 columns say the percentile they were picked at, and
it is the one of the table above (the end-to-end row, numpy's linear
interpolation as everywhere on the page), not an instance's own latency
shown as "p99" beside it.

usage: report_percentiles.py REPORT.html
Prints one line per path; exits 1 when one disagrees."""
import html
import re
import sys

page = html.unescape(open(sys.argv[1], encoding="utf-8").read())
failures = paths = 0
for card in re.findall(r"<div class='card path'.*?<div class='flows'>", page, re.S):
    title = re.search(r"<h3>(.*?)</h3>", card).group(1)
    row = re.search(r"<tr><td>end to end</td><td>\d+</td>((?:<td>[-\d.]+</td>){5})", card)
    cells = re.findall(r"<td>([-\d.]+)</td>", row.group(1)) if row else []
    table = {"p50": cells[2], "p99": cells[3]} if len(cells) == 5 else {}
    head = re.search(r"<table class='worst'><thead>(.*?)</thead>", card, re.S)
    picked = dict(re.findall(r"(p99|p50) \(≥ ([-\d.]+)\)", head.group(1) if head else ""))
    paths += 1
    ok = table and picked == table
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} {title}: the table's p50 and p99 {table}, "
          f"the worst instances' columns picked at {picked}")
if not paths:
    print("ok no path with instances")
sys.exit(1 if failures else 0)
