#!/usr/bin/env bash
# Hostile input for the analyzer (issue 14): damaged traces and
# architecture files end in one line naming the problem and exit 1, within
# seconds, never a hang or an abort.
#   - the recipes of tests/data/bad/traces.txt applied to a real trace
#   - a stream file removed, its index kept: every verb, both readers
#   - 60 traces with random bytes overwritten (seeded): exit 0 or 1 only
#   - timestamps flipped 146 years ahead: refused against the index, and
#     read in seconds without it (per-second loops are per event now)
#   - a stream file copied beside itself, a FIFO, a directory and /dev/zero
#     in a stream's place, with both readers
#   - a recording read twice: a host's session copied beside it (--merge),
#     a trace directory copied in its recording, a folder given twice
#   - a trace directory the user may not read (as nobody, when root)
#   - tests/data/bad/*.yaml (each says what it expects), a directory, a
#     device and a FIFO given as the file, a million levels of nesting, and
#     a generated 40,000-node file (its check was quadratic: over four
#     minutes; now well under a second)
#   - caret report of a named path the trace cannot follow: exit 1
# usage: test_bad_input.sh BIN_DIR SOURCE_DIR SHARED_DIR
set -uo pipefail
bin=$1 src=$2 shared=$3
caret=$bin/caret
bad=$src/tests/data/bad
base=$shared/data/real-humble/caret-fork-inter
work=$(mktemp -d)
trap 'chmod -R u+rwx "$work"; rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

[[ -d $base ]] || { echo "no $base: cannot test damaged traces"; exit 1; }

fresh() { # a writable copy of the base trace in $work/t; its stream directory
	rm -rf "$work/t"
	cp -r "$base" "$work/t"
	chmod -R u+w "$work/t"
	echo "$work/t/ust/uid/0/64-bit"
}

# expect_error NAME EXPECTED CMD...: exit 1, one line with EXPECTED, in 30 s
expect_error() {
	local name=$1 expected=$2
	shift 2
	timeout 30 "$@" >"$work/out" 2>"$work/err"
	local status=$?
	if ((status != 1)) || (($(wc -l <"$work/err") != 1)) || ! grep -qF -- "$expected" "$work/err"; then
		fail "$name: exit $status (124: hung, 134: aborted): $(head -c 400 "$work/err")"
	else
		echo "ok $name: $(cat "$work/err")"
	fi
}

# ---- damaged framing: the recipes -------------------------------------------
while IFS='|' read -r name file action expected; do
	name=$(echo $name) file=$(echo $file) expected=$(echo "$expected" | sed 's/^ *//; s/ *$//')
	[[ -z $name || $name == \#* ]] && continue
	dir=$(fresh)
	read -r verb a b <<<"$action"
	case $verb in
	truncate) truncate -s "$a" "$dir/$file" ;;
	empty) : >"$dir/$file" ;;
	remove) rm "$dir/$file" ;;
	from) cp "$shared/data/real-humble/$a/ust/uid/0/64-bit/$file" "$dir/$file" ;;
	write) printf "$(echo "$b" | sed 's/../\\x&/g')" |
		dd of="$dir/$file" bs=1 seek="$a" conv=notrunc status=none ;;
	*) fail "$name: unknown action $verb"; continue ;;
	esac
	expect_error "trace $name" "$expected" "$caret" check "$work/t"
done <"$bad/traces.txt"

# a stream file removed, its index kept: every verb, with either reader,
# says which file is missing (caret check said "ok" over the rest's events
# on caret-fork-intra, caret report tripped UBSan)
for reader in native babeltrace2; do
	for verb in check "summary events" arch "latency callbacks" "path search --from /sensor --to /sink" \
		"report -o $work/r.html" "export --format chrome-trace -o $work/r.json"; do
		dir=$(fresh)
		rm "$dir/ch0_0"
		# shellcheck disable=SC2086 # the verb's words
		expect_error "$reader: $verb of a trace without a stream file" \
			"64-bit/ch0_0: missing: its index (index/ch0_0.idx)" \
			"$caret" $verb --reader "$reader" "$work/t"
	done
