#!/usr/bin/env bash
# Clock offsets a trace can say, hostile or absurd (issue 45, items 9 and
# 10), over two real traces filed as two hosts (va, vb) and read with
# caret check --merge:
#   - vb's metadata offset INT64_MAX: read without a signed overflow (the
#     ASan/UBSan build aborts on one), vb named in a warning of its offset
#     in days, its initialization events placed (moved once, not twice);
#   - vb's offset 57 years before va's: the same warning, its times below 0;
#   - vb's offset a second off va's: no warning;
#   - an offset "nan" or "inf": an error naming it, not a clock at 0.
# usage: test_clock_offsets.sh CARET SHARED_DIR
set -uo pipefail
caret=$1 shared=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# two hosts, vb's clock offset OFFSET (the metadata's text, padded to the
# length of the value it replaces: the metadata's packets keep their size)
hosts() { # OFFSET
	rm -rf "$work/h" && mkdir -p "$work/h"
	cp -r "$shared/data/real-humble/caret-fork-inter" "$work/h/va"
	cp -r "$shared/data/real-humble/caret-upstream-inter" "$work/h/vb"
	python3 - "$work/h" "$1" <<'PY'
import re, sys
root, offset = sys.argv[1], sys.argv[2]
for host in ('va', 'vb'):
    path = f'{root}/{host}/ust/uid/0/64-bit/metadata'
    data = open(path, 'rb').read().replace(b'hostname = "vm"', f'hostname = "{host}"'.encode())
    if host == 'vb':
        m = re.search(rb'offset = (\d+);', data)
        value = offset.encode() + b';'
        value += b' ' * (len(m.group(1)) + 1 - len(value))
        assert len(value) == len(m.group(1)) + 1, 'the offset is longer than the one replaced'
        data = data[:m.start(1)] + value + data[m.end(1) + 1:]
    open(path, 'wb').write(data)
PY
}

va=$(grep -ao 'offset = [0-9]*;' "$shared/data/real-humble/caret-fork-inter/ust/uid/0/64-bit/metadata" |
	tr -dc 0-9)

check() { # NAME OFFSET EXPECTED_STATUS GREP... (a line each must match; !WORDS: none may)
	local name=$1 offset=$2 want=$3 before=$failures
	shift 3
	hosts "$offset"
	"$caret" check --merge "$work/h" >"$work/out" 2>&1
	local status=$?
	if ((status != want)); then
		fail "$name: exit $status, expected $want: $(grep -m3 -E 'error|runtime' "$work/out")"
		return
	fi
	for words in "$@"; do
		if [[ $words == !* ]]; then
			grep -qF -- "${words#!}" "$work/out" && fail "$name: says '${words#!}'"
		else
			grep -qF -- "$words" "$work/out" || fail "$name: does not say '$words'"
		fi
	done
	((failures > before)) || echo "ok $name"
}

check "offset INT64_MAX" 9223372036854775807 0 \
	"warning: host vb: its clock offset from the epoch is 85973.4 days off the first host's" \
	"!could not be placed" "!runtime error"
check "offset 57 years after" $((va + 57 * 365 * 86400 * 1000000000)) 0 \
	"warning: host vb: its clock offset from the epoch is 20805.0 days off" "!could not be placed"
# before the first host's clock's start: vb's times fall below 0 (modulo
# 2^64, as a host put on an earlier one's: real_*_hosts' vm), its
# initialization events with them
check "offset 57 years before" $((va - 57 * 365 * 86400 * 1000000000)) 0 \
	"warning: host vb: its clock offset from the epoch is -20805.0 days off" \
	"!could not be placed"
check "offset a second after" $((va + 1000000000)) 0 "hosts: 2" "!host vb: its clock offset"
check "offset nan" nan 1 "the clock's offset 'nan' is not an integer" "!result: ok"
check "offset inf" inf 1 "the clock's offset 'inf' is not an integer" "!result: ok"
exit $((failures > 0))
