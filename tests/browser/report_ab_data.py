#!/usr/bin/env python3
"""The data of caret report's A/B page (--baseline), read from the HTML:
the header names both sides' recordings; the change table has every
slower object before every faster one, each group by how much its median
moved (in ms), most first; each object's row in its
section and its card's data agree (each side's count, p50, p99), each
side's points are its instances (every one, or the thinned indexes), in
time order; both sides' histograms share their bins and count every
instance of their side (linear bins and overflow, and the logarithmic
ladder); each side's cumulative distribution rises to 1 at its greatest
value. With the callbacks' counts of `caret latency callbacks --format
csv` of each side, every callback's count on the page is that.

usage: report_ab_data.py AB.html [--base-callbacks CSV] [--new-callbacks CSV]
           [--expect-slower PREFIX]... [--expect-new-only PREFIX]...
           [--expect-path NAME]...
Prints one line per check ("ok ..." or "FAIL ..."); exits 1 when one fails."""
import argparse
import csv
import json
import re
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    """The tables' rows (their attributes, and each cell's text) by the
    section they are in, the cards' attributes, the header's cells."""

    def __init__(self):
        super().__init__()
        self.section = None
        self.rows = {}      # section id -> [(row attrs, [cell text])]
        self.cards = []     # attrs of each card
        self.header = []    # the header's table rows: [th, td...]
        self.data = None
        self.in_header = False
        self.row = None
        self.cell = None
        self.in_data = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.section = a.get("id")
        elif tag == "header":
            self.in_header = True
        elif tag == "tr":
            self.row = (a, [])
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
        elif tag == "div" and "card" in a.get("class", "").split():
            self.cards.append(a)
        elif tag == "script" and a.get("id") == "caret-data":
            self.in_data = True
            self.data = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row[1].append(self.cell.strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if self.in_header:
                self.header.append(self.row[1])
            elif self.section:
                self.rows.setdefault(self.section, []).append(self.row)
            self.row = None
        elif tag == "header":
            self.in_header = False
        elif tag == "section":
            self.section = None
        elif tag == "script":
            self.in_data = False

    def handle_data(self, text):
        if self.in_data:
            self.data += text
        elif self.cell is not None:
            self.cell += text


failures = 0


def check(ok, what):
    global failures
    print(f"{'ok' if ok else 'FAIL'} {what}")
    failures += not ok


def number(text):
    m = re.match(r"[-+]?\d+(\.\d+)?", text.replace(",", ""))
    return float(m.group(0)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--base-callbacks")
    ap.add_argument("--new-callbacks")
    ap.add_argument("--expect-slower", action="append", default=[])
    ap.add_argument("--expect-new-only", action="append", default=[])
    ap.add_argument("--expect-path", action="append", default=[])
    a = ap.parse_args()
    p = Page()
    p.feed(open(a.page, encoding="utf-8").read())
    data = json.loads(p.data)
    charts = data["charts"]

    heads = {r[0]: r[1:] for r in p.header if r}
    check(len(heads.get("recordings", [])) == 2 and all(heads["recordings"]),
          f"the header names both sides' recordings: {heads.get('recordings')}")
    check(all(len(heads.get(k, [])) == 2 for k in ("recorded", "duration", "events")),
          "the header gives each side's date, duration and events")

    # the changes: slower first, each group by its relative change of p50
    changes = [(r[0], r[1]) for r in p.rows.get("changes", []) if r[0].get("data-verdict")]
    verdicts = [r[0]["data-verdict"] for r in changes]
    check(verdicts == sorted(verdicts, key=lambda v: v != "slower") and
          set(verdicts) <= {"slower", "faster"},
          f"the change table: {verdicts.count('slower')} slower, then "
          f"{verdicts.count('faster')} faster")
    for v in ("slower", "faster"):
        moved = [abs(number(c[6])) for r, c in changes if r["data-verdict"] == v]
        check(moved == sorted(moved, reverse=True),
              f"the {v} changes by how much their median moved: {moved}")
    for prefix in a.expect_slower:
        hit = [r["data-name"] for r, c in changes
               if r["data-name"].startswith(prefix) and r["data-verdict"] == "slower"]
        check(hit and changes[0][0]["data-verdict"] == "slower",
              f"{prefix} among the slower changes: {hit}")

    # each section's rows against their cards' data
    cards = {c["data-name"] + " " + c["data-kind"]: c for c in p.cards}
    rows_seen = 0
    counts = {}
    for side, path in (("base", a.base_callbacks), ("new", a.new_callbacks)):
        if path:
            counts[side] = {r["callback"]: int(r["count"]) for r in csv.DictReader(open(path))}
    kinds = {"paths": "path", "callbacks": "callback", "topics": "topic", "nodes": "node"}
    for section, kind in kinds.items():
        for attrs, cells in p.rows.get(section, []):
            if "data-name" not in attrs:
                continue
            name = attrs["data-name"]
            card = cards.get(name + " " + kind)
            if not card:
                continue
            rows_seen += 1
            d = charts[card["data-chart"]]
            table = [(int(cells[1 + 3 * k]), number(cells[2 + 3 * k]), number(cells[3 + 3 * k]))
                     for k in range(2)]
            for k, s in enumerate(d["sides"]):
                side = ("base", "new")[k]
                n = s["n"]
                problems = []
                if table[k][0] != n:
                    problems.append(f"table count {table[k][0]}")
                if abs(table[k][1] - s["s"]["p50"] / 1000) > 0.0015 or \
                        abs(table[k][2] - s["s"]["p99"] / 1000) > 0.0015:
                    problems.append(f"table p50/p99 {table[k][1:]} vs {s['s']['p50']}/"
                                    f"{s['s']['p99']} µs")
                if len(s["x"]) != len(s["y"]) or ("i" not in s and len(s["x"]) != n) or \
                        ("i" in s and (len(s["i"]) != len(s["x"]) or s["i"] != sorted(s["i"]))):
                    problems.append(f"{len(s['x'])} points of {n}")
                if s["x"] != sorted(s["x"]) or (s["x"] and s["x"][-1] > data["dur"]):
                    problems.append("points not in time order")
                h = d["h"]
                if sum(h["c"][k]) + h["over"][k] != n or sum(h["log"]["c"][k]) != n:
                    problems.append(f"histogram counts {sum(h['c'][k])}+{h['over'][k]}, "
                                    f"log {sum(h['log']['c'][k])}")
                if len(h["c"][0]) != len(h["c"][1]) or len(h["log"]["c"][0]) != \
                        len(h["log"]["c"][1]) or len(h["log"]["e"]) != len(h["log"]["c"][0]) + 1:
                    problems.append("the sides' bins differ")
                c = d["cdf"][k]
                if c["v"] != sorted(c["v"]) or c["p"] != sorted(c["p"]) or \
                        (n and (abs(c["p"][-1] - 1) > 1e-9 or c["v"][-1] != s["s"]["max"] or
                                c["v"][0] != s["s"]["min"])):
                    problems.append("cumulative distribution")
                if kind == "callback" and side in counts and counts[side].get(name) != n:
                    problems.append(f"caret latency callbacks counts {counts[side].get(name)}")
                check(not problems, f"{kind} {name}, {side}: {n} instances"
                      f"{': ' + '; '.join(problems) if problems else ''}")
    check(rows_seen > 0, f"{rows_seen} objects with a card")
    for name in a.expect_path:
        check(name + " path" in cards, f"the path {name} has a card")
    only = [r[0]["data-name"] for r in p.rows.get("one-side", [])
            if r[0].get("data-side") == "new"]
    for prefix in a.expect_new_only:
        hit = [n for n in only if n.startswith(prefix)]
        check(hit, f"{prefix} in the new recording only: {hit}")
    return 1 if failures else 0


sys.exit(main())
