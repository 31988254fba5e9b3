#!/usr/bin/env python3
"""Runs caret_doc pages under one analyzer (a subprocess of
caret_doc_vs_original.py): each page's blocks in order in one namespace,
in the page's own directory, as a notebook runs its cells. After each
block it keeps the block's outcome (success, or the exception's class
names along its MRO and its message) and what each variable the block
bound holds, in a form the other analyzer's can be compared with:

- a DataFrame; an ndarray, or a list or tuple of them; a list or tuple of
  names;
- an object with to_dataframe() (a plot, a path, a callback): its
  DataFrame, or the exception it raises; a list of such objects;
- an Lttng: its get_trace_range();
- an architecture value or a runtime node, executor or callback group:
  its summary; graphviz's graph: its source; a type; a plain value (the
  value a cell shows, `_`, is kept as a variable of that name);
- the .yaml files the block wrote in the page's directory.

The analyzers' Architecture and Application (what they hold is compared
through the rest) and anything else (functions, modules, bokeh's
stand-ins) are not kept.

usage: caret_doc_run.py PACKAGE PLAN.json OUT.pickle  (PACKAGE: caret_analyze | caret_c)
PLAN: {"root": ..., "pages": [{"name", "cwd", "blocks": [[label, code]]}]}; every
path under root is written <work> in messages, so that both runs' compare.
"""
import ast
import collections.abc
import contextlib
import json
import logging
import os
import pickle
import sys
import traceback
import types
import warnings
from unittest import mock

import bokeh_stub  # noqa: F401  (bokeh stood in: the original's plots, the pages' imports)
import numpy
import pandas

package, plan_file, out_file = sys.argv[1:4]
with open(plan_file) as f:
    plan = json.load(f)
root = plan['root']
NOT_KEPT = {'Architecture', 'Application'}


def normalized(text):
    return text.replace(root, '<work>')


def exception(e, package=package):
    """The exception as compared: its MRO's class names, its message, and
    whether it was raised while drawing with bokeh's stand-in."""
    frames = traceback.extract_tb(e.__traceback__)
    raised_in = frames[-1].filename if frames else ''
    stand_in = package == 'caret_analyze' and (
        'Mock' in str(e) or raised_in.endswith(('unittest/mock.py', 'bokeh_stub.py')) or
        '/visualize_lib/bokeh/' in raised_in)
    return {'mro': [c.__name__ for c in type(e).__mro__], 'message': normalized(str(e)),
            'stand_in': stand_in,
            'where': normalized(''.join(traceback.format_exception(e)[-6:]))}


def plain(value):
    """A summary as plain data (mappings as dicts, sequences as lists)."""
    if isinstance(value, collections.abc.Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def _classes(warned):
    return sorted({w.category.__name__ for w in warned})


def describe(value):
    """(kind, the class's name, payload[, the warnings' classes]) as
    compared, or None: not kept."""
    name = type(value).__name__
    if isinstance(value, (mock.Base, types.ModuleType, types.FunctionType)) or name in NOT_KEPT:
        return None
    if isinstance(value, pandas.DataFrame):
        return ('frame', name, value)
    if isinstance(value, numpy.ndarray):
        return ('array', name, value)
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, numpy.ndarray) for v in value):
            return ('arrays', name, list(value))
        if all(isinstance(v, str) for v in value):
            return ('names', name, list(value))
        items = [describe(v) for v in value]
        return ('items', name, items) if all(i is not None for i in items) else None
    if isinstance(value, (bool, int, float, str, type(None))):
        return ('value', name, value)
    if isinstance(value, type):
        return ('type', 'type', value.__name__)
    if name == 'Lttng':  # what of it a notebook reads: the trace's range
        folders = len(getattr(value, 'trace_dirs', ()))  # caret_c's: how many
        if folders > 1:
            name = f'Lttng of {folders} folders'
        try:
            return ('range', name, value.get_trace_range())
        except Exception as e:  # noqa: BLE001 - the outcome compared
            return ('raises', name, exception(e))
    if callable(getattr(value, 'to_dataframe', None)):
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter('always')
            try:
                return ('frame', name, value.to_dataframe(), _classes(warned))
            except Exception as e:  # noqa: BLE001 - the outcome compared
                return ('raises', name, exception(e), _classes(warned))
    summary = getattr(value, 'summary', None)
    if isinstance(summary, collections.abc.Mapping):
        return ('summary', name, plain(summary))
    if isinstance(getattr(value, 'source', None), str) and hasattr(value, 'render'):
        return ('source', name, value.source)  # a graphviz graph
    return None


def yaml_files(directory):
    out = {}
    for f in sorted(os.listdir(directory)):
        if f.endswith('.yaml') and os.path.isfile(os.path.join(directory, f)):
            with open(os.path.join(directory, f)) as fh:
                out[f] = normalized(fh.read())
    return out


def bound(code):
    """The names a block binds (assigned, imported, defined, looped over)."""
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split('.')[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def run_block(code, ns):
    """exec the block; its last expression's value (what a cell shows) as `_`."""
    tree = ast.parse(code)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, '<block>', 'exec'), ns)
    if last is not None:
        ns['_'] = eval(compile(ast.Expression(last.value), '<block>', 'eval'), ns)


def run_page(page):
    os.makedirs(page['cwd'], exist_ok=True)
    os.chdir(page['cwd'])
    ns = {'__name__': '__main__'}
    results = []
    files = yaml_files('.')
    for label, code in page['blocks']:
        before = dict(ns)  # what a block that raises left as it was is not its value
        error = None
        ns.pop('_', None)
        try:
            with contextlib.redirect_stdout(sys.stderr):
                run_block(code, ns)
        except Exception as e:  # noqa: BLE001 - the outcome compared
            error = exception(e)
        values = {}
        for var in sorted((bound(code) | {'_'}) & set(ns)):
            if error and var in before and before[var] is ns[var]:
                continue
            described = describe(ns[var])
            # a class the block imported is not a value of the page's
            if described is not None and (described[0] != 'type' or var == '_'):
                values[var] = described
        now = yaml_files('.')
        values.update({f'file {f}': ('file', 'file', text) for f, text in now.items()
                       if files.get(f) != text})
        files = now
        results.append({'block': label, 'error': error, 'values': values})
    return results


logging.getLogger().setLevel(logging.ERROR)
os.environ.setdefault('MPLBACKEND', 'Agg')
out = {}
for page in plan['pages']:
    print(f'{package}: {page["name"]}', file=sys.stderr, flush=True)
    out[page['name']] = run_page(page)
with open(out_file, 'wb') as f:
    pickle.dump(out, f)
