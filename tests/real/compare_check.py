#!/usr/bin/env python3
"""compare_check.py - caret compare's verdicts on real recordings of
pipeline3 (test_real_compare.sh): each OUT is caret compare's output (OUT.json,
OUT.err, OUT.status) of two recordings.

--unchanged OUT...: the same system twice: every object "no change", no
    --fail-on firing, exit 0.
--slowed OUT...: /filter's callback 1 ms longer in NEW: "slower" in /filter's
    callback, its node path and the path sensor_to_sink, each p50 change
    about 1 ms (0.8 to 1.3 ms, its interval meeting 0.8-1.2 ms); nothing
    else slower or faster; the rules fire (exit 3, each said on stderr).
--runs-disagree OUT: runs a side, NEW's not all slowed: nothing slower or
    faster (the runs' p50s do not agree on a change).
"""
import argparse
import json
import sys

# /filter's callback, its node path, the named path: what the slowdown is in
SLOWED = [("callback", "/filter/"), ("node", "/filter/"), ("path", "sensor_to_sink")]


def load(out):
    with open(out + ".status") as f:
        status = int(f.read())
    with open(out + ".err") as f:
        err = f.read()
    with open(out + ".json") as f:
        data = json.load(f)
    return status, err, data


def describe(row):
    d = row["change"]["p50"]
    ns = d["ns"]
    return (f'{row["verdict"]:10} {row["kind"]} {row["name"]}: p50 change '
            f'{ns / 1e3 if ns is not None else float("nan"):+.1f} us '
            f'[{(d["low_ns"] or 0) / 1e3:+.1f}, {(d["high_ns"] or 0) / 1e3:+.1f}], '
            f'p_adj {row["p_adjusted"]}, n {row["base"] and row["base"]["count"]} / '
            f'{row["new"] and row["new"]["count"]}')


def is_slowed(row):
    return any(row["kind"] == k and row["name"].startswith(n) for k, n in SLOWED)


def check_unchanged(out):
    status, err, data = load(out)
    problems = []
    if status != 0:
        problems.append(f"exit {status} (0 expected): {err.strip()}")
    for row in data["rows"]:
        if row["verdict"] != "no change":
            problems.append("not 'no change': " + describe(row))
    if not data["rows"]:
        problems.append("no row")
    return problems, f"{len(data['rows'])} objects, all no change"


def check_slowed(out):
    status, err, data = load(out)
    problems = []
    if status != 3:
        problems.append(f"exit {status} (3 expected: the rules fire): {err.strip()}")
    for kind, _ in SLOWED[:1] + SLOWED[2:]:
        if f"fired: {kind} " not in err:
            problems.append(f"no --fail-on firing on a {kind} said on stderr: {err.strip()}")
    found = {k: False for k in SLOWED}
    for row in data["rows"]:
        if is_slowed(row):
            key = next(k for k in SLOWED if row["kind"] == k[0] and row["name"].startswith(k[1]))
            found[key] = True
            d = row["change"]["p50"]
            if row["verdict"] != "slower":
                problems.append("not slower: " + describe(row))
            elif not (0.8e6 <= d["ns"] <= 1.3e6 and d["low_ns"] <= 1.2e6 and d["high_ns"] >= 0.8e6):
                problems.append("slower, but not by about 1 ms: " + describe(row))
        elif row["verdict"] in ("slower", "faster"):
            problems.append("changed where nothing was: " + describe(row))
        elif row["verdict"] != "no change":
            problems.append("not compared: " + describe(row))
    problems += [f"no {k} {n}... row" for (k, n), seen in found.items() if not seen]
    shown = [describe(r) for r in data["rows"] if r["verdict"] == "slower"]
    return problems, "; ".join(shown)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unchanged", nargs="+", default=[])
    ap.add_argument("--slowed", nargs="+", default=[])
    ap.add_argument("--runs-disagree")
    a = ap.parse_args()
    failed = False
    for out in a.unchanged:
        problems, summary = check_unchanged(out)
        for p in problems:
            print(f"FAIL unchanged {out}: {p}")
        if not problems:
            print(f"ok unchanged {out}: {summary}")
        failed = failed or bool(problems)
    for out in a.slowed:
        problems, summary = check_slowed(out)
        for p in problems:
            print(f"FAIL slowed {out}: {p}")
        if not problems:
            print(f"ok slowed {out}: {summary}")
        failed = failed or bool(problems)
    if a.runs_disagree:
        status, err, data = load(a.runs_disagree)
        changed = [describe(r) for r in data["rows"] if r["verdict"] in ("slower", "faster")]
        for c in changed:
            print(f"FAIL runs disagree: {c}")
        if not changed:
            print(f"ok runs disagree: {len(data['rows'])} objects, nothing slower or faster")
        failed = failed or bool(changed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
