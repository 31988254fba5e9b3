#!/usr/bin/env bash
# The original's verbs (ros2 caret VERB) under their names (issue 43 item 4),
# on the shared real Humble traces (read only): check_ctf says what caret
# check says, as the original's logger lines, with its exit status and the
# original's own LD_PRELOAD message; node_summary, topic_summary and
# trace_point_summary give caret summary's counts in the original's header
# and presto table, its filters onto the window (the dates the original
# gives on these traces); create_architecture_file writes caret arch's file
# and keeps an existing one without -f; verify_paths; check_caret_rclcpp on
# a workspace of real rclcpp builds; version. Bad options exit 2, nothing
# found exits 1 with one line; --help, docs/cli.md, docs/migrating.md, the
# man pages and the completion name every verb.
# usage: test_cli_ros2caret.sh BIN_DIR SHARED_DIR SOURCE_DIR
set -uo pipefail
caret=$(realpath "$1")/caret shared=$2 src=$3
data=$shared/data/real-humble
real=$data/caret-fork-inter
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TZ=UTC ROS_DISTRO=humble # the dates below; check_caret_rclcpp's Humble
fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}
run() { # EXPECTED_STATUS COMMAND...: stdout in $work/out, stderr in $work/err
	local want=$1 status=0
	shift
	"$@" >"$work/out" 2>"$work/err" || status=$?
	((status == want)) || fail "$*: exit $status, expected $want: $(head -c 300 "$work/err")"
}
has() { # FILE TEXT CASE
	grep -qF -- "$2" "$1" || fail "$3: no '$2' in: $(head -c 400 "$1")"
}
one_line() { # CASE: stderr is one line
	(($(wc -l <"$work/err") == 1)) || fail "$1: $(wc -l <"$work/err") lines on stderr"
}
logged='^(INFO    |WARNING |ERROR   ): [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} \| '

# ---- check_ctf: caret check's findings and status, the original's layout ----
for trace in caret-fork-inter caret-fork-intra caret-upstream-inter tracetools-fork-inter; do
	status=0
	"$caret" check "$data/$trace" >"$work/check" 2>/dev/null || status=$?
	run $status "$caret" check_ctf "$data/$trace"
	[[ -s $work/out ]] && fail "check_ctf $trace: wrote to stdout"
	[[ $(head -1 "$work/err") == "caret check_ctf: trace: $data/$trace" ]] ||
		fail "check_ctf $trace: first line $(head -1 "$work/err")"
	sed 1d "$work/err" | grep -Evq "$logged" && fail "check_ctf $trace: a line not the original's"
	sed -n 's/^  \(warning\|error\): //p' "$work/check" | sort >"$work/findings"
	sed -nE 's/^(WARNING |ERROR   ): [^|]*\| (process [0-9]+ \([^)]*\): )?//p' "$work/err" |
		grep -v '^Failed to find' | sort >"$work/logged"
	cmp -s "$work/findings" "$work/logged" ||
		fail "check_ctf $trace: findings differ: $(diff "$work/findings" "$work/logged" | head -4)"
	grep -E "$logged" "$work/err" | tail -1 | grep -qF "$(sed -n 's/^result: //p' "$work/check")" ||
		fail "check_ctf $trace: result line differs"
done
# only the trace of plain ros2_tracing lacks the tracer's DDS events
grep -q 'Failed to find dds trace point added by LD_PRELOAD. Measurement results will not be correct.' \
	"$work/err" || fail "check_ctf tracetools-fork-inter: the original's message missing"
run 0 "$caret" check_ctf -m 3 "$real"
grep -q 'Failed to find' "$work/err" && fail "check_ctf on the tracer's trace: LD_PRELOAD message"

