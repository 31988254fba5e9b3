#!/usr/bin/env bash
# examples/notebook/caret_c_tour.ipynb executed headless as a user runs it
# (nbconvert --execute, Debian's nbclient and ipykernel): fails on any
# cell's error, and every plot cell must have drawn its figure (a PNG).
# usage: test_example_notebook.sh LIBRARY SOURCE_DIR SHARED_DIR [NOTEBOOK RUN_DIR]
#   NOTEBOOK RUN_DIR: another example notebook, run from RUN_DIR (a copy of it
#   there: test_real_tutorial runs caret_tutorial.ipynb beside its recording)
set -uo pipefail
library=$1 source=$2 shared=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
notebook=${4:-$source/examples/notebook/caret_c_tour.ipynb}
if (($# > 4)); then
	cp "$notebook" "$5/" || exit 1
	notebook=$5/$(basename "$notebook")
fi
CARET_ANALYZE_LIBRARY=$library PYTHONPATH=$source/python \
	CARET_EXAMPLE_TRACE=$shared/data/real-humble/caret-fork-inter PYDEVD_DISABLE_FILE_VALIDATION=1 \
	/usr/bin/python3 -Xfrozen_modules=off -m nbconvert --to notebook --execute \
	--ExecutePreprocessor.timeout=120 --output-dir "$work" "$notebook" 2>"$work/err" ||
	{ tail -n 30 "$work/err"; echo "FAIL: the notebook did not run through"; exit 1; }
/usr/bin/python3 - "$work/$(basename "$notebook")" <<'PY'
import sys
import nbformat
nb = nbformat.read(sys.argv[1], 4)
code = [c for c in nb.cells if c.cell_type == 'code']
plots = [c for c in code if 'Plot.create_' in c.source]
drawn = [c for c in plots if any('image/png' in o.get('data', {}) for o in c.outputs)]
errors = [o for c in code for o in c.outputs if o.output_type == 'error']
print(f'{len(code)} code cells run, {len(errors)} errors; {len(drawn)} of {len(plots)} plots drawn')
sys.exit(0 if not errors and plots and len(drawn) == len(plots) else 1)
PY
