#!/usr/bin/env bash
# tb-gen makes a seedable random system; a 20-process x 10-node one runs on
# this machine: every process stops cleanly, every node runs callbacks, and
# chains end with end-to-end latencies in the ground truth.
set -euo pipefail
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin/tb-gen" --processes 20 --nodes 10 --seed 7 -o "$work/a.yaml"
"$bin/tb-gen" --processes 20 --nodes 10 --seed 7 -o "$work/b.yaml"
"$bin/tb-gen" --processes 20 --nodes 10 --seed 8 -o "$work/c.yaml"
cmp -s "$work/a.yaml" "$work/b.yaml" || { echo "same seed, different systems"; exit 1; }
! cmp -s "$work/a.yaml" "$work/c.yaml" || { echo "different seeds, same system"; exit 1; }
"$bin/tb-launch" "$work/a.yaml" --check

"$bin/tb-launch" "$work/a.yaml" --duration 5 --truth "$work/truth"
nodes=$(grep -c '^      - name: n' "$work/a.yaml")
ran=$(awk -F, 'FNR > 1 { n[$2] } END { print length(n) }' "$work"/truth/*.callbacks.*.csv)
ends=$(awk -F, 'FNR > 1' "$work"/truth/*.e2e.*.csv | wc -l)
echo "$nodes nodes described, $ran ran callbacks, $ends chain ends recorded"
((nodes == 200 && ran == nodes && ends > 0))