done

# a stream of another trace through babeltrace2 too (the framing check
# comes first: babeltrace2 read it as this trace's)
dir=$(fresh)
printf '\xff' | dd of="$dir/ch0_1" bs=1 seek=9 conv=notrunc status=none
expect_error "babeltrace2: a packet of another UUID" \
	"ch0_1: the packet at byte 0 is of another trace: its UUID 5521616e-2cff" \
	"$caret" latency callbacks --reader babeltrace2 "$work/t"

# metadata cut at a packet's end (the session daemon killed mid-recording):
# babeltrace2's own words were only that it cannot create the trace
dir=$(fresh)
truncate -s 8192 "$dir/metadata"
expect_error "babeltrace2: metadata cut at a packet's end" \
	"metadata:299: expected ';', but the metadata ends there: it was cut" \
	"$caret" check --reader babeltrace2 "$work/t"

# ---- random damage: no hang, no abort, and an error says so in one line ----
counts=(0 0)
for seed in $(seq 1 60); do
	dir=$(fresh)
	files=("$dir"/ch0_0 "$dir"/ch0_1 "$dir"/metadata "$dir"/index/ch0_0.idx)
	target=${files[$((seed % 4))]}
	size=$(stat -c %s "$target")
	RANDOM=$seed
	for _ in 1 2 3 4 5 6 7 8; do
		printf "\\x$(printf %02x $((RANDOM % 256)))" |
			dd of="$target" bs=1 seek=$(((RANDOM * 32768 + RANDOM) % size)) conv=notrunc status=none
	done
	timeout 30 "$caret" check "$work/t" >/dev/null 2>"$work/err"
	status=$?
	if ((status > 1)) || { ((status == 1)) && (($(wc -l <"$work/err") > 1)); }; then
		fail "random damage seed $seed ($target): exit $status: $(head -c 400 "$work/err")"
	else
		counts[status]=$((counts[status] + 1))
	fi
done
echo "ok random damage: 60 traces, ${counts[0]} read, ${counts[1]} refused in one line"

# ---- damaged timestamps (issue 31) -----------------------------------------
# Bit 62 flipped in the 64-bit timestamps of ch0_1 from byte 33000 on (the
# extended event headers: id 0xffff, then a 32-bit id and a time inside the
# packet's range) and in its packet's timestamp_end: half the stream jumps
# 146 years ahead, in order. The frequency loop once ran once per second of
# that span (28 s here, minutes under ASan).
dir=$(fresh)
flips=$(/usr/bin/python3 - "$dir/ch0_1" <<'PY'
import struct, sys
path = sys.argv[1]
d = bytearray(open(path, 'rb').read())
begin, end, content = struct.unpack_from('<QQQ', d, 32)
at = [40] + [i + 6 for i in range(33000, content // 8 - 14)
             if struct.unpack_from('<H', d, i)[0] == 0xffff
             and begin <= struct.unpack_from('<Q', d, i + 6)[0] <= end
             and struct.unpack_from('<I', d, i + 2)[0] < 500]
for i in at:
    d[i + 7] ^= 0x40
open(path, 'wb').write(d)
print(len(at))
PY
)
((flips >= 3)) || fail "damaged timestamps: only $flips timestamps found to flip"
expect_error "timestamps against the index" "ch0_1.idx: entry 0 does not match the packet at byte 0 of ch0_1 (timestamp_end differs" \
	"$caret" latency callbacks "$work/t"
mv "$dir/index" "$work/index-moved" # as the message says: read without it
# (the first line names the trace folder: another one here)
"$caret" latency callbacks "$base" | tail -n +2 | cut -c1-110 >"$work/expected"
start=$SECONDS
if timeout 20 "$caret" latency callbacks "$work/t" >"$work/out" 2>"$work/err" &&
   tail -n +2 "$work/out" | cut -c1-110 | cmp -s - "$work/expected" &&
   timeout 20 "$caret" report -o "$work/report.html" "$work/t" 2>"$work/err"; then
	echo "ok timestamps 146 years ahead: latency callbacks and report in $((SECONDS - start)) s," \
		"the latencies unchanged"
else
	fail "timestamps 146 years ahead: exit $? (124: over 20 s): $(head -c 400 "$work/err")"
fi
rm -rf "$work/index-moved"

# ---- stream files that are not streams (issue 31) ---------------------------
# A copy beside its stream doubled every latency and frequency; a FIFO, a
# directory or /dev/zero in a stream's place was skipped without a word
# (or blocked, or read forever). Both readers check the folder first.
for reader in native babeltrace2; do
	dir=$(fresh)
	cp "$dir/ch0_0" "$dir/ch0_0_dup"
	expect_error "$reader: stream copied beside itself" \
		"ch0_0 and ch0_0_dup hold the same stream (stream class 0, instance 0)" \
		"$caret" check --reader "$reader" "$work/t"
	for kind in FIFO directory "character device"; do
		dir=$(fresh)
		rm "$dir/ch0_0"
		case $kind in
		FIFO) mkfifo "$dir/ch0_0" ;;
		directory) mkdir "$dir/ch0_0" ;;
		*) ln -s /dev/zero "$dir/ch0_0" ;;
		esac
		expect_error "$reader: stream file a $kind" \
			"64-bit/ch0_0: a $kind where a stream file is expected" \
			"$caret" check --reader "$reader" "$work/t"
	done
