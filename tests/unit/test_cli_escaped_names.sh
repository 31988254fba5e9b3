#!/usr/bin/env bash
# Names with control characters (issue 45, item 10): a node renamed
# "/si<newline>k" in a copy of a real trace (the same length: its stream's
# framing kept) and a named path "sensor<newline>to<tab>sink" in an
# architecture file. Every text table and line that shows them shows \n and
# \t (cli_name): a name never starts a line of its own. The JSON keeps the
# names as they are (escaped by JSON's rules).
# usage: test_cli_escaped_names.sh CARET SHARED_DIR SOURCE_DIR
set -uo pipefail
caret=$1 shared=$2 src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

cp -r "$shared/data/real-humble/caret-fork-inter" "$work/t"
python3 - "$work/t/ust/uid/0/64-bit" <<'PY'
import glob, sys
renamed = 0
for path in glob.glob(sys.argv[1] + '/ch0_*'):
    data = open(path, 'rb').read()
    renamed += data.count(b'\x00sink\x00')
    open(path, 'wb').write(data.replace(b'\x00sink\x00', b'\x00si\nk\x00'))
assert renamed, 'no node name "sink" in the streams'
PY
sed 's|path_name: sensor_to_sink|path_name: "sensor\\nto\\tsink"|' \
	"$src/tests/data/arch/real-sensor-sink.yaml" >"$work/arch.yaml"

# shows CASE WORDS COMMAND...: the text output holds WORDS (escaped names)
# and no line that a name's control character began
shows() {
	local case=$1 words=$2
	shift 2
	"$@" >"$work/out" 2>&1
	grep -qF -- "$words" "$work/out" || fail "$case: no '$words' in: $(head -c 600 "$work/out")"
	if grep -qE '^k([/ '"'"':\]]|$)' "$work/out" || grep -qP '\t|\x1b' "$work/out"; then
		fail "$case: a name's newline or tab printed raw: $(grep -nE '^k' "$work/out")"
	fi
}
shows "latency callbacks" '/si\nk/callback_0' "$caret" latency callbacks "$work/t"
shows "summary nodes" '/si\nk' "$caret" summary nodes "$work/t"
shows "check" '/si\nk' "$caret" check "$work/t"
shows "path search" '[/topic_b] -> /si\nk' "$caret" path search --from /sensor \
	--to "$(printf '/si\nk')" "$work/t"
shows "path latency" "/si\\nk's callback" "$caret" path latency \
	--nodes "$(printf '/sensor,/filter,/si\nk')" "$work/t"
shows "verify_paths" '[sensor\nto\tsink]' "$caret" verify_paths "$work/arch.yaml"
# JSON: the name itself, in JSON's escapes
"$caret" summary nodes --format json "$work/t" | grep -qF '"/si\u000ak"' ||
	fail "summary nodes --format json: the name not as JSON says it"
exit $((failures > 0))
