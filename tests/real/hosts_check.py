#!/usr/bin/env python3
"""The relay daemon's output of two hosts, read as one system
(test_real_hosts.sh).

usage: hosts_check.py CARET OUT SHIFTED HOST_B DELTA_NS TRUTH_A NODES

- caret check --merge OUT names both hosts and estimates HOST_B's clock
  against the first's within the bound it prints (true offset 0: one clock);
- SHIFTED, a copy of OUT with DELTA_NS added to HOST_B's clock offset (its
  metadata), gives an estimate within its bound of DELTA_NS, and the same
  end-to-end latencies across the hosts as OUT, within that bound;
- every message the sink (TRUTH_A, the apps' own record) took is followed
  across the hosts;
- processes are kept apart by host when their pids collide: a copy of the
  first host's trace filed as a third host (its metadata's hostname and
  its UUID changed: an unchanged copy is refused as one recording read
  twice) holds the same pids, and is read as processes of its own.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

caret, out, shifted, host_b, delta, truth_a, nodes = sys.argv[1:8]
delta = int(delta)
failures = []


def fail(what):
    failures.append(what)
    print('FAIL', what)


def check(trace):
    r = subprocess.run([caret, 'check', '--merge', trace], capture_output=True, text=True)
    print(r.stdout + r.stderr)
    m = re.search(rf'^  {re.escape(host_b)}: \d+ process(es)?, clock ahead of \S+ by '
                  r'(-?\d+) ns \+- (\d+) ns', r.stdout, re.M)
    if not re.search(r'^hosts: 2, on \S+ clock', r.stdout, re.M) or not m:
        fail(f'caret check of {trace}: no estimate of {host_b}\'s clock')
        return None
    return int(m.group(2)), int(m.group(3))


def latency(trace):
    r = subprocess.run([caret, 'path', 'latency', '--merge', '--nodes', nodes, '--format',
                        'json', trace], capture_output=True, text=True)
    if r.returncode:
        fail(f'path latency of {trace}: {r.stderr}')
        return None
    doc = json.loads(r.stdout)
    return next(h for h in doc['hops'] if h['hop'] == 'end to end')


# 1. the trace as recorded: both hosts on one clock
est = check(out)
if est:
    e, u = est
    print(f'{host_b}: estimated {e} ns +- {u} ns (true: 0, one clock)')
    if abs(e) > u:
        fail(f'the estimate {e} ns +- {u} ns misses the true offset 0')
    if u > 5e6:
        fail(f'an uncertainty of {u} ns: the messages cross within ms on one machine')

# 2. the same with host B's clock offset moved by delta
shutil.copytree(out, shifted)
metas = glob.glob(os.path.join(shifted, host_b, '**', 'metadata'), recursive=True)
for path in metas:
    data = open(path, 'rb').read()
    m = re.search(rb'offset = (\d+);', data)
    old = m.group(1)
    new = str(int(old) + delta).encode()
    if len(new) != len(old):  # the metadata packets keep their sizes
        sys.exit(f'cannot shift {path}: {old} + {delta} changes its length')
    open(path, 'wb').write(data[:m.start(1)] + new + data[m.end(1):])
print(f'{host_b}: clock offset moved by {delta} ns in {len(metas)} metadata files')
est2 = check(shifted)
if est2:
    e, u = est2
    print(f'{host_b}: estimated {e} ns +- {u} ns (true: {delta})')
    if abs(e - delta) > u:
        fail(f'the estimate {e} ns +- {u} ns misses the offset added, {delta} ns')

# 3. latencies across the hosts, and every message the sink took
a, b = latency(out), latency(shifted)
if a and b and est2:
    print(f"end to end: {a['count']} messages, p50 {a['p50_ns']} ns; shifted: {b['count']}, "
          f"p50 {b['p50_ns']} ns")
    if a['count'] != b['count'] or abs(a['p50_ns'] - b['p50_ns']) > est2[1] + 1000:
        fail('the shifted trace gives other latencies across the hosts')
# the report of the hosts' trace: its clocks put right as every verb's
page = os.path.join(os.path.dirname(shifted), 'hosts-report.html')
r = subprocess.run([caret, 'report', '--merge', '-o', page, shifted], capture_output=True,
                   text=True)
if r.returncode or os.path.getsize(page) < 10000:
    fail(f'caret report of the shifted hosts: {r.returncode} {r.stderr}')
received = 0
for path in glob.glob(os.path.join(truth_a, '*.e2e.*.csv')):
    received += sum(1 for _ in open(path)) - 1
if a and a['count'] != received:
    fail(f"{a['count']} messages followed across the hosts; the sink took {received}")

# 4. the same pids on two hosts: a copy of the first host's trace as hostC
first = sorted(d for d in os.listdir(out))[0]
three = shifted + '-three'
shutil.copytree(out, three)
clone = os.path.join(three, first[:-1] + 'C')
shutil.copytree(os.path.join(out, first), clone)


def packets(data, size_at, size_bytes):
    """The offsets of LTTng's packets in data: each says its size (bits)."""
    at = 0
    while at + size_at + size_bytes <= len(data):
        yield at
        at += int.from_bytes(data[at + size_at:at + size_at + size_bytes], 'little') // 8


def new_uuid(path):
    """The trace directory holding path made another recording's: a UUID
    of its own in every packet and in the metadata (a copy's packets are
    refused as the same recording read twice)."""
    folder = os.path.dirname(path)
    meta = bytearray(open(path, 'rb').read())
    old = bytes(meta[4:20])
    new = bytes(b ^ 0x5a for b in old)
    for at in packets(meta, 28, 4):
        meta[at + 4:at + 20] = new
    text = lambda u: '-'.join(u.hex()[a:b] for a, b in ((0, 8), (8, 12), (12, 16), (16, 20),
                                                          (20, 32))).encode()
    meta = meta.replace(text(old), text(new))
    open(path, 'wb').write(meta)
    for stream in glob.glob(os.path.join(folder, '*')):
        if os.path.basename(stream) == 'metadata' or not os.path.isfile(stream):
            continue
        data = bytearray(open(stream, 'rb').read())
        for at in packets(data, 56, 8):
            data[at + 4:at + 20] = new
        open(stream, 'wb').write(data)


for path in glob.glob(os.path.join(clone, '**', 'metadata'), recursive=True):
    data = open(path, 'rb').read()
    old = f'hostname = "{first}";'.encode()
    if old not in data:
        sys.exit(f'no {old} in {path}')
    open(path, 'wb').write(data.replace(old, f'hostname = "{first[:-1]}C";'.encode()))
    new_uuid(path)
r = subprocess.run([caret, 'check', '--merge', three], capture_output=True, text=True)
print(r.stdout + r.stderr)
mine = re.findall(rf'^process (\d+) on {re.escape(first)} \(', r.stdout, re.M)
theirs = re.findall(rf'^process (\d+) on {re.escape(first[:-1])}C \(', r.stdout, re.M)
if not re.search(r'^hosts: 3,', r.stdout, re.M) or not mine or sorted(mine) != sorted(theirs):
    fail(f'the copy of {first} as a third host: its processes (pids {theirs}) not kept apart '
         f'from {first}\'s ({mine})')
if failures:
    sys.exit(1)
print('ok')
