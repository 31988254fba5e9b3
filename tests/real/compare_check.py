#!/usr/bin/env python3
"""compare_check.py - caret compare's verdicts on real recordings of
pipeline3 (test_real_compare.sh): each OUT is caret compare's output (OUT.json,
OUT.err, OUT.status) of two recordings.

--unchanged OUT...: the same system twice: every object "no change", no
    --fail-on firing, exit 0.
--slowed OUT: /filter's callback 1 ms longer in NEW: "slower" in /filter's
    callback, its node path and the path sensor_to_sink, each p50 change
    about 1 ms (its interval meeting 0.8-1.2 ms; the callback's 0.6-1.4 ms:
    its run includes its publish, whose cost drifts between recordings by
    up to 0.3 ms on a loaded machine, docs/compare.md); nothing else
    slower or faster; the rules fire (exit 3, each said on stderr).
--slowed-runs OUT: the same with three runs a side, where the runs' own
    p50s are tested too: the node path (its busy work drifts by
    microseconds) as --slowed; the callback and the path slower, or held
    back by the runs' test alone (3 runs can be too few for a metric that
    drifts: under make test's load the path's per-run p50s spread enough
    that +1.0 ms missed the corrected alpha once; its instances' change
    significant, past the threshold, the runs' interval above 0 at 95 %),
    said.
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


def about_1ms(row):
    """the p50's change and its interval about 1 ms"""
    d = row["change"]["p50"]
    lo, hi = (0.6e6, 1.4e6) if row["kind"] == "callback" else (0.8e6, 1.2e6)
    return lo <= d["ns"] <= hi + 0.1e6 and d["low_ns"] <= hi and d["high_ns"] >= lo


def held_by_runs(row):
    """no change only because the runs' test did not reach alpha"""
    d, r = row["change"]["p50"], row["run_p50_change"]
    return (row["verdict"] == "no change" and row["p_adjusted"] < 0.01 and
            d["ns"] >= row["threshold_ns"] and d["low_ns"] > 0 and
            r["low_ns"] is not None and r["low_ns"] > 0)


def check_slowed(out, runs=False):
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
            if runs and row["kind"] != "node" and held_by_runs(row):
                print(f"note: {out}: held back by the runs' test alone ({row['runs']} runs): "
                      + describe(row))
            elif row["verdict"] != "slower":
                problems.append("not slower: " + describe(row))
            elif not about_1ms(row):
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
    ap.add_argument("--slowed")
    ap.add_argument("--slowed-runs")
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
    for out, runs in ((a.slowed, False), (a.slowed_runs, True)):
        if not out:
            continue
        problems, summary = check_slowed(out, runs)
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
