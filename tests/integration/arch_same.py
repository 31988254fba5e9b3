#!/usr/bin/env python3
"""Two architecture files alike, executor numbering aside.

usage: arch_same.py GOLDEN WRITTEN
The original numbers executors by address (docs/dev/original-architecture.md),
which changes from run to run: executors are compared as the set of their
types and callback groups, everything else exactly (parsed YAML). With
UPDATE_GOLDEN=1, WRITTEN replaces GOLDEN.
"""
import json
import os
import shutil
import sys

import yaml

golden, written = sys.argv[1:3]
if os.environ.get('UPDATE_GOLDEN') == '1':
    shutil.copy(written, golden)


def canonical(path):
    doc = yaml.safe_load(open(path))
    doc['executors'] = sorted(
        json.dumps({k: v for k, v in e.items() if k != 'executor_name'}, sort_keys=True)
        for e in doc.get('executors') or [])
    return doc


a, b = canonical(golden), canonical(written)
if a != b:
    for key in a:
        if a[key] != b.get(key):
            print(f'{written}: {key} differs from {golden}', file=sys.stderr)
            for x, y in zip(a[key], b.get(key) or []):
                if x != y:
                    print(f'  golden:  {x}\n  written: {y}', file=sys.stderr)
                    break
    sys.exit(1)
