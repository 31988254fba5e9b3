#!/usr/bin/env python3
"""Writes caret(1) and caret-VERB(1) from the --help of the built caret, so
that the man pages say what --help says, word for word.

usage: man_pages.py CARET OUTDIR VERSION [--gzip]
"""
import gzip
import os
import re
import subprocess
import sys


def run(caret, *args):
    done = subprocess.run([caret, *args], capture_output=True, text=True)
    return done.stdout or done.stderr


def roff(text):
    """Text kept as it is (no filling), safe for roff."""
    lines = []
    for line in text.rstrip('\n').split('\n'):
        line = line.replace('\\', '\\e').replace('-', '\\-')
        if line.startswith(('.', "'")):
            line = '\\&' + line
        lines.append(line)
    return '.nf\n' + '\n'.join(lines) + '\n.fi\n'


def page(name, version, summary, body, see_also):
    title = name.upper()
    out = [f'.TH {title} 1 "" "caret-c {version}" "caret-c"',
           '.SH NAME', f'{name} \\- {summary}'.replace('-', '\\-', name.count('-')),
           '.SH DESCRIPTION', roff(body).rstrip('\n'),
           '.SH SEE ALSO', ', '.join(f'\\fB{s}\\fR(1)' for s in see_also)]
    return '\n'.join(out) + '\n'


def write(path, text, compress):
    if not compress:
        with open(path, 'w') as f:
            f.write(text)
        return
    # as gzip -9n: no name, no time, the same bytes from one build to the next
    with open(path + '.gz', 'wb') as raw:
        with gzip.GzipFile(filename='', mode='wb', compresslevel=9, fileobj=raw,
                           mtime=0) as f:
            f.write(text.encode())


def main():
    caret, outdir, version = sys.argv[1:4]
    compress = '--gzip' in sys.argv[4:]
    os.makedirs(outdir, exist_ok=True)
    overview = run(caret, '--help')
    verbs = re.findall(r'^  (\w+)\s+(.*)$', overview, re.M)
    if not verbs:
        sys.exit(f'man_pages.py: no verbs in the output of {caret} --help')
    names = [f'caret-{v}' for v, _ in verbs]
    body = overview + '\n' + run(caret, '--version')
    write(os.path.join(outdir, 'caret.1'),
          page('caret', version, 'ROS 2 tracing and latency analysis', body, names), compress)
    for verb, summary in verbs:
        write(os.path.join(outdir, f'caret-{verb}.1'),
              page(f'caret-{verb}', version, summary, run(caret, verb, '--help'),
                   ['caret'] + [n for n in names if n != f'caret-{verb}']), compress)


if __name__ == '__main__':
    main()
