#!/usr/bin/env python3
"""Where each message waited, on a report's page as Chromium draws it
(report_split.mjs measures it): with --expect-split, each path card's bar
of hops shows every topic hop in its three parts (publish→DDS write, DDS
write→reception, reception→callback) whose values and drawn widths add up
to the hop's segment, the card says how the reception was known, and the
worst instances show their own split (three rows under each topic hop of
their table, adding up to it; three lines in their flows, end to end over
the hop's arrow, adding up to it). Without it (a trace with no reception),
no element of the split is on the page.

usage: report_split.py REPORT.html [--expect-split] [--screenshots DIR]
Prints one line per check; exits 1 when one fails."""
import argparse
import json
import os
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("report")
ap.add_argument("--expect-split", action="store_true")
ap.add_argument("--screenshots", metavar="DIR")
a = ap.parse_args()
here = os.path.dirname(os.path.abspath(__file__))
cmd = ["node", os.path.join(here, "report_split.mjs"), a.report]
if a.screenshots:
    cmd += ["--screenshots", a.screenshots]
measured = subprocess.run(cmd, capture_output=True, text=True)
if measured.returncode:
    print(f"FAIL the page could not be measured in Chromium: {measured.stderr.strip()[-600:]}")
    sys.exit(1)
page = json.loads(measured.stdout.strip().splitlines()[-1])
failures = 0
PARTS = ("publish→DDS write", "DDS write→reception", "reception→callback")


def check(ok, what):
    global failures
    print(("ok " if ok else "FAIL ") + what)
    failures += not ok


def close(x, y, tolerance):
    return x is not None and y is not None and abs(x - y) <= tolerance


def bar(card):
    """Each topic hop's segment: its three parts, values and widths adding up."""
    topics = [s for s in card["segments"] if (s["title"] or "").startswith("topic ")]
    check(len(topics) > 0, f"{card['title']}: the bar has {len(topics)} topic hops")
    for s in topics:
        name = s["title"].split(":")[0]
        parts = [p for p in s["parts"] if "rest" not in p["cls"]]
        named = [p["title"].split(", ", 1)[-1] for p in parts]
        ok = s["split"] and len(parts) == 3 and all(
            n.startswith(PARTS[i]) and f"p{i}" in p["cls"] for i, (n, p) in enumerate(zip(named, parts)))
        check(ok, f"{card['title']}: {name} in three parts: {named}")
        total = sum(p["ns"] for p in s["parts"])
        check(close(total, s["ns"], 2 + 1e-6 * abs(s["ns"])),
              f"{card['title']}: {name}'s parts add up to it: "
              + " + ".join(f"{p['ns'] / 1e3:.1f}" for p in s["parts"])
              + f" = {total / 1e3:.1f} µs, the hop {s['ns'] / 1e3:.1f} µs")
        drawn = sum(p["width"] for p in s["parts"])
        check(close(drawn, s["width"], 1.5),
              f"{card['title']}: {name}'s parts fill its segment: {drawn:.1f} of {s['width']:.1f} px")


def table(card):
    """Each topic hop's row of the worst instances, its parts' rows under it."""
    rows, split_cells = card["rows"], 0
    for i, row in enumerate(rows):
        if row["part"] >= 0 or not row["label"].startswith("topic "):
            continue
        parts = rows[i + 1:i + 4]
        check([p["part"] for p in parts] == [0, 1, 2],
              f"{card['title']}: the worst instances' {row['label']} has its parts' rows")
        for j, hop in enumerate(row["cells"]):
            values = [p["cells"][j] for p in parts if j < len(p["cells"])]
            if hop is None or len(values) < 3 or None in values:
                continue
            split_cells += 1
            check(close(sum(values), hop, 0.0021),
                  f"{card['title']}: {card['heads'][j]}: {row['label']} {hop:.3f} = "
                  + " + ".join(f"{v:.3f}" for v in values) + " ms")
    check(split_cells > 0, f"{card['title']}: {split_cells} topic hops of the worst instances split")


def flows(card):
    """The worst instances' flows: three lines per topic hop, end to end."""
    # the table's split topic hops per instance (column): a message whose
    # reception is not in the trace (one of 158 once, the max instance's)
    # has no parts, and its flow draws the hop whole
    hops, rows = {}, card["rows"]
    for i, row in enumerate(rows):
        if row["part"] < 0 and row["label"].startswith("topic "):
            parts = rows[i + 1:i + 4]
            for j, v in enumerate(row["cells"]):
                values = [p["cells"][j] for p in parts if j < len(p["cells"])]
                if len(values) == 3 and None not in values:
                    hops.setdefault(card["heads"][j], []).append(v)
    worst = [f for f in card["flows"] if f["name"] != "clicked"]
    check(len(worst) == len(card["heads"]), f"{card['title']}: {len(worst)} flows of the worst instances")
    for f in worst:
        marks, split = f["marks"], 0
        for i, m in enumerate(marks):
            if m["part"] != 0:
                continue
            three = marks[i:i + 3]
            after = marks[i + 3] if i + 3 < len(marks) else None
            joined = ([x["part"] for x in three] == [0, 1, 2] and
                      close(three[1]["x1"], three[0]["x2"], 0.01) and
                      close(three[2]["x1"], three[1]["x2"], 0.01) and
                      (after is None or close(after["x1"], three[2]["x2"], 0.01)))
            expected = hops.get(f["name"], [])
            value = expected[split] if split < len(expected) else None
            total = sum(x["us"] for x in three) / 1e3
            check(joined and close(total, value, 0.002),
                  f"{card['title']}: {f['name']}'s flow: {three[0]['title'].split(',')[0]} in three "
                  f"lines end to end, {total:.3f} ms (the table: {value})")
            split += 1
        topics = len(hops.get(f["name"], []))
        check(split == topics, f"{card['title']}: {f['name']}'s flow splits {split} of {topics} topic hops")


check(not page["messages"] and not page["errors"],
      "no console message" + (f": {page['messages'][:3]} {page['errors'][:3]}"
                              if page["messages"] or page["errors"] else ""))
if a.expect_split:
    check(len(page["cards"]) > 0, f"{len(page['cards'])} path cards")
    for card in page["cards"]:
        bar(card)
        note = card["note"] or ""
        check("Fast DDS" in note or "Cyclone DDS" in note,
              f"{card['title']}: the card says how the reception was known: {note[:160]!r}")
        table(card)
        flows(card)
else:
    check(page["splitElements"] == 0,
          f"no element of the split on the page ({page['splitElements']} found)")
for shot in page.get("screenshots", []):
    check(os.path.getsize(shot) > 5000, f"screenshot {shot}")
sys.exit(1 if failures else 0)
