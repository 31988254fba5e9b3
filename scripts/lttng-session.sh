# lttng-session.sh - LTTng session helper, sourced by `make demo` and by every
# integration test (bash). It never ends a process it did not start, and it
# destroys its session on every exit path, failures included.
#
#   caret_lttng_require           LTTng's tools are installed, or say so
#   caret_lttng_ensure_daemon     a session daemon answers (start one only
#                                 if none is running), or say why not
#   caret_lttng_start PREFIX EVENT...
#                                 create a uniquely named session writing to
#                                 $CARET_TRACE_DIR (default: a new temporary
#                                 directory, removed at exit unless
#                                 CARET_KEEP_TRACE=1), one user-space channel,
#                                 contexts vpid, vtid, procname, the given
#                                 events; start it. Sub-buffers:
#                                 CARET_SUBBUF_SIZE (1M) x CARET_NUM_SUBBUF (4). Sets CARET_SESSION and
#                                 CARET_TRACE_DIR. With CARET_INIT_CHANNEL=1,
#                                 as `caret record` does: the events of the
#                                 schema (a glob PROVIDER:* stands for its
#                                 events there) by name, initialization
#                                 events in a second channel caret_init

#   caret_lttng_stop              stop (waits until the data is on disk) and
#                                 destroy the session; safe to call twice
#   caret_at_exit CMD             run CMD at exit (last registered, first run)
#   caret_in_test_group CMD...    run CMD in the test's own group (below);
#                                 in the background, use
#                                 "${CARET_GROUP[@]}" CMD & so $! is CMD's pid
#
# Tests running at the same time must not record, or enable tracepoints in,
# each other's processes: when CARET_TEST_VGID is set (ctest sets one per
# test) the session tracks only that virtual group ID, and the test starts
# its processes with caret_in_test_group.
#
# The tools can be overridden with CARET_LTTNG and CARET_LTTNG_SESSIOND.

CARET_LTTNG=${CARET_LTTNG:-lttng}
CARET_LTTNG_SESSIOND=${CARET_LTTNG_SESSIOND:-lttng-sessiond}
CARET_SESSION=
_caret_exit_cmds=()

caret_log() { echo "caret: $*" >&2; }

