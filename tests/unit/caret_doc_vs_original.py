#!/usr/bin/env python3
"""caret_doc's tutorial and how-to pages (tests/data/caret_doc, unchanged
but for their imports and placeholders) run under the original analyzer
(caret_analyze 0.7.3) and under caret_c on one real trace; every block
must end alike (both succeed, or both raise the original's exception with
its message) and leave the same values (caret_doc_run.py says which).

First the runner's own blocks make the architecture files the pages read
from the trace (caret_doc_places.MAKE_FILES) under both: the files must be
the same, and the original's are the pages' input. Then every page, and
the example notebook (--notebook) whose cells are the tutorial page's.

usage: caret_doc_vs_original.py --anchor DIR --system tutorial|pipeline
           --trace TRACE --host1 TRACE [--notebook NOTEBOOK.ipynb] [--inputs DIR] [--keep]
caret_c: CARET_ANALYZE_LIBRARY as for caret_c. The traces are copied (the
original writes a cache into a trace it loads). Prints one line per page
and block; exit 1 on any difference.
"""
import argparse
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile

import caret_doc_pages as pages
import caret_doc_places as places
import original_pydantic
from caret_doc_compare import Tally

HERE = os.path.dirname(os.path.abspath(__file__))
SNIPPETS = os.path.join(HERE, '..', 'data', 'caret_doc')
PYTHON = os.path.abspath(os.path.join(HERE, '..', '..', 'python'))
ANALYZERS = ('caret_analyze', 'caret_c')
IGNORE = shutil.ignore_patterns('caret_converted')  # the original's cache, if one came along

args = argparse.ArgumentParser()
args.add_argument('--anchor', required=True)
args.add_argument('--system', choices=places.SYSTEMS, required=True)
args.add_argument('--trace', required=True)
args.add_argument('--host1', required=True)
args.add_argument('--notebook')
args.add_argument('--inputs', help='where the architecture files made are kept (the original\'s)')
args.add_argument('--keep', action='store_true', help='keep the work directory')
opt = args.parse_args()

work = tempfile.mkdtemp(prefix='caret_doc.')
pydantic = original_pydantic.pydantic2_dir(work)
if not pydantic:
    sys.exit('FAIL: no pydantic 2 found (a python3 with it): the original would not unpack '
             'the collections the pages pass (original_pydantic.py)')
ORIGINAL_PATH = [opt.anchor, pydantic]
roots = {a: os.path.join(work, a) for a in ANALYZERS}
for a, root in roots.items():
    shutil.copytree(opt.trace, os.path.join(root, 'trace'), ignore=IGNORE)
    shutil.copytree(opt.host1, os.path.join(root, 'host1'), ignore=IGNORE)
inputs = os.path.abspath(opt.inputs or os.path.join(work, 'inputs'))
os.makedirs(inputs, exist_ok=True)


def run(plans):
    """Each analyzer's plan run in its subprocess, both at once: {analyzer: results}."""
    procs = {}
    for a in ANALYZERS:
        plan_file, out = os.path.join(work, f'{a}.json'), os.path.join(work, f'{a}.pickle')
        with open(plan_file, 'w') as f:
            json.dump({'root': roots[a], 'pages': plans[a]}, f)
        env = dict(os.environ, MPLBACKEND='Agg', PYTHONPATH=os.pathsep.join(
            (ORIGINAL_PATH if a == 'caret_analyze' else [PYTHON]) + [HERE]))
        with open(os.path.join(work, f'{a}.err'), 'a') as err:
            procs[a] = (subprocess.Popen([sys.executable, os.path.join(HERE, 'caret_doc_run.py'),
                                          a, plan_file, out], env=env, stdout=err, stderr=err),
                        out)
    results = {}
    for a, (proc, out) in procs.items():
        if proc.wait() != 0:
            with open(os.path.join(work, f'{a}.err')) as f:
                sys.exit(f'FAIL: the {a} run ended with {proc.returncode}:\n' + f.read()[-3000:])
        with open(out, 'rb') as f:
            results[a] = pickle.load(f)
    return results


tally = Tally()


# ---- the architecture files the pages read, made from the trace ----------------
made = {a: [{'name': 'made files', 'cwd': os.path.join(roots[a], 'made'),
             'blocks': pages.page_code_text(
                 places.make_files_code(opt.system, os.path.join(roots[a], 'trace')), a)}]
        for a in ANALYZERS}
results = run(made)
tally.page('made files', results['caret_analyze']['made files'], results['caret_c']['made files'])
for name in places.MADE:
    source = os.path.join(roots['caret_analyze'], 'made', name)
    if not os.path.exists(source):
        sys.exit(f'FAIL: the original made no {name}: the pages cannot run')
    shutil.copy(source, inputs)

# ---- the pages ----------------------------------------------------------------------
plans = {a: [] for a in ANALYZERS}
for a in ANALYZERS:
    files = {'trace': os.path.join(roots[a], 'trace'), 'host1': os.path.join(roots[a], 'host1'),
             'arch': os.path.join(inputs, 'architecture.yaml'),
             'arch_plain': os.path.join(inputs, 'architecture_plain.yaml'),
             'old': os.path.join(inputs, 'old_architecture.yaml'),
             'new': os.path.join(inputs, 'new_architecture.yaml')}
    tables = places.tables(opt.system, files)
    for page in sorted(os.listdir(SNIPPETS)):
        if not page.endswith('.py') or page in places.NOT_RUN:
            continue
        plans[a].append({'name': page[:-3], 'cwd': os.path.join(roots[a], 'pages', page[:-3]),
                         'blocks': pages.page_code(os.path.join(SNIPPETS, page), a, tables[page],
                                                   places.prelude(page, files))})
    if opt.notebook:
        name = os.path.basename(opt.notebook)
        plans[a].append({'name': name, 'cwd': os.path.join(roots[a], 'pages', name),
                         'blocks': pages.page_code(opt.notebook, a, places.notebook_table(files))})
for page, why in places.NOT_RUN.items():
    print(f'not run {page[:-3]}: {why}')
results = run(plans)
for page in results['caret_analyze']:
    tally.page(page, results['caret_analyze'][page], results['caret_c'][page])

for what, documented in tally.documented:
    print(f'documented difference {what}: {documented}')
print(tally.line())
if opt.keep:
    print(f'work directory: {work}')
else:
    shutil.rmtree(work)
sys.exit(1 if tally.differences else 0)
