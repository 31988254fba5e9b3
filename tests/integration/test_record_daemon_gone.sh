#!/usr/bin/env bash
# The LTTng session daemon ends (here killed) while caret record and caret
# live record, and another may start at once (a test's or a service's
# restart): each exits 1 saying that the daemon ended and when, not that
# someone destroyed the session, and neither hangs. Runs in a private
# mount namespace with its own /run/lttng and /dev/shm, so that the session
# daemon it kills is its own (the machine's, and the other tests' sessions,
# are never touched) and the testbed apps register with it alone.
set -uo pipefail

if [[ ${1:-} != --inside ]]; then
	if ((EUID != 0)) || ! unshare --mount --propagation private -- true 2>/dev/null; then
		echo "skipped: needs root and unshare --mount"
		exit 77
	fi
	exec unshare --mount --propagation private -- bash "$0" --inside
fi

. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
caret=$bin/caret
system=$CARET_SOURCE_DIR/testbed/systems/pipeline.yaml
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require || exit 1
mkdir -p /run/lttng
mount -t tmpfs -o mode=0755 caret-test-lttng /run/lttng || exit 1
mount -t tmpfs -o mode=1777 caret-test-shm /dev/shm || exit 1
failures=0
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; failures=$((failures + 1)); }

# This namespace's own session daemon; its pid in $sessiond. The pid file
# of the one killed before goes first (it stays behind; once, after the
# pids wrapped, the file read "600\n2": the new pid over the old one's).
start_sessiond() {
	local i
	rm -f /run/lttng/lttng-sessiond.pid
	lttng-sessiond --daemonize --no-kernel >"$work/sessiond.log" 2>&1 || {
		cat "$work/sessiond.log"
		exit 1
	}
	for ((i = 0; i < 50; i++)); do
		sessiond=
		read -r sessiond </run/lttng/lttng-sessiond.pid 2>/dev/null
		[[ $sessiond =~ ^[0-9]+$ ]] && return
		sleep 0.1
	done
	echo "FAIL: no pid file of the session daemon"
	exit 1
}

# Everything started in this mount namespace (the daemons, their consumers
# and run-as helpers) ended at exit: nothing outside it is in it.
end_namespace_processes() {
	local p i killed=()
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		[[ $p == "$$" || $p == "$BASHPID" ]] && continue
		[[ /proc/$p/ns/mnt -ef /proc/$$/ns/mnt ]] && kill -KILL "$p" 2>/dev/null && killed+=("$p")
	done
	for p in "${killed[@]}"; do # gone before the next case starts a daemon (5 s)
		for ((i = 0; i < 100 && $(ps -o stat= -p "$p" 2>/dev/null | grep -cv Z) > 0; i++)); do
			sleep 0.05
		done
	done
	return 0
}
caret_at_exit end_namespace_processes

# run NAME killed|restarted CMD...: CMD in the background, the apps around
# it; the session daemon killed 3 s into the recording (and another started
# at once); CMD's exit status and stderr
run() {
	local name=$1 how=$2 recorder launcher i status said
	shift 2
	start_sessiond
	rm -f "$work/pids"
	"${CARET_GROUP[@]}" "$bin/tb-launch" "$system" --duration 40 --pid-file "$work/pids" \
		--preload "$CARET_BUILD_DIR/lib/libcaret.so" &
	launcher=$!
	sleep 2
	"$@" >"$work/$name.out" 2>"$work/$name.err" &
	recorder=$!
	for ((i = 0; i < 200; i++)); do # until it records
		grep -q "recording" "$work/$name.err" && break
		sleep 0.1
	done
	sleep 3
	said="none answers now"
	if [[ $how == restarted ]]; then
		# the recorder held still meanwhile: the new daemon answers its next look
		kill -STOP "$recorder"
		kill -KILL "$sessiond"
		while kill -0 "$sessiond" 2>/dev/null; do sleep 0.05; done
		start_sessiond
		kill -CONT "$recorder"
		said="another one has started since"
	else
		kill -KILL "$sessiond"
	fi
	for ((i = 0; i < 300; i++)); do # 30 s: a hang fails the case
		kill -0 "$recorder" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$recorder" 2>/dev/null; then
		kill -KILL "$recorder"
		bad "$name: still running 30 s after the daemon was killed"
	fi
	status=0
	wait "$recorder" || status=$?
	kill -TERM "$launcher" 2>/dev/null
	wait "$launcher"
	end_namespace_processes
	if ((status == 1)) && grep -q "the LTTng session daemon ended [0-9.]* s into the recording.*$said" \
		"$work/$name.err" && ! grep -q "by someone else\|cannot stop" "$work/$name.err"; then
		ok "$name: $(grep "session daemon ended" "$work/$name.err")"
	else
		bad "$name: exit $status"
		cat "$work/$name.err"
	fi
}

run record killed "$caret" record -o "$work/t-record" --duration 20
run live killed "$caret" live --duration 20 --period 0.5 -o "$work/t-live"
run record-restarted restarted "$caret" record -o "$work/t-record2" --duration 20
run live-restarted restarted "$caret" live --duration 20 --period 0.5 -o "$work/t-live2"
echo "$failures failures"
((failures == 0))
