#!/usr/bin/env bash
# docs/trace-format.md lists every event of the schema table with its role
# and fields, exactly as `gen_tp --list` prints them, and no other event row.
set -euo pipefail
gen_tp=$1 doc=$2
want=$("$gen_tp" --list | awk '{f=""; for (i = 3; i <= NF; i++) f = f (i > 3 ? ", " : "") $i
	if (f == "") f = "(none)"; print "| `" $1 "` | " $2 " | " f " |"}')
have=$(grep -E '^\| `ros2(_caret)?:[a-z_]+` \| (init|runtime|merged|meta) \|' "$doc")
if ! diff <(echo "$want") <(echo "$have"); then
	echo "docs/trace-format.md disagrees with the schema table (< schema, > doc)"
	exit 1
fi
echo "$(echo "$want" | wc -l) events documented as in the schema"
