"""pydantic 2 for the original caret_analyze: its type check
(common/type_check_decorator.py), which unpacks a collection passed as the
objects (Plot.create_*(app.callbacks), as caret_doc's pages write it) and
names a wrong argument's type, needs pydantic 2's validate_call. With
Debian's pydantic 1 the check is a no-op and the original fails where its
users' does not ('list' object has no attribute 'to_records'). The
machine's own python3 (pyenv's, .library/env/machines/c.md) has pydantic 2:
its modules are linked into a directory of their own, to be put on the
original's PYTHONPATH alone (Debian's numpy and pandas stay)."""
import glob
import os
import shutil
import subprocess

MODULES = ('pydantic', 'pydantic_core', 'annotated_types', 'typing_inspection',
           'typing_extensions.py')
ASK = 'import os, pydantic\n' \
    'print(pydantic.VERSION, os.path.dirname(os.path.dirname(pydantic.__file__)))'


def _pythons():
    found = [shutil.which('python3'), shutil.which('python3.11')]
    found += sorted(glob.glob(os.path.expanduser('~/.pyenv/versions/*/bin/python3')))
    return dict.fromkeys(p for p in found if p)


def pydantic2_dir(where):
    """A directory (made in where) holding pydantic 2 and what it imports,
    or None when no python3 here has it."""
    for python in _pythons():
        answer = subprocess.run([python, '-c', ASK], capture_output=True, text=True).stdout.split()
        if len(answer) == 2 and answer[0].startswith('2.'):
            here = os.path.join(where, 'pydantic2')
            os.makedirs(here, exist_ok=True)
            for module in MODULES:
                os.symlink(os.path.join(answer[1], module), os.path.join(here, module))
            return here
    return None
