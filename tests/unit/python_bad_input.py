#!/usr/bin/env python3
"""caret_c on hostile input: every damaged trace of tests/data/bad/
traces.txt (recipes applied to a copy of a real trace), traces with random
bytes overwritten, and every bad architecture file of tests/data/bad gives
a caret_c.CaretError carrying the C library's message and causes (the one
the CLI prints), never a crash of this interpreter nor another exception.

usage: PYTHONPATH=PYTHON python_bad_input.py SOURCE_DIR SHARED_DIR
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

import caret_c

src, shared = sys.argv[1], sys.argv[2]
bad = os.path.join(src, 'tests', 'data', 'bad')
base = os.path.join(shared, 'data', 'real-humble', 'caret-fork-inter')
work = tempfile.mkdtemp()
failures = checked = 0


def report(ok, what):
    global failures
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} {what}")


def fresh():
    t = os.path.join(work, 't')
    shutil.rmtree(t, ignore_errors=True)
    shutil.copytree(base, t)
    return t, os.path.join(t, 'ust', 'uid', '0', '64-bit')


def expect_error(name, expected, make):
    """make() must raise CaretError whose message holds expected."""
    global checked
    checked += 1
    try:
        make()
    except caret_c.CaretError as e:
        ok = expected in str(e) and e.causes and e.status != 'ok'
        report(ok, f'{name}: {e.status}: {e}' + ('' if ok else f' (expected "{expected}")'))
        return
    except Exception as e:  # anything else is a failure of the binding
        report(False, f'{name}: {type(e).__name__} instead of CaretError: {e}')
        return
    report(False, f'{name}: no error (expected "{expected}")')


# ---- damaged traces: the recipes ----------------------------------------------
with open(os.path.join(bad, 'traces.txt')) as f:
    for line in f:
        if line.startswith('#') or not line.strip():
            continue
        name, file, action, expected = [x.strip() for x in line.split('|')]
        trace, streams = fresh()
        path = os.path.join(streams, file)
        verb, *args = action.split()
        if verb == 'truncate':
            os.truncate(path, int(args[0]))
        elif verb == 'empty':
            os.truncate(path, 0)
        elif verb == 'write':
            with open(path, 'r+b') as fh:
                fh.seek(int(args[0]))
                fh.write(bytes.fromhex(args[1]))
        elif verb == 'remove':
            os.remove(path)
        elif verb == 'from':  # the file of another real trace
            shutil.copyfile(os.path.join(shared, 'data', 'real-humble', args[0], 'ust', 'uid',
                                         '0', '64-bit', file), path)
        else:
            raise SystemExit(f'{name}: unknown action {verb}')
        expect_error(f'trace {name}', expected, lambda: caret_c.Lttng(trace))

# ---- random damage: an error or a trace, never a crash --------------------------
rng = random.Random(33)
for seed in range(20):
    trace, streams = fresh()
    victim = os.path.join(streams, rng.choice(['ch0_0', 'ch0_1', 'metadata']))
    size = os.path.getsize(victim)
    with open(victim, 'r+b') as fh:
        for _ in range(rng.randint(1, 8)):
            fh.seek(rng.randrange(size))
            fh.write(bytes(rng.randrange(256) for _ in range(rng.randint(1, 16))))
    try:
        lt = caret_c.Lttng(trace)
        app = caret_c.Application(caret_c.Architecture('lttng', trace, lttng=lt), lt)
        for cb in app.callbacks:
            cb.to_dataframe()
        report(True, f'random damage {seed}: read ({len(app.callbacks)} callbacks)')
    except caret_c.CaretError as e:
        report(bool(str(e)), f'random damage {seed}: {e.status}: {e}')
    except Exception as e:
        report(False, f'random damage {seed}: {type(e).__name__}: {e}')

# ---- not a trace ---------------------------------------------------------------
expect_error('no such directory', 'nonexistent', lambda: caret_c.Lttng('/nonexistent/trace'))
os.makedirs(os.path.join(work, 'empty'))
expect_error('an empty directory', 'empty', lambda: caret_c.Lttng(os.path.join(work, 'empty')))

# ---- architecture files -------------------------------------------------------
for name in sorted(os.listdir(bad)):
    if not name.endswith('.yaml'):
        continue
    with open(os.path.join(bad, name), 'rb') as fh:
        first = fh.readline().decode('utf-8', 'replace')
    expected = first.split('expect:', 1)[1].strip() if 'expect:' in first else ''
    expect_error(f'architecture {name}', expected,
                 lambda: caret_c.Architecture('yaml', os.path.join(bad, name)))
expect_error('architecture: a directory', '', lambda: caret_c.Architecture('yaml', work))

# ---- a FIFO for a file: refused before it is opened, never waited on -----------
# (in a child: a blocked open would hang this interpreter, signals and all)
fifo = os.path.join(work, 'arch.fifo')
os.mkfifo(fifo)
checked += 1
probe = ('import caret_c, sys\n'
         'try:\n'
         '    caret_c.Architecture("yaml", sys.argv[1])\n'
         'except caret_c.CaretError as e:\n'
         '    print(e.status, e)\n'
         '    sys.exit(0 if "FIFO" in str(e) else 1)\n'
         'sys.exit(1)\n')
try:
    done = subprocess.run([sys.executable, '-c', probe, fifo], capture_output=True, text=True,
                          timeout=60)
    report(done.returncode == 0, f'architecture: a FIFO: {done.stdout.strip()}'
           f'{done.stderr.strip()[-300:]}')
except subprocess.TimeoutExpired:
    report(False, 'architecture: a FIFO: blocked (still waiting after 60 s)')
shutil.rmtree(work)
print(f'{checked} bad inputs refused with a CaretError, {failures} failures')
sys.exit(1 if failures else 0)
