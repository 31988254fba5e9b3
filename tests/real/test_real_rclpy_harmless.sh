#!/usr/bin/env bash
# libcaret.so preloaded into an rclpy program (rclpy_harmless/harmless.py:
# several nodes, a MultiThreadedExecutor of 4 threads, a reentrant group,
# a service and a coroutine client, threads of its own publishing, a
# create_timer timer run by spin_once(timeout) loops, exceptions caught
# around spin_once and one uncaught that ends it, its own ctypes) changes
# nothing it does: the same stdout byte for byte (the caught exceptions'
# tracebacks in it), the same stderr (the uncaught one's traceback), the
# same exit status, no hang (a timeout), run
#   - without the tracer;
#   - with it preloaded, nobody recording; and with no session daemon
#     (Cyclone DDS);
#   - with it preloaded while caret record starts and stops three times
#     (WAIT -> PREPARE -> RECORD -> WAIT, the initialization replayed each
#     time): each recording checked (caret check ok) and holding the
#     Python nodes' callbacks with their Python names.
# And `import rclpy` (rclpy.init, no node) with the tracer: the same
# output, rclpy's classes unwrapped, no control thread, no DDS socket.
# usage: test_real_rclpy_harmless.sh [RMW]   (RMW: see real_env.sh)
set -uo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/rclpy_harmless/rclpy_env.sh" "${1:-}"
. "$CARET_SOURCE_DIR/tests/integration/footprint.sh"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
failures=0
caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1
fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}

# run NAME [WRAPPER...]: the program once (60 s at most; it takes about
# 3); its stdout, stderr, status in $work/NAME.* (WRAPPER: CARET_GROUP's
# setpriv ... --, env VAR=VALUE, ...)
run() {
	local name=$1
	shift
	"$@" timeout 60 "${PY[@]}" "$HARMLESS" >"$work/$name.out" 2>"$work/$name.err"
	echo $? >"$work/$name.status"
}

same() { # NAME: its run equals the plain one
	local a=$work/plain b=$work/$1
	if cmp -s "$a.status" "$b.status" && cmp -s "$a.out" "$b.out" && cmp -s "$a.err" "$b.err"; then
		echo "ok $1: the same status ($(cat "$b.status")), stdout ($(wc -l <"$b.out") lines), stderr"
	else
		fail "$1: status $(cat "$a.status") -> $(cat "$b.status")"
		diff "$a.out" "$b.out"
		diff "$a.err" "$b.err"
	fi
}

no_daemon() { # as test_real_harmless.sh: no session daemon to be found
	unshare --mount -- sh -c 'mount -t tmpfs none /run/lttng && exec "$@"' sh \
		env LTTNG_HOME="$work/no-lttng-home" "$@"
}
mkdir -p "$work/no-lttng-home"

echo "== without the tracer"
run plain "${CARET_GROUP[@]}"
# the program did its work (else comparing its runs proves nothing)
for line in "answers: \['CALL0,X', 'CALL1,X', 'CALL2,X', 'CALL3,X', 'CALL4,X'\]" \
	'numbers heard: 200 all distinct and expected: True' 'chatter relayed and heard: True' \
	'faults caught: 2' 'ctypes qsort: \[1, 2, 3, 4, 5\]' 'ValueError: fault 2'; do
	grep -q "^$line$" "$work/plain.out" || fail "plain: no '$line' on stdout"
done
if [[ $(cat "$work/plain.status") != 1 ]] || ! grep -q '^RuntimeError: the end$' "$work/plain.err"; then
	fail "plain: status $(cat "$work/plain.status"), not 1 with the uncaught RuntimeError"
	cat "$work/plain.err"
fi

echo "== preloaded, nobody recording"
run preload "${CARET_GROUP[@]}" env LD_PRELOAD="$CARET_LIB"
same preload
# (no session daemon: the same on either middleware; Cyclone DDS's run only)
if [[ $REAL_RMW == cyclonedds ]]; then
	run no-daemon no_daemon "${CARET_GROUP[@]}" env LD_PRELOAD="$CARET_LIB"
	same no-daemon
fi

