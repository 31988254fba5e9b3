#!/usr/bin/env bash
# --relayd to a relay daemon that is not there (issue 45, item 8): caret
# record and caret live --relayd never die of SIGPIPE (liblttng-ctl writes
# to the session daemon's socket, which the session daemon hangs up when it
# cannot reach the relay daemon: 2 runs in 5 died, exit 141, no message),
# say in one line the address and the likely cause, exit 1, and leave no
# session behind. Each case runs many times: the SIGPIPE was a race.
#   nowhere: nothing listens on the ports (refused): said before any session
#   gone:    a listener that takes the first connection to each port (the
#            recorder's check) and goes: the session daemon's own attempt is
#            refused, mid-command
set -uo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
caret=$CARET_BUILD_DIR/bin/caret
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1
failures=0
prefix=caret-test-relayd-$$
runs=${CARET_RELAYD_RUNS:-10}

# free_ports: two TCP ports of 127.0.0.1 nothing listens on (bound, then let go)
free_ports() {
	python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print("%d:%d" % tuple(x.getsockname()[1] for x in s))'
}

# check NAME SESSION MESSAGE...: the last run (status in $status, stderr in
# $work/err) exited 1 with one line holding every MESSAGE, SESSION not left
check() {
	local name=$1 session=$2 text
	shift 2
	local bad=
	((status == 141)) && bad="killed by SIGPIPE (exit 141)"
	[[ -z $bad ]] && ((status != 1)) && bad="exit $status, expected 1"
	[[ -z $bad ]] && (($(grep -c . "$work/err") != 1)) && bad="not one line"
	for text in "$@"; do
		[[ -z $bad ]] && ! grep -qF -- "$text" "$work/err" && bad="no '$text'"
	done
	if lttng list 2>/dev/null | grep -qF -- "$session"; then
		bad="${bad:+$bad; }session $session left behind"
		lttng destroy "$session" >/dev/null 2>&1
	fi
	if [[ -n $bad ]]; then
		echo "FAIL $name: $bad: $(head -c 600 "$work/err")"
		failures=$((failures + 1))
		return 1
	fi
}

# ---- nowhere: nothing listens ---------------------------------------------
ok=0
for ((i = 0; i < runs; i++)); do
	ports=$(free_ports)
	session=$prefix-n$i
	timeout 60 "$caret" record --relayd "127.0.0.1:$ports" --immediate -d 1 -s "$session" \
		>/dev/null 2>"$work/err"
	status=$?
	check "record nowhere $i" "$session" "relay daemon at 127.0.0.1 port ${ports%%:*}" \
		"nothing listens there" && ok=$((ok + 1))
done
echo "record --relayd nowhere: $ok of $runs runs right: $(cat "$work/err")"
ok=0
for ((i = 0; i < runs / 2; i++)); do
	ports=$(free_ports)
	session=$prefix-l$i
	timeout 60 "$caret" live --relayd "127.0.0.1:$ports" -d 1 -s "$session" \
		>/dev/null 2>"$work/err"
	status=$?
	check "live nowhere $i" "$session" "caret live: cannot stream to the relay daemon at 127.0.0.1" \
		"nothing listens there" && ok=$((ok + 1))
done
echo "live --relayd nowhere: $ok of $((runs / 2)) runs right: $(cat "$work/err")"

# ---- gone: there for the check, gone for the session daemon ---------------
# gone VERB RUNS ARGS...: VERB --relayd to a one-shot listener, RUNS times
gone() {
	local verb=$1 n=$2 ok=0 i oneshot
	shift 2
	for ((i = 0; i < n; i++)); do
		coproc ONESHOT { python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0)); x.listen(4); x.settimeout(10)
print("%d:%d" % tuple(x.getsockname()[1] for x in s), flush=True)
try:
	for x in s:
		c, _ = x.accept(); c.close(); x.close()
except OSError:
	pass'; }
		oneshot=$ONESHOT_PID
		read -r ports <&"${ONESHOT[0]}"
		session=$prefix-g$verb$i
		timeout 60 "$caret" "$verb" --relayd "127.0.0.1:$ports" "$@" -d 1 -s "$session" \
			>/dev/null 2>"$work/err"
		status=$?
		wait "$oneshot" 2>/dev/null
		check "$verb gone $i" "$session" \
			"caret $verb: cannot stream to the relay daemon at net://127.0.0.1:$ports" \
			"is lttng-relayd running there and reachable?" && ok=$((ok + 1))
	done
	echo "$verb --relayd gone: $ok of $n runs right: $(cat "$work/err")"
}
gone record "$runs" --immediate
gone live $((runs / 2))

echo "$failures failures"
((failures == 0))
