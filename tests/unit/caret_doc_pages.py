"""caret_doc's pages as code to run (tests/data/caret_doc, kept unchanged):
each page's blocks, split at the collector's "# --- block N ---" lines,
with only their imports rewritten for the analyzer under test and their
placeholders replaced, each replacement required to be found (a table
that no longer matches its page is an error, not a silent no-op)."""
import json
import os
import re

BLOCK = re.compile(r'^# --- (block \d+[^-]*?) ---\s*$', re.M)
IMPORT = re.compile(r'^(\s*(?:from|import)\s+)(caret_analyze|caret_c)\b', re.M)


def blocks(text):
    """[(label, code)] of a page file, in page order (its header dropped)."""
    parts = BLOCK.split(text)
    return [(parts[k].strip(), parts[k + 1]) for k in range(1, len(parts), 2)]


def page_blocks(path):
    with open(path) as f:
        return blocks(f.read())


def notebook_blocks(path):
    """A notebook's code cells as blocks ('cell N', code)."""
    with open(path) as f:
        cells = [c for c in json.load(f)['cells'] if c['cell_type'] == 'code']
    return [(f'cell {k + 1}', ''.join(c['source'])) for k, c in enumerate(cells)]


def imports_for(code, package):
    """The code with its caret_analyze (or caret_c) imports made package's."""
    return IMPORT.sub(lambda m: m.group(1) + package, code)


def substituted(code, table, found):
    """The code with each (literal, replacement) of table replaced; the
    literals it held are added to found."""
    for literal, replacement in table:
        if literal in code:
            found.add(literal)
            code = code.replace(literal, replacement)
    return code


def page_code(path, package, table, prelude=()):
    """[(label, code)] of a page (or notebook), ready to run: the runner's
    own prelude blocks first (labelled as such), then the page's."""
    read = notebook_blocks if path.endswith('.ipynb') else page_blocks
    found = set()
    out = [(f'prelude {k + 1} (the runner\'s)', imports_for(code, package))
           for k, code in enumerate(prelude)]
    for label, code in read(path):
        out.append((label, imports_for(substituted(code, table, found), package)))
    missing = [literal for literal, _ in table if literal not in found]
    if missing:
        raise ValueError(f'{os.path.basename(path)}: placeholders not in the page: {missing}')
    return out


def page_code_text(text, package):
    """The runner's own blocks (in the pages' form), imports made package's."""
    return [(label, imports_for(code, package)) for label, code in blocks(text)]