_caret_run_exit_cmds() {
	local status=$? i
	for ((i = ${#_caret_exit_cmds[@]} - 1; i >= 0; i--)); do
		eval "${_caret_exit_cmds[i]}" || true
	done
	_caret_exit_cmds=()
	return $status
}
trap _caret_run_exit_cmds EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# Under set -e a command that fails ends the script: say which (once), so
# that a log that kept only the script's output tells where it stopped.
_caret_errexit_said() {
	local status=$?
	[[ -n ${_caret_err_said:-} ]] && return
	_caret_err_said=1
	echo "stopped: ${BASH_SOURCE[1]##*/}:${BASH_LINENO[0]}: $BASH_COMMAND exited $status" >&2
}
if [[ $- == *e* ]]; then
	set -E # in functions too
	trap _caret_errexit_said ERR
fi

caret_at_exit() { _caret_exit_cmds+=("$1"); }

caret_lttng_require() {
	local tool
	for tool in "$CARET_LTTNG" "$CARET_LTTNG_SESSIOND"; do
		if ! command -v "$tool" >/dev/null 2>&1; then
			caret_log "LTTng is not installed: '$tool' not found" \
				"(install lttng-tools, or run 'make deps')"
			return 1
		fi
	done
}

caret_lttng_ensure_daemon() {
	"$CARET_LTTNG" list >/dev/null 2>&1 && return 0

	local log i
	log=$(mktemp "${TMPDIR:-/tmp}/caret-sessiond.XXXXXX")
	# Another test may start one at the same moment; then ours exits with
	# "already running" and the check below still succeeds.
	"$CARET_LTTNG_SESSIOND" --daemonize --no-kernel >"$log" 2>&1 || true
	for i in 1 2 3 4 5 6 7 8 9 10; do
		if "$CARET_LTTNG" list >/dev/null 2>&1; then
			rm -f "$log"
			return 0
		fi
		sleep 0.2
	done
	caret_log "cannot start an LTTng session daemon (user $(id -un)):" \
		"$(tr '\n' ' ' <"$log")"
	caret_log "recording needs one: run as root, or have root start" \
		"'lttng-sessiond --daemonize' and add this user to the 'tracing' group"
	rm -f "$log"
	return 1
}

# Runs one lttng command; on failure shows its output and fails.
_caret_lttng() {
	local out
	if ! out=$("$CARET_LTTNG" "$@" 2>&1); then
		caret_log "lttng $1 failed: $out"
		return 1
	fi
}

caret_lttng_start() {
	local prefix=$1
	shift
	if [[ -n $CARET_SESSION ]]; then
		caret_log "a session is already open: $CARET_SESSION"
		return 1
	fi
	if [[ -z ${CARET_TRACE_DIR:-} ]]; then
		CARET_TRACE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/caret-trace.XXXXXX")
		[[ ${CARET_KEEP_TRACE:-0} == 1 ]] || caret_at_exit "rm -rf '$CARET_TRACE_DIR'"
	fi
	CARET_SESSION="$prefix-$$-$(date +%s%N)"
	caret_at_exit caret_lttng_stop
	local s="--session=$CARET_SESSION" ev
	_caret_lttng create "$CARET_SESSION" --output="$CARET_TRACE_DIR" || return 1
	_caret_lttng enable-channel --userspace "$s" \
		--subbuf-size="${CARET_SUBBUF_SIZE:-1M}" \
		--num-subbuf="${CARET_NUM_SUBBUF:-4}" caret || return 1
	_caret_lttng add-context --userspace "$s" --channel=caret \
		--type=vpid --type=vtid --type=procname || return 1
	if [[ ${CARET_INIT_CHANNEL:-0} == 1 ]]; then
		_caret_lttng_split_channels "$s" "$@" || return 1
	else
		for ev in "$@"; do
			_caret_lttng enable-event --userspace "$s" --channel=caret "$ev" || return 1
		done
	fi
	if [[ -n ${CARET_TEST_VGID:-} ]]; then
		_caret_lttng track --userspace "$s" --vgid="$CARET_TEST_VGID" || return 1
	fi
	_caret_lttng start "$CARET_SESSION" || return 1
}

# The events of the schema matching the rules (globs PROVIDER:* or names),
# by name: runtime ones in channel caret, initialization ones in caret_init.
_caret_lttng_split_channels() {
	local s=$1 role name init=() runtime=() rule
	shift
	_caret_lttng enable-channel --userspace "$s" \
		--subbuf-size="${CARET_SUBBUF_SIZE:-1M}" \
		--num-subbuf="${CARET_NUM_SUBBUF:-4}" caret_init || return 1
	_caret_lttng add-context --userspace "$s" --channel=caret_init \
		--type=vpid --type=vtid --type=procname || return 1
	while read -r name role; do
		for rule in "$@"; do
			# shellcheck disable=SC2053 # the rule is a glob
			if [[ $name == $rule ]]; then
				if [[ $role == INIT || $role == META ]]; then init+=("$name"); else runtime+=("$name"); fi
				break
			fi
		done
	done < <(sed -n 's/^CS_EVENT(\([a-z0-9_]*\), *\([a-z0-9_]*\), *\([A-Z]*\),.*/\1:\2 \3/p' \
		"$(dirname "${BASH_SOURCE[0]}")/../src/schema/events.def")
	((${#init[@]} && ${#runtime[@]})) || { caret_log "no schema event matches $*"; return 1; }
	_caret_lttng enable-event --userspace "$s" --channel=caret_init "$(IFS=,; echo "${init[*]}")" &&
		_caret_lttng enable-event --userspace "$s" --channel=caret "$(IFS=,; echo "${runtime[*]}")"
}

# setpriv execs the command: it keeps setpriv's pid.
CARET_GROUP=()
if [[ -n ${CARET_TEST_VGID:-} ]]; then
	CARET_GROUP=(setpriv --regid="$CARET_TEST_VGID" --clear-groups --)
fi

caret_in_test_group() { "${CARET_GROUP[@]}" "$@"; }

caret_lttng_stop() {
	[[ -n $CARET_SESSION ]] || return 0
	local session=$CARET_SESSION
	CARET_SESSION=
	"$CARET_LTTNG" stop "$session" >/dev/null 2>&1 || true
	_caret_lttng destroy "$session"
}