# ---- the summaries: caret summary's counts, the original's layout --------
table() { # FILE: the table's rows as "name count"
	sed -nE 's/^ (.*[^ ]) +\| +([0-9]+)$/\1 \2/p' "$1"
}
presto() { # FILE CASE: the presto frame, rows sorted by count
	local at header sep
	at=$(grep -n '|   number_of_trace_points$' "$1" | head -1 | cut -d: -f1)
	header=$(sed -n "${at:-1}p" "$1")
	sep=$(sed -n "$((${at:-1} + 1))p" "$1")
	[[ -n $at && $sep =~ ^-+\+-+$ ]] || { fail "$2: no presto header: $(head -c 300 "$1")"; return; }
	((${#sep} == ${#header} + 1)) || fail "$2: the rule not one wider than the header"
	local left=${sep%%+*} name=${header%%|*}
	((${#left} == ${#name})) || fail "$2: the rule's + not under the header's |"
	[[ $header == " ${2%% *} "* ]] || fail "$2: header $header"
	table "$1" | awk '{print $NF}' | sort -c -n -r 2>/dev/null || fail "$2: not sorted by count"
}
header_is() { # FILE CASE LINES...: the header block, as the original gives it
	local file=$1 name=$2
	shift 2
	local want
	want=$(printf '%s\n' "=============================================" "$@" \
		"=============================================" "")
	[[ $(head -n $(($# + 3)) "$file") == "$want" ]] ||
		fail "$name: header: $(head -n $(($# + 3)) "$file")"
}
dates=("Trace creation datetime | 2026-11-21 13:44:38" "Trace range             | 13:44:38 ~ 13:44:44"
	"Trace duration          | 0:00:06")
native_rows() { # KIND [WINDOW...]: caret summary's count column of the original's
	local kind=$1
	shift
	"$caret" summary "$kind" --format csv "$@" "$real" 2>/dev/null | sed 1d |
		awk -F, -v kind="$kind" 'kind == "events" { if ($2 > 0 && $1 !~ /^\(|^total|^discarded/) print $1, $2; next }
			$1 != "(unattributed)" && $NF > 0 { print $1, $NF }' | sort
}
for pair in node_summary:nodes:node_name topic_summary:topics:topic_name \
	trace_point_summary:events:trace_point; do
	IFS=: read -r verb kind column <<<"$pair"
	run 0 "$caret" "$verb" "$real"
	header_is "$work/out" "$verb" "${dates[@]}"
	presto "$work/out" "$column $verb"
	table "$work/out" | awk '$2 > 0' | sort >"$work/alias"
	native_rows "$kind" >"$work/native"
	cmp -s "$work/alias" "$work/native" ||
		fail "$verb: counts differ from caret summary $kind: $(diff "$work/alias" "$work/native" | head -4)"
	[[ $(head -1 "$work/err") == "caret $verb: trace: $real" ]] || fail "$verb: folders on stderr"
done
# trace_point_summary lists the event types with no event too, as the original
run 0 "$caret" trace_point_summary "$real"
grep -qE '^ ros2:rclcpp_intra_publish +\| +0$' "$work/out" || fail "trace_point_summary: no 0 row"
grep -q 'unattributed' "$work/out" && fail "node_summary: (unattributed) listed"
# the filters: the original's duration_filter(2, 1) kept the runs of
# 13:44:39.52 to 13:44:41.43 on this trace; the counts are caret-c's window
run 0 "$caret" node_summary "$real" --duration_filter 2 1
header_is "$work/out" "duration_filter" "${dates[@]}" "Filtered trace range    | 13:44:39 ~ 13:44:41" \
	"Filtered trace duration | 0:00:01"
table "$work/out" | awk '$2 > 0' | sort >"$work/alias"
native_rows nodes --since 1 --until 3 >"$work/native"
cmp -s "$work/alias" "$work/native" || fail "duration_filter: counts differ from --since 1 --until 3"
run 0 "$caret" topic_summary --strip_filter 1 1.5 "$real"
table "$work/out" | awk '$2 > 0' | sort >"$work/alias"
native_rows topics --strip-start 1 --strip-end 1.5 >"$work/native"
cmp -s "$work/alias" "$work/native" || fail "strip_filter: counts differ from --strip-start/--strip-end"
# -c shows the check's warnings, which are hidden without it
run 0 "$caret" node_summary -c "$data/tracetools-fork-inter"
grep -Eq "^WARNING : .*no caret_init" "$work/err" || fail "node_summary -c: no warning"
run 0 "$caret" node_summary "$data/tracetools-fork-inter"
grep -q "^WARNING" "$work/err" && fail "node_summary without -c: warnings shown"
run 2 "$caret" node_summary --duration_filter 2 "$real"
has "$work/err" "--duration_filter takes two numbers, seconds (1 given)" "duration_filter, one value"
run 2 "$caret" node_summary --strip_filter 1 2 3 "$real"
has "$work/err" "(3 given)" "strip_filter, three values"
run 2 "$caret" topic_summary --duration_filter 0 1 "$real"
run 2 "$caret" topic_summary --since 1 --duration_filter 2 1 "$real"
run 2 "$caret" trace_point_summary --frmat "$real"
has "$work/err" "caret trace_point_summary: unrecognized option '--frmat'" "summary bad option"
run 2 "$caret" node_summary
run 1 "$caret" node_summary "$work/none"
one_line "node_summary, no trace"

# ---- create_architecture_file: caret arch's file, kept without -f ------------
"$caret" arch "$real" >"$work/arch.yaml" 2>/dev/null
mkdir "$work/cwd"
(cd "$work/cwd" && "$caret" create_architecture_file "$real" >"$work/out" 2>"$work/err") ||
	fail "create_architecture_file: exit $?"
cmp -s "$work/arch.yaml" "$work/cwd/architecture.yaml" || fail "create_architecture_file: not caret arch's file"
grep -Eq "^INFO    : .* \| Architecture file successfully created. PATH: $work/cwd/architecture.yaml$" \
	"$work/err" || fail "create_architecture_file: $(cat "$work/err")"
echo "mine" >"$work/mine.yaml"
run 1 "$caret" create_architecture_file "$real" -o "$work/mine.yaml"
one_line "create_architecture_file over a file"
has "$work/err" "Failed to create architecture file." "create_architecture_file over a file"
[[ $(cat "$work/mine.yaml") == mine ]] || fail "create_architecture_file without -f overwrote"
run 0 "$caret" create_architecture_file "$real" --output_path "$work/mine.yaml" --force -m 10
cmp -s "$work/arch.yaml" "$work/mine.yaml" || fail "create_architecture_file -f: not overwritten"
run 2 "$caret" create_architecture_file "$real" -m -1
run 2 "$caret" create_architecture_file -o "$work/x.yaml"
run 1 "$caret" create_architecture_file "$work/none" -o "$work/x.yaml"
one_line "create_architecture_file, no trace"

# ---- verify_paths --------------------------------------------------------------
named() { # OUT CONTEXT_TYPE: the trace's file with /sensor -> /filter -> /sink named
	sed -e "s/context_type: callback_chain/context_type: $2/" -e '/^named_paths: \[\]$/d' \
		"$work/arch.yaml" >"$1.tmp"
	{
		printf '%s\n' "named_paths:" "- path_name: sensor_to_sink" "  node_chain:" \
			"  - node_name: /sensor" "    publish_topic_name: /topic_a" \
			"  - node_name: /filter" "    subscribe_topic_name: /topic_a" \
			"    publish_topic_name: /topic_b" "  - node_name: /sink" \
			"    subscribe_topic_name: /topic_b"
		grep -v '^#' "$1.tmp"
	} >"$1"
}
named "$work/chain.yaml" callback_chain
run 0 "$caret" verify_paths "$work/chain.yaml"
[[ $(cat "$work/out") == $'\n=============== [sensor_to_sink] ===============' ]] ||
	fail "verify_paths: stdout $(cat "$work/out")"
grep -Eq "^INFO    : .* \| No problem. CARET can calculate the latency of \`sensor_to_sink\`$" "$work/err" ||
	fail "verify_paths: $(cat "$work/err")"
named "$work/undefined.yaml" UNDEFINED
run 1 "$caret" verify_paths "$work/undefined.yaml" -p sensor_to_sink
grep -Eq '^WARNING : .* \| Detected "message_context is None". .*node_name: /filter' "$work/err" ||
	fail "verify_paths, UNDEFINED: $(cat "$work/err")"
run 1 "$caret" verify_paths "$work/chain.yaml" -p sensor_to_sink nope
has "$work/err" "no named path nope (its named paths: sensor_to_sink)" "verify_paths -p nope"
grep -q "No problem" "$work/err" || fail "verify_paths -p: the known path not verified"
run 1 "$caret" verify_paths "$work/arch.yaml"
one_line "verify_paths, no named path"
has "$work/err" "has no named paths" "verify_paths, no named path"
run 1 "$caret" verify_paths "$work/none.yaml"
one_line "verify_paths, no file"
run 2 "$caret" verify_paths
run 2 "$caret" verify_paths "$work/chain.yaml" -p
run 2 "$caret" verify_paths "$work/chain.yaml" -m x

# ---- check_caret_rclcpp on builds of CARET's rclcpp and upstream's -------------
fork=/opt/ros/humble-caret/lib/librclcpp.so upstream=/opt/ros/humble/lib/librclcpp.so
if [[ -f $fork && -f $upstream ]]; then
	mkdir -p "$work/ws/build/"{fork_pkg/lib,upstream_pkg,plain_pkg}
	cp "$fork" "$work/ws/build/fork_pkg/lib/"
	cp "$upstream" "$work/ws/build/upstream_pkg/"
	cp /bin/true "$work/ws/build/plain_pkg/"
	echo notes >"$work/ws/build/plain_pkg/notes.txt"
	run 0 "$caret" check_caret_rclcpp "$work/ws"
	[[ $(sed -E 's/^WARNING : [^|]*\| //' "$work/err") == \
		$'The following packages have not been built using caret-rclcpp:\n\tupstream_pkg' ]] ||
		fail "check_caret_rclcpp: $(cat "$work/err")"
	rm -r "$work/ws/build/upstream_pkg"
	run 0 "$caret" check_caret_rclcpp --workspace "$work/ws"
	grep -Eq '^INFO    : .* \| All packages are built using caret-rclcpp.$' "$work/err" ||
		fail "check_caret_rclcpp, all CARET's: $(cat "$work/err")"
	rm -r "$work/ws/build/fork_pkg"
	run 1 "$caret" check_caret_rclcpp "$work/ws"
	one_line "check_caret_rclcpp, no ROS binary"
else
	fail "check_caret_rclcpp: no $fork or $upstream (make deps)"
fi
run 1 "$caret" check_caret_rclcpp "$work/none"
one_line "check_caret_rclcpp, no build/"
has "$work/err" '"build" directory not found' "check_caret_rclcpp, no build/"
run 2 "$caret" check_caret_rclcpp

# ---- version, wrong names, help, docs, man pages, completion ------------------
run 0 "$caret" version
[[ $(cat "$work/out") == "$("$caret" --version | sed -n '1s/^caret \([^ ]*\) .*/\1/p')" ]] ||
	fail "version: $(cat "$work/out")"
run 2 "$caret" version --all
run 2 "$caret" check-ctf "$real"
has "$work/err" "caret: unknown verb 'check-ctf'" "a wrong name"
run 2 "$caret" check_ctf --bogus "$real"
run 2 "$caret" check_ctf
run 2 "$caret" check_ctf -m -2 "$real"
run 1 "$caret" check_ctf "$work/none"
one_line "check_ctf, no trace"
run 2 "$caret" record -c
has "$work/err" "no clock recorder" "record -c"
run 2 "$caret" record --subbuffer-size-kernel 131072
has "$work/err" "no kernel" "record --subbuffer-size-kernel"
run 2 "$caret" record --subbuffer-size-ust 5000
has "$work/err" "must be power of two" "record --subbuffer-size-ust"
run 2 "$caret" record -p "$work/base" -o "$work/trace"
verbs="check_ctf check_caret_rclcpp create_architecture_file node_summary topic_summary
	trace_point_summary verify_paths version"
"$caret" --help >"$work/overview"
python3 "$src/packaging/man_pages.py" "$caret" "$work/man" 0 || fail "man pages not written"
for verb in $verbs; do
	run 0 "$caret" "$verb" --help
	grep -q "^  $verb " "$work/overview" || fail "caret --help: $verb missing"
	[[ -s $work/man/caret-$verb.1 ]] || fail "man page caret-$verb.1 missing"
	grep -qF "caret $verb" "$src/docs/cli.md" || fail "docs/cli.md: caret $verb missing"
	grep -qF "$verb" "$src/docs/migrating.md" || fail "docs/migrating.md: $verb missing"
	for opt in $(grep -oE -- '--[a-z][a-z0-9_-]+' "$work/out" | sort -u); do
		grep -qF -- "$opt" "$src/docs/cli.md" || fail "docs/cli.md: caret $verb $opt missing"
	done
	got=$(PATH=$(dirname "$caret"):$PATH bash -c '. "$1/packaging/caret.bash"
		COMP_WORDS=(caret "${2:0:-1}"); COMP_CWORD=1; _caret; echo "${COMPREPLY[*]}"' _ "$src" "$verb")
	[[ " $got " == *" $verb "* ]] || fail "completion: $verb not offered ($got)"
done
got=$(PATH=$(dirname "$caret"):$PATH bash -c '. "$1/packaging/caret.bash"
	COMP_WORDS=(caret node_summary --dur); COMP_CWORD=2; _caret; echo "${COMPREPLY[*]}"' _ "$src")
[[ $got == --duration_filter ]] || fail "completion: node_summary --dur gave '$got'"
for opt in --session-name --path --list --verbose --recording-frequency --subbuffer-size-ust; do
	grep -qF -- "$opt" "$src/docs/migrating.md" || fail "docs/migrating.md: record $opt missing"
done
grep -qF "migrating.md" "$src/README.md" || fail "README.md: no link to docs/migrating.md"
grep -qF "migrating.md" "$src/docs/cli.md" || fail "docs/cli.md: no link to docs/migrating.md"

echo "$failures failures"
((failures == 0))
