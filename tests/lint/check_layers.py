#!/usr/bin/env python3
"""check_layers.py - the analyzer's stages run one way (docs/dev/layers.md).

Each folder of src/analyze is a stage; a stage may include the headers of
and call the functions of the stages before it, never of one after it:

    types -> strings -> load -> model -> records -> path -> pipeline -> compare -> report, export
    -> api

(types/ca.h declares what the stages share; api/ is the small public API
of include/caret/analyze.h, built on the rest, the architecture file
report/ writes included.)

src/ctf (the CTF reader) and src/common come before them all and include
nothing of the analyzer. Fails (exit 1) naming every include and every call
that runs backwards, and every cycle between folders, with the files and
functions that make it.
usage: check_layers.py SOURCE_ROOT
"""
import os
import re
import sys

ORDER = ["common", "ctf", "types", "strings", "load", "model", "records", "path", "pipeline",
         "compare", "report", "export", "api"]
RANK = {name: i for i, name in enumerate(ORDER)}


def folders(root):
    """(folder name, path) of every stage folder."""
    out = [("common", os.path.join(root, "src/common")), ("ctf", os.path.join(root, "src/ctf"))]
    analyze = os.path.join(root, "src/analyze")
    for name in sorted(os.listdir(analyze)):
        if os.path.isdir(os.path.join(analyze, name)):
            out.append((name, os.path.join(analyze, name)))
    return out


def sources(stages):
    """(folder, file path) of every .c and .h, headers by base name."""
    files, headers = [], {}
    for name, path in stages:
        for dirpath, _, names in os.walk(path):
            for f in names:
                if f.endswith((".c", ".h")):
                    files.append((name, os.path.join(dirpath, f)))
                    if f.endswith(".h"):
                        headers[f] = name
    return files, headers


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \*]*?\b([a-z_]\w*)\(([^;{]*)\)\s*\{",
                        re.M | re.S)


def definitions(files):
    """function name -> folder, for every function defined outside a static."""
    out = {}
    for folder, path in files:
        if path.endswith(".c"):
            for m in DEFINITION.finditer(strip_comments(open(path).read())):
                out.setdefault(m.group(1), folder)
    return out


def edges(files, headers, defined):
    """(from, to) -> reasons, for includes and calls between folders."""
    out = {}
    for folder, path in files:
        text = strip_comments(open(path).read())
        for m in re.finditer(r'#include "([^"]+)"', text):
            h = os.path.basename(m.group(1))
            to = headers.get(h)
            if to and to != folder:
                out.setdefault((folder, to), set()).add(f"{os.path.basename(path)} includes {h}")
        if path.endswith(".c"):
            # a call, or a function taken as a pointer
            for m in re.finditer(r"\b([a-z_]\w*)\b", text):
                to = defined.get(m.group(1))
                if to and to != folder:
                    out.setdefault((folder, to), set()).add(
                        f"{os.path.basename(path)} uses {m.group(1)}")
    return out


def cycles(graph):
    """Strongly connected components of more than one folder (Tarjan)."""
    index, low, stack, on, found, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                found.append(sorted(scc))

    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    stages = folders(root)
    unknown = [name for name, _ in stages if name not in RANK]
    files, headers = sources(stages)
    found = edges(files, headers, definitions(files))
    problems = [f"folder {name} is no stage of check_layers.py's ORDER" for name in unknown]
    analyze = os.path.join(root, "src/analyze")
    problems += [f"src/analyze/{f} belongs to no stage (move it into one)"
                 for f in sorted(os.listdir(analyze)) if f.endswith((".c", ".h"))]
    graph = {}
    for (a, b), why in sorted(found.items()):
        graph.setdefault(a, set()).add(b)
        if RANK.get(a, -1) <= RANK.get(b, -1):
            problems.append(f"{a} -> {b} runs backwards: " + "; ".join(sorted(why)))
    for scc in cycles(graph):
        problems.append("cycle between folders: " + ", ".join(scc))
    for p in problems:
        print(p)
    if not problems:
        print(f"layers ok: {len(files)} files in {len(stages)} folders, "
              f"{sum(len(v) for v in found.values())} includes and calls between folders, "
              "every one forward")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
