#!/usr/bin/env bash
# Response time's four cases equal the original analyzer's, row for row, on
# 300 random record sets (response_vs_original.py).
# usage: test_response_original.sh RESPONSE_CASES SHARED_DIR
set -uo pipefail
anchor=$2/anchors/caret_analyze-0.7.3.tar.zst
[[ -f $anchor ]] || { echo "FAIL: $anchor missing"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar --zstd -xf "$anchor" -C "$work" || exit 1
PYTHONPATH=$work /usr/bin/python3 "$(dirname "$0")/response_vs_original.py" "$1" 300