echo "== preloaded, caret record started and stopped three times while it runs"
harmless_start "$work/recorded" || fail "recorded: the program's pipeline did not run within 30 s"
app=$HARMLESS_PID
for take in 1 2 3; do
	status=0
	"$BIN/caret" record -o "$work/trace$take" --duration 1.5 >/dev/null 2>"$work/record$take.err" ||
		status=$?
	if ((status != 0)) || ! grep -q ' 0 discarded$' "$work/record$take.err" ||
		! grep -q 'the 1 process recording' "$work/record$take.err"; then
		cat "$work/record$take.err"
		fail "recording $take: caret record failed ($status), lost events or missed the process"
	fi
done
touch "$work/stop"
wait "$app"
echo $? >"$work/recorded.status"
same recorded

# each recording: clean, and the Python callbacks there with their names
for take in 1 2 3; do
	trace=$work/trace$take
	"$BIN/caret" check "$trace" >"$work/check$take" 2>&1
	grep -q '^result: ok' "$work/check$take" || { cat "$work/check$take"; fail "recording $take: caret check"; }
	"$BIN/caret" summary nodes --format csv "$trace" >"$work/nodes$take" 2>/dev/null
	for node in /talker /relay /listener /server /asker; do
		awk -F, -v node="$node" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "callback_runs") c = i }
			$1 == node && $c > 0 { found = 1 } END { exit !found }' "$work/nodes$take" ||
			fail "recording $take: no callback run of $node"
	done
	# (caret arch leaves services out, as the original does)
	"$BIN/caret" arch "$trace" >"$work/arch$take"
	for symbol in __main__.Talker.tick __main__.Relay.on_chatter __main__.Listener.on_relayed \
		__main__.Listener.on_number __main__.Asker.ask; do
		grep -q "symbol: $symbol$" "$work/arch$take" || fail "recording $take: no callback $symbol"
	done
	echo "recording $take: $(tail -1 "$work/check$take"), $(awk -F, 'NR == 1 {
		for (i = 1; i <= NF; i++) if ($i == "callback_runs") c = i; next }
		$1 ~ /^\/(talker|relay|listener|server|asker)$/ { n += $c } END { print n }' \
		"$work/nodes$take") runs of the Python callbacks"
done

echo "== import rclpy, rclpy.init, no node"
probe='import sys, time, rclpy, rclpy.executors as e, rclpy.node as n
print(e.Executor._take_timer.__code__.co_filename, n.Node.create_timer.__code__.co_filename)
rclpy.init()
print(e.Executor._take_timer.__code__.co_filename, len(sys.modules), flush=True)
time.sleep(float(sys.argv[1]))'
for name in import-plain import-preload; do
	preload=()
	[[ $name == import-preload ]] && preload=("LD_PRELOAD=$CARET_LIB")
	env "${preload[@]}" "${CARET_GROUP[@]}" "${PY[@]}" -c "$probe" 2.5 >"$work/$name.out" 2>"$work/$name.err" &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		[[ -s $work/$name.out ]] && break
		sleep 0.1
	done
	footprint=$(tracer_footprint "$pid") || fail "$name: $footprint"
	wait "$pid"
	echo $? >"$work/$name.status"
done
if cmp -s "$work/import-plain.out" "$work/import-preload.out" &&
	cmp -s "$work/import-plain.err" "$work/import-preload.err" &&
	cmp -s "$work/import-plain.status" "$work/import-preload.status" &&
	[[ $(cat "$work/import-plain.status") == 0 ]]; then
	echo "ok import: the same output, rclpy unwrapped; no control thread, no DDS socket ($footprint)"
else
	fail "import rclpy: the tracer changed it"
	diff "$work/import-plain.out" "$work/import-preload.out"
	diff "$work/import-plain.err" "$work/import-preload.err"
fi
# and with a node, the same wrapper gives the tracer's Python part (the
# preloaded runs above ran it)
part=$("${CARET_GROUP[@]}" env LD_PRELOAD="$CARET_LIB" timeout 30 "${PY[@]}" -c 'import rclpy
import rclpy.executors as e
from rclpy.node import Node
rclpy.init()
Node("probe")
print(e.Executor._take_timer.__code__.co_filename)')
# (rclpy's executor method wrapped: not its own file's)
[[ -n $part && $part != */rclpy/executors.py ]] ||
	fail "the tracer's Python part did not run in a preloaded node ($part)"
echo "$failures failures"
((failures == 0))
