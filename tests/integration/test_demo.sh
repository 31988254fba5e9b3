#!/usr/bin/env bash
# `make demo`'s script records every schema event and prints the counts.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
CARET_TRACE_DIR=$out/trace "$CARET_SOURCE_DIR/scripts/demo.sh" "$CARET_BUILD_DIR" >"$out/stdout"
cat "$out/stdout"
grep -Eq '^total [0-9]+ events, ([0-9]+) of \1 schema events recorded, 0 discarded$' "$out/stdout"
grep -Eq '^ros2:rcl_init +1$' "$out/stdout"
grep -Eq '^ros2_caret:merged_publish_timing +1$' "$out/stdout"
[[ -f $(find "$out/trace" -name metadata | head -n 1) ]]
