#!/usr/bin/env bash
# The session helper destroys its session and removes its temporary trace
# directory on every path: normal exit, failure, and termination by signal.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"

session_exists() { [[ $(lttng list 2>/dev/null) == *"$1"* ]]; }

# $1: how the child ends (ok | fail | signal). The child records its session
# name and trace directory, checks the session and its channel are active,
# then ends.
child_script='
		set -euo pipefail
		. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
		caret_lttng_start caret-test-fixture "ros2:*"
		echo "$CARET_SESSION" >"$1/session"
		echo "$CARET_TRACE_DIR" >"$1/dir"
		status=$(lttng list "$CARET_SESSION")
		[[ $status == *"[active]"* && $status == *"- caret: [enabled]"* ]]
		case $2 in
		ok) exit 0 ;;
		fail) false ;;
		signal) sleep 60 & caret_at_exit "kill $!"; touch "$1/ready"; wait $! ;;
		esac
'
run_child() { bash -c "$child_script" child "$work" "$1"; }

for how in ok fail signal; do
	rm -f "$work/session" "$work/dir" "$work/ready"
	if [[ $how == signal ]]; then
		bash -c "$child_script" child "$work" signal &
		child=$!
		for _ in $(seq 100); do [[ -e $work/ready ]] && break; sleep 0.1; done
		[[ -e $work/ready ]] || { echo "child never became ready"; exit 1; }
		kill -TERM "$child"
		wait "$child" && { echo "signal: child exited 0"; exit 1; } || true
	elif [[ $how == fail ]]; then
		run_child fail && { echo "fail: child exited 0"; exit 1; } || true
	else
		run_child ok
	fi
	session=$(cat "$work/session")
	dir=$(cat "$work/dir")
	if session_exists "$session"; then
		echo "$how: session $session left behind"
		lttng destroy "$session" >/dev/null 2>&1 || true
		exit 1
	fi
	[[ ! -e $dir ]] || { echo "$how: trace directory $dir left behind"; exit 1; }
	echo "$how: session destroyed, trace directory removed"
done
