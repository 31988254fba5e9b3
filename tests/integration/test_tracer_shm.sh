#!/usr/bin/env bash
# libcaret.so in a program without ROS when /dev/shm cannot hold what
# LTTng-UST's listener threads need (a page per wait file): full, or not
# writable. The program runs as without the tracer (its status and stdout;
# with liblttng-ust loaded it died of SIGBUS), nothing on stderr, and under
# CARET_DEBUG one line saying why the tracer stayed out. Where there is
# room, or the wait files are there already with their pages, LTTng-UST is
# loaded as before. Runs in a private mount namespace: a small tmpfs over
# /dev/shm, and no session daemon in sight (a tmpfs over /run/lttng,
# LTTNG_HOME empty), so that the listeners wait on their files.
set -uo pipefail
lib=$CARET_BUILD_DIR/lib/libcaret.so

if [[ ${1:-} != --inside ]]; then
	if ((EUID != 0)) || ! unshare --mount --propagation private -- true 2>/dev/null; then
		echo "skipped: needs root and unshare --mount"
		exit 77
	fi
	exec unshare --mount --propagation private -- bash "$0" --inside
fi

work=$(mktemp -d)
trap 'umount /dev/shm 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p /run/lttng "$work/lttng-home"
mount -t tmpfs -o mode=0755 caret-test-lttng /run/lttng || exit 1
export LTTNG_HOME=$work/lttng-home
failures=0
fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}

# One process (bash builtins only) with output and a status, alive long
# enough for LTTng-UST's listeners to reach their wait (they die there of
# SIGBUS on a full shm): 1 s waiting on a FIFO nobody writes.
mkfifo "$work/never"
program=(/bin/bash -c 'echo before; read -r -t 1 -u 3 3<>"$0"; echo after; exit 3' "$work/never")

# shm STATE: a fresh 64 KiB tmpfs over /dev/shm: room, full, read-only,
# or full after the wait files were made (their pages held)
shm() {
	umount /dev/shm 2>/dev/null
	local options=size=64k
	[[ $1 == read-only ]] && options+=,ro
	mount -t tmpfs -o "$options" caret-test-shm /dev/shm || exit 1
	if [[ $1 == ready-then-full ]]; then
		LD_PRELOAD=$lib "${program[@]}" >/dev/null 2>&1 # LTTng-UST makes its files
		ls /dev/shm/lttng-ust-wait-* >/dev/null 2>&1 || fail "no wait file made with room"
	fi
	if [[ $1 == *full ]]; then
		dd if=/dev/zero of=/dev/shm/fill bs=4k 2>/dev/null
		(($(df --output=avail /dev/shm | tail -1) == 0)) || fail "$1: /dev/shm not full"
	fi
}

# run NAME [ENV...]: the program, preloaded, in the background; whether it
# mapped liblttng-ust (0.5 s in) in NAME.lttng, status, stdout, stderr
run() {
	local name=$1
	shift
	env "$@" LD_PRELOAD="$lib" "${program[@]}" >"$work/$name.out" 2>"$work/$name.err" &
	local pid=$!
	sleep 0.5
	grep -c 'liblttng-ust\.so' "/proc/$pid/maps" >"$work/$name.lttng" 2>/dev/null
	wait "$pid"
	echo $? >"$work/$name.status"
}

"${program[@]}" >"$work/plain.out" 2>"$work/plain.err"
echo $? >"$work/plain.status"

# as_without NAME: status and stdout of the plain run
as_without() {
	if cmp -s "$work/plain.status" "$work/$1.status" && cmp -s "$work/plain.out" "$work/$1.out"
	then
		echo "ok $1: status $(cat "$work/$1.status"), stdout as without the tracer"
	else
		fail "$1: status $(cat "$work/plain.status") -> $(cat "$work/$1.status"), stdout:"
		cat "$work/$1.out"
	fi
}

lttng_loaded() { [[ $(cat "$work/$1.lttng" 2>/dev/null) -gt 0 ]]; }

# stays_out STATE WHY: the tracer stays out, says WHY once under CARET_DEBUG
stays_out() {
	local state=$1 why=$2
	shm "$state"
	run "$state"
	as_without "$state"
	[[ -s $work/$state.err ]] && fail "$state: stderr without CARET_DEBUG: $(cat "$work/$state.err")"
	lttng_loaded "$state" && fail "$state: liblttng-ust loaded"
	ls /dev/shm/lttng-ust-wait-* >/dev/null 2>&1 && fail "$state: LTTng-UST made its wait files"
	run "$state-debug" CARET_DEBUG=1
	as_without "$state-debug"
	if [[ $(wc -l <"$work/$state-debug.err") == 1 ]] &&
	   grep -q "^caret: the tracer stays out of this process: /dev/shm $why" \
		"$work/$state-debug.err"; then
		echo "ok $state: $(cat "$work/$state-debug.err")"
	else
		fail "$state: under CARET_DEBUG, wanted one line saying /dev/shm $why, got:"
		cat "$work/$state-debug.err"
	fi
}

stays_out full "is full (0 bytes free, LTTng-UST needs [0-9]* for its wait files"
stays_out read-only "is not writable and holds no LTTng-UST wait file"

# loaded NAME: LTTng-UST runs in the program, which is unharmed and silent
loaded() {
	shm "$1"
	run "$1" CARET_DEBUG=1
	as_without "$1"
	lttng_loaded "$1" && echo "ok $1: liblttng-ust loaded" || fail "$1: liblttng-ust not loaded"
	[[ -s $work/$1.err ]] && fail "$1: stderr: $(cat "$work/$1.err")"
}
loaded room
# full, but the wait files hold their pages: nothing left to allocate
loaded ready-then-full

echo "$failures failures"
((failures == 0))
