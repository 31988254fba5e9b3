#!/usr/bin/env bash
# The type hashes the control endpoints announce (src/control/control.c)
# are those of the original caret_msgs (the humble-caret tree ships its
# IDL), computed as Jazzy's rosidl computes them; the method is first
# checked on std_msgs/String, whose hash Jazzy installs.
# usage: test_caret_msgs_type_hash.sh SOURCE_DIR ROS_ROOT
set -uo pipefail
source_dir=$1 root=$2
for f in "$root/jazzy/setup.bash" "$root/humble-caret/share/caret_msgs/msg/Start.idl"; do
	[[ -f $f ]] || { echo "SKIP: $f missing ('make deps' installs the ROS 2 trees)"; exit 77; }
done
set +u
# shellcheck disable=SC1091
. "$root/jazzy/setup.bash"
set -u
rihs01=(/usr/bin/python3 "$source_dir/tests/unit/rihs01.py")
want=$(grep -o 'RIHS01_[0-9a-f]*' "$root/jazzy/share/std_msgs/msg/String.json" | head -1)
got=$("${rihs01[@]}" "$root/jazzy/share/std_msgs" String | cut -d' ' -f2)
[[ -n $want && $got == "$want" ]] || { echo "the method gives $got for std_msgs/String, Jazzy says $want"; exit 1; }
failures=0
while read -r name hash; do
	macro=TYPE_HASH_$(tr '[:lower:]' '[:upper:]' <<<"$name")
	if grep -q "#define $macro \"$hash\"" "$source_dir/src/control/control.c"; then
		echo "ok $name $hash"
	else
		echo "FAIL $name: control.c does not have $macro \"$hash\""
		failures=$((failures + 1))
	fi
done < <("${rihs01[@]}" "$root/humble-caret/share/caret_msgs" Start End Status)
((failures == 0))
