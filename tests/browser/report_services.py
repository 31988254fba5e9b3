#!/usr/bin/env python3
"""The user's services and actions in the report and the export of a trace
of real apps that call them (tests/real: services-chain, actions).

usage: report_services.py REPORT.html EXPORT.json --service NAME --client NODE
       --server NODE [--action NAME] [--service-callback]
  --service: a service the client calls (its calls in the Services section,
  a client -> server edge in the graph, its flows in the export);
  --action: an action (its goals in the Actions section, the graph's edge
  named by it);
  --service-callback: the server's service callback is an rclcpp one (in
  the callbacks' table and the export's slices; rclcpp_action's are not).
Prints one line per check; exits 1 when one fails."""
import argparse
import html
import json
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument("report")
ap.add_argument("export")
ap.add_argument("--service", required=True)
ap.add_argument("--client", required=True)
ap.add_argument("--server", required=True)
ap.add_argument("--action")
ap.add_argument("--service-callback", action="store_true")
a = ap.parse_args()
page = html.unescape(open(a.report, encoding="utf-8").read())
failures = 0


def check(ok, what):
    global failures
    print(("ok " if ok else "FAIL ") + what)
    failures += not ok


def section(name):
    m = re.search(r"<section id='%s'>(.*?)</section>" % name, page, re.S)
    return m.group(1) if m else ""


services = section("services")
check(re.search(r"<td rowspan='4'><a href='#\w+'>%s</a><br><span class='muted'>%s → %s</span>"
                % (re.escape(a.service), re.escape(a.client), re.escape(a.server)), services),
      f"the Services section has {a.service} ({a.client} → {a.server})")
rows = re.findall(r"<td>(round trip|request|service|response)</td><td>(\d+)</td>", services)
check(len(rows) >= 4 and all(int(n) > 0 for _, n in rows[:4]),
      f"each of its measures counts calls: {rows[:4]}")
graph = section("graph")
edge = f"{a.action} (action)" if a.action else f"service {a.service}"
check(f"<title>{edge}</title>" in graph and "class='edge service'" in graph,
      f"the graph has the edge {a.client} → {a.server} of {edge}")
header = re.search(r"<th>shown</th><td>([^<]*)", page)
shown = header.group(1) if header else ""
check(re.search(r"[1-9]\d* services?\b", shown), f"the header counts the user's services: {shown!r}")
# which process is which (issue 44, item 7): named by its nodes in the
# header and the check, its nodes in a band of the graph; callbacks with
# their symbols
for node in (a.client, a.server):
    check(re.search(r"<br>[^<(]+ \(pid \d+\): [^<]*%s" % re.escape(node), page) and
          re.search(r"<summary>[^<(]+ \(pid \d+\): [^<]*%s" % re.escape(node), page),
          f"the header and the check name {node}'s process by its nodes")
check(len(re.findall(r"<g class='process'>", graph)) >= 2, "the graph has a band per process")
check(re.search(r"<span class='sym' title='[^']+'>[^<]+</span>", section("callbacks")),
      "the callbacks' table shows their symbols")
if a.service_callback:
    callbacks = section("callbacks")
    check(re.search(r"<td class='kind'>service %s</td>" % re.escape(a.service), callbacks),
          f"the callbacks' table has {a.server}'s callback of {a.service}")
if a.action:
    actions = section("actions")
    check(re.search(r"<a href='#\w+'>%s</a><br><span class='muted'>" % re.escape(a.action),
                    actions) and "goal to result" in actions,
          f"the Actions section has {a.action}'s goals")

events = json.load(open(a.export))["traceEvents"]
flows = [e for e in events if e["ph"] == "s" and e.get("cat") == "service" and
         e["name"] == a.service]
check(len(flows) > 0, f"the export has {len(flows)} flows of {a.service}")
sends = [e for e in events if e["ph"] == "X" and e["name"] == f"request {a.service}"]
check(len(sends) > 0, f"the export has {len(sends)} requests of {a.service}")
if a.service_callback:
    runs = [e for e in events if e["ph"] == "X" and e.get("cat") == "callback" and
            e["args"].get("node") == a.server and "service_callback" in e["name"]]
    check(len(runs) > 0, f"the export has {len(runs)} runs of {a.server}'s service callback")
sys.exit(1 if failures else 0)
