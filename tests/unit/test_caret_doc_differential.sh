#!/usr/bin/env bash
# caret_doc's tutorial and how-to pages (tests/data/caret_doc) under the
# original analyzer (shared/anchors, caret_analyze 0.7.3) and under caret_c
# on the three CARET traces of shared/data/real-humble, their placeholders
# pointed at the pipeline's names (caret_doc_vs_original.py). The fourth,
# a plain ros2_tracing trace, is left out: the original refuses it at the
# pages' first Lttng() (caret-c reads it: docs/dev/original-architecture.md),
# so no later block would compare. test_real_tutorial runs the pages on
# the tutorial's own system.
# usage: test_caret_doc_differential.sh LIBRARY SOURCE_DIR SHARED_DIR
set -uo pipefail
library=$(realpath "$1") source=$2 shared=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
anchor=$shared/anchors/caret_analyze-0.7.3.tar.zst
[[ -f $anchor ]] || { echo "FAIL: $anchor missing"; exit 1; }
[[ -f $library ]] || { echo "FAIL: $library missing (build caret_analyze_shared)"; exit 1; }
tar --zstd -xf "$anchor" -C "$work" || exit 1
failures=0
for trace in caret-fork-inter caret-fork-intra caret-upstream-inter; do
	# a second host for the pages' multi-host calls: another recording
	host1=caret-fork-inter
	[[ $trace == caret-fork-inter ]] && host1=caret-fork-intra
	echo "== $trace"
	CARET_ANALYZE_LIBRARY=$library /usr/bin/python3 "$source/tests/unit/caret_doc_vs_original.py" \
		--anchor "$work" --system pipeline --trace "$shared/data/real-humble/$trace" \
		--host1 "$shared/data/real-humble/$host1" || failures=$((failures + 1))
done
echo "$failures traces differ"
((failures == 0))