done

# ---- a recording read twice (issue 45) ---------------------------------------
# lttng-relayd's layout, OUTPUT/HOSTNAME/SESSION: a copy of hostA's session
# filed beside it was read as more of hostA (every callback counted twice,
# at twice its frequency, "ok"); so was one folder given twice
hosts=$work/relayed
mkdir -p "$hosts/hostA" "$hosts/hostB"
cp -r "$shared/data/real-humble/caret-fork-intra" "$hosts/hostA/s1"
cp -r "$base" "$hosts/hostB/s1"
chmod -R u+w "$hosts"
if timeout 30 "$caret" check --merge "$hosts" >"$work/out" 2>"$work/err"; then
	echo "ok two recordings merged: $(tail -1 "$work/out")"
else
	fail "two recordings merged: $(head -c 400 "$work/err")"
fi
cp -r "$hosts/hostA/s1" "$hosts/hostA/s1-copy"
for reader in native babeltrace2; do
	for verb in check "latency callbacks"; do
		# shellcheck disable=SC2086 # the verb's words
		expect_error "$reader: $verb of a host's session and its copy" \
			"$hosts/hostA/s1-copy and $hosts/hostA/s1 hold the same recording" \
			"$caret" $verb --merge --reader "$reader" "$hosts"
	done
done
rm -rf "$hosts/hostA/s1-copy"
cp -r "$hosts/hostB/s1/ust/uid/0/64-bit" "$hosts/hostB/s1/ust/uid/0/64-bit-copy"
expect_error "a trace directory and its copy in one recording" \
	"$hosts/hostB/s1/ust/uid/0/64-bit and $hosts/hostB/s1/ust/uid/0/64-bit-copy hold the same recording" \
	"$caret" check "$hosts/hostB/s1"
rm -rf "$hosts/hostB/s1/ust/uid/0/64-bit-copy"
expect_error "one folder given twice" "$hosts/hostB/s1/ust/uid/0/64-bit is read twice" \
	"$caret" latency callbacks "$hosts/hostB/s1" "$hosts/hostB/s1"
expect_error "one folder reached through two paths" "$hosts/hostB/s1/ust/uid/0/64-bit is read twice" \
	"$caret" check --merge "$hosts" "$hosts/hostB/s1"

