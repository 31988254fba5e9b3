#!/usr/bin/env bash
# The native CTF reader on damaged copies of a real trace: a stream cut in
# the middle of a packet is an error that says so; 40 copies with random
# bytes flipped in a stream or in the metadata end with a result or a
# one-line error, never a crash (ctf_reader_diff --native-only exits 0 or 2; the
# ASan build runs this too).
# usage: test_ctf_native_damaged.sh CTF_READER_DIFF TRACE
set -euo pipefail
diff_tool=$1 trace=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$trace" "$work/t"
chmod -R u+w "$work/t"
dir=$(dirname "$(find "$work/t" -name metadata | head -1)")
stream=$dir/ch0_0

size=$(stat -c %s "$stream")
truncate -s $((size / 2 + 13)) "$stream"
status=0
"$diff_tool" --native-only "$work/t" >"$work/out" 2>&1 || status=$?
cat "$work/out"
((status == 2)) && grep -q "native: .*truncated" "$work/out" ||
	{ echo "FAIL: a cut stream should be a 'truncated' error of the native reader"; exit 1; }

crashes=0
for seed in $(seq 1 40); do
	rm -rf "$work/f"
	cp -r "$trace" "$work/f"
	chmod -R u+w "$work/f"
	target=$(dirname "$(find "$work/f" -name metadata | head -1)")/$([[ $((seed % 4)) == 0 ]] && echo metadata || echo ch0_$((seed % 2)))
	/usr/bin/python3 - "$target" "$seed" <<'PY'
import random, sys
path, seed = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, 'rb').read())
rng = random.Random(seed)
for _ in range(rng.randint(1, 8)):
    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
open(path, 'wb').write(data)
PY
	status=0
	"$diff_tool" --native-only "$work/f" >"$work/out" 2>&1 || status=$?
	if ((status > 2)); then
		echo "FAIL: seed $seed ($target): exit $status"
		tail -3 "$work/out"
		crashes=$((crashes + 1))
	fi
done
echo "40 damaged copies: $crashes crashes"
((crashes == 0))
