#!/usr/bin/env bash
# libcaret.so preloaded into real rclcpp apps that nobody records changes
# nothing they do: same exit status, same stdout, nothing on stderr more
# than without it, with a session daemon and with none in sight, with
# ROS_DISTRO unset. Every system of launch.sh, on one tree.
# usage: test_real_harmless.sh TREE [RMW]   (RMW: see real_env.sh)
set -uo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${2:-}"
. "$CARET_SOURCE_DIR/tests/integration/footprint.sh"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
failures=0
caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1

# run NAME SYSTEM [WRAPPER...]: the system once; its sorted stdout (the
# processes end in any order), stderr and status in $work/NAME.*
run() {
	local name=$1 system=$2
	shift 2
	"$@" "$REAL_LAUNCH" "$REAL_APPS" "$system" 1.5 "$work/truth-$name" "$work/pids-$name" \
		>"$work/$name.out" 2>"$work/$name.err"
	echo $? >"$work/$name.status"
	sort -o "$work/$name.out" "$work/$name.out"
	sort -o "$work/$name.err" "$work/$name.err"
}

# No session daemon to be found: a private mount namespace hides the
# system-wide one's sockets, and LTTNG_HOME points at an empty directory.
no_daemon() {
	unshare --mount -- sh -c 'mount -t tmpfs none /run/lttng && exec "$@"' sh \
		env LTTNG_HOME="$work/no-lttng-home" "$@"
}
mkdir -p "$work/no-lttng-home"

same() { # SYSTEM CASE: CASE's run equals the plain one
	local system=$1 case=$2 a="$work/$1-plain" b="$work/$1-$2"
	if cmp -s "$a.status" "$b.status" && cmp -s "$a.out" "$b.out" && cmp -s "$a.err" "$b.err"; then
		echo "ok $system $case (status $(cat "$b.status"), $(wc -l <"$b.out") lines of stdout)"
	else
		echo "FAIL $system $case: status $(cat "$a.status") -> $(cat "$b.status")"
		diff "$a.out" "$b.out"
		diff "$a.err" "$b.err"
		failures=$((failures + 1))
	fi
}

systems=(pipeline3 pipeline1 pipeline1-intra executors services churn tf4)
[[ $REAL_TREE == jazzy ]] && systems+=(events)
# on Fast DDS, the systems of several processes and the node churn (the
# one-process ones differ from Cyclone DDS's runs in nothing the tracer does)
[[ $REAL_RMW != cyclonedds ]] && systems=(pipeline3 services churn tf4)
for system in "${systems[@]}"; do
	run "$system-plain" "$system" "${CARET_GROUP[@]}"
	if [[ $(cat "$work/$system-plain.status") != 0 ]]; then
		echo "FAIL $system: fails without the tracer"
		cat "$work/$system-plain.err"
		failures=$((failures + 1))
	fi
	run "$system-preload" "$system" "${CARET_GROUP[@]}" env LD_PRELOAD="$CARET_LIB"
	same "$system" preload
	run "$system-no-daemon" "$system" no_daemon "${CARET_GROUP[@]}" env LD_PRELOAD="$CARET_LIB"
	same "$system" no-daemon
done
# rclcpp initialized (rcl_init traced) but no node: no control thread, no
# DDS socket of the tracer's.
LD_PRELOAD=$CARET_LIB "${CARET_GROUP[@]}" "$REAL_APPS/real_pipeline" --nodes none --duration 3 \
	>/dev/null &
app=$!
sleep 1.5
if footprint=$(tracer_footprint "$app"); then
	echo "ok no node: no control thread, no DDS socket ($footprint)"
else
	echo "FAIL no node: $footprint"
	failures=$((failures + 1))
fi
wait "$app"
echo "$failures failures"
((failures == 0))