# ---- a trace the user may not read ------------------------------------------
if ((EUID == 0)) && id nobody >/dev/null 2>&1; then
	fresh >/dev/null
	chmod 755 "$work"
	cp "$caret" "$work/caret"
	chmod 700 "$work/t/ust"
	expect_error "unreadable directory" "permission denied" runuser -u nobody -- "$work/caret" check "$work/t"
	chmod 700 "$work/t"
	expect_error "unreadable trace" "Permission denied" runuser -u nobody -- "$work/caret" check "$work/t"
	chmod 755 "$work/t" "$work/t/ust"
	chmod 600 "$work/t/ust/uid/0/64-bit/metadata"
	expect_error "unreadable metadata" "metadata: Permission denied" runuser -u nobody -- "$work/caret" check "$work/t"
fi

# ---- architecture files ------------------------------------------------------
for f in "$bad"/*.yaml; do
	expected=$(sed -n 's/^# expect: //p' "$f")
	expect_error "arch $(basename "$f")" "$expected" "$caret" arch --check "$f"
done
expect_error "arch directory" "is a directory, not an architecture file" "$caret" arch --check "$work"
expect_error "arch device" "is not a regular file" "$caret" arch --check /dev/zero
mkfifo "$work/arch-fifo"
expect_error "arch FIFO" "arch-fifo is a FIFO, not an architecture file" \
	"$caret" arch --check "$work/arch-fifo"
rm "$work/arch-fifo"
# a million levels of nesting took libyaml's loader over 30 s
/usr/bin/python3 -c 'import sys; n = 1000000; sys.stdout.write("named_paths: " + "[" * n + "]" * n + "\n")' \
	>"$work/deep.yaml"
start=$SECONDS
expect_error "arch 1,000,000 levels" "deep.yaml:1: nested more than 64 deep" \
	"$caret" arch --check "$work/deep.yaml"
((SECONDS - start < 10)) || fail "arch 1,000,000 levels: $((SECONDS - start)) s"
# a named path the trace cannot follow: the report is written, and says so
# on stderr with exit 1 (it once exited 0, the error only in the page)
"$caret" arch "$base" | sed 's|^named_paths: \[\]|named_paths:\
- path_name: ghost\
  node_chain:\
  - node_name: /sensor\
    publish_topic_name: /topic_a\
  - node_name: /ghost\
    subscribe_topic_name: /topic_a|; s|^nodes:$|nodes:\
- node_name: /ghost|' >"$work/ghost.yaml"
expect_error "report of a path not in the trace" \
	"caret report: path ghost: no node /ghost in the trace (its nodes: " \
	"$caret" report --arch "$work/ghost.yaml" --path ghost -o "$work/ghost.html" "$base"
[[ -s $work/ghost.html ]] || fail "report of a path not in the trace: no page written"
awk 'BEGIN {
	n = 40000
	print "named_paths:\n- path_name: p\n  node_chain:"
	for (i = 0; i < 500; i++) printf "  - node_name: /n%d\n    publish_topic_name: /t%d\n", i, i
	print "executors:\n- executor_type: single_threaded_executor\n  executor_name: e\n  callback_group_names:"
	for (i = 0; i < n; i++) printf "  - /n%d/g\n", i
	print "nodes:"
	for (i = 0; i < n; i++) {
		printf "- node_name: /n%d\n  callback_groups:\n  - callback_group_type: mutually_exclusive\n", i
		printf "    callback_group_name: /n%d/g\n    callback_names:\n    - /n%d/c\n", i, i
		printf "  callbacks:\n  - callback_name: /n%d/c\n    callback_type: timer_callback\n", i
		printf "    period_ns: 100000000\n    symbol: f\n"
	}
}' >"$work/large.yaml"
# (an ASan build's slow unwinding at each malloc, which only babeltrace2's
# leak suppression needs, costs this check of 400,000 YAML nodes 20 times)
fast_unwind=${ASAN_OPTIONS:-}
fast_unwind=${fast_unwind//fast_unwind_on_malloc=0/fast_unwind_on_malloc=1}
if timeout 20 env ASAN_OPTIONS="$fast_unwind" \
	"$caret" arch --check "$work/large.yaml" >"$work/out" 2>"$work/err" &&
   grep -q "40000 nodes, 40000 callback groups, 40000 callbacks" "$work/out"; then
	echo "ok arch 40,000 nodes: $(cat "$work/out")"
else
	fail "arch 40,000 nodes: exit $? (124: over 20 s): $(cat "$work/err")"
fi

# ---- load options -----------------------------------------------------------
# expect_usage NAME EXPECTED CMD...: exit 2 and one line with EXPECTED
expect_usage() {
	local name=$1 expected=$2 status
	shift 2
	timeout 30 "$@" >"$work/out" 2>"$work/err"
	status=$?
	if ((status != 2)) || (($(wc -l <"$work/err") != 1)) || ! grep -qF -- "$expected" "$work/err"; then
		fail "$name: exit $status: $(head -c 400 "$work/err")"
	else
		echo "ok $name: $(cat "$work/err")"
	fi
}
expect_usage "reader unknown" "unknown reader 'bt'" "$caret" check --reader bt "$base"
expect_usage "since not seconds" "caret check: bad value 'soon' for --since: not a number (seconds" \
	"$caret" check --since soon "$base"
expect_usage "strip negative" "bad value '-1' for --strip-end: negative" "$caret" check \
	--strip-end=-1 "$base"
expect_usage "since after until" "--until 2 must be later than --since 3" "$caret" latency callbacks \
	--since 3 --until 2 "$base"
expect_usage "window without a value" "--until needs a value" "$caret" check "$base" --until
# a window leaves runtime events out, says how many, and keeps the architecture
if "$caret" summary events --since 1 --until 2 "$base" >"$work/out" 2>"$work/err" &&
   grep -q "note: the time window left out [0-9]* runtime events" "$work/err" &&
   "$caret" arch "$base" >"$work/a1" && "$caret" arch --strip-start 3 "$base" >"$work/a2" 2>/dev/null &&
   cmp -s "$work/a1" "$work/a2"; then
	echo "ok window: $(cat "$work/err"); the architecture unchanged"
else
	fail "window: $(cat "$work/err")"
fi

# a trace without service calls or action goals: the (empty) table under
# the trace line, exit 0,
# and a note saying what would have filled it
for kind in services actions; do
	if "$caret" latency "$kind" "$base" >"$work/out" 2>"$work/err" &&
	   (($(wc -l <"$work/out") == 2)) && grep -q "^note: no .* in the trace" "$work/err"; then
		echo "ok latency $kind of none: $(cat "$work/err")"
	else
		fail "latency $kind of none: $(cat "$work/out" "$work/err")"
	fi
done

# metadata the native reader does not support (a big-endian bit field, in
# an alias nothing uses) but babeltrace2 reads: read through babeltrace2,
# with one note saying why, and the same tables
dir=$(fresh)
/usr/bin/python3 - "$dir/metadata" <<'PY'
import struct, sys
path = sys.argv[1]
raw, text, at = open(path, 'rb').read(), b'', 0
while at < len(raw):  # LTTng's metadata packets: a 37-byte header each
    content, packet = struct.unpack_from('<II', raw, at + 24)
    text += raw[at + 37:at + content // 8]
    at += packet // 8
alias = b'typealias integer { size = 5; align = 1; signed = false; byte_order = be; } := be5_t;\n'
open(path, 'wb').write(text.replace(b'trace {', alias + b'trace {', 1))
PY
if "$caret" summary events "$work/t" >"$work/out" 2>"$work/err" &&
   grep -q "note: read through babeltrace2: .*unsupported big-endian bit field" "$work/err" &&
   (($(wc -l <"$work/err") == 1)) &&
   "$caret" summary events --reader babeltrace2 "$base" | tail -n +2 |
	cmp -s - <(tail -n +2 "$work/out"); then # the first lines name two folders
	echo "ok fallback: $(cat "$work/err")"
else
	fail "fallback: $(head -c 400 "$work/err")"
fi

echo "$failures failures"
((failures == 0))
