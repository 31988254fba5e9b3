#!/usr/bin/env bash
# Damaged copies of a trace, read by both CTF readers: seed by seed, a copy
# gets 1 to 8 random bits flipped, in the metadata (every fourth seed) or in
# one of its stream files; `ctf_reader_diff --damaged` must then find both
# readers ending the same way with the same events (or the native reader
# handing metadata it does not support to babeltrace2), never a crash; and
# the native reader alone must end with a result or an error, leaking
# nothing (in the ASan build: libbabeltrace2 leaks on some damaged
# metadata, so the comparison runs without leak detection).
# With LEAN_DIFF, the analyzer's two loads too (`lean_diff --damaged`):
# both end with an error naming the damage, or both load the same.
# usage: damaged_copies.sh CTF_READER_DIFF TRACE FIRST_SEED LAST_SEED [LEAN_DIFF]
set -euo pipefail
diff_tool=$1 trace=$2 first=$3 last=$4 lean_tool=${5:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
# check WHAT MAX_STATUS LEAKS CMD...: a failure when CMD exits above
# MAX_STATUS (LEAKS: 0, no leak detection in the ASan build)
check() {
	local what=$1 max=$2 leaks=$3 status=0
	shift 3
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=$leaks \
		timeout 120 "$@" >"$work/out" 2>&1 || status=$?
	if ((status > max)); then
		echo "FAIL: seed $seed (${target#"$work/f/"}): $what: exit $status"
		head -c 2000 "$work/out"
		failures=$((failures + 1))
	fi
}
for seed in $(seq "$first" "$last"); do
	rm -rf "$work/f"
	cp -r "$trace" "$work/f"
	chmod -R u+w "$work/f"
	dir=$(dirname "$(find "$work/f" -name metadata | sort | head -1)")
	mapfile -t streams < <(find "$dir" -maxdepth 1 -type f ! -name metadata -printf '%f\n' | sort)
	if ((seed % 4 == 0)); then
		target=$dir/metadata
	else
		target=$dir/${streams[$((seed % ${#streams[@]}))]}
	fi
	/usr/bin/python3 - "$target" "$seed" <<'PY'
import random, sys
path, seed = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, 'rb').read())
rng = random.Random(seed)
for _ in range(rng.randint(1, 8)):
    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
open(path, 'wb').write(data)
PY
	check "both readers" 0 0 "$diff_tool" --damaged "$work/f"
	# damaged metadata may go to babeltrace2, which leaks on some
	leaks=1
	[[ $target == */metadata ]] && leaks=0
	[[ -z $lean_tool ]] ||
		check "the loads keeping the runtime events and not" 0 $leaks "$lean_tool" --damaged "$work/f"
	check "the native reader alone" 2 1 "$diff_tool" --native-only "$work/f"
done
echo "damaged copies $first..$last of $trace: $failures where the readers disagree or crash"
((failures == 0))
