# real_env.sh - sourced by the tests on real ROS 2 (tests/real/test_real_*.sh):
# the tree's environment (as `source setup.bash` gives it), its apps, DDS on
# the loopback interface, and helpers to run and check the apps.
#
# usage: . real_env.sh TREE [RMW]  TREE: humble | humble-caret | jazzy |
#                                        jazzy-caret (the original tracer's
#                                        overlay; the apps are jazzy's: no fork) |
#                                        jazzy-rclpy (rclpy's overlay: the
#                                        C++ apps jazzy's, the Python ones
#                                        tests/real/apps_py)
#                                  RMW: cyclonedds (default) | fastdds |
#                                  mixed (launch.sh alternates the two)
#
# When the tree is not installed the test is skipped: one line saying why,
# exit 77 (CTest's SKIP_RETURN_CODE: "Not Run", never counted as passed).
# When the tree is there but its apps were not built, the test fails.
#
# Sets: REAL_TREE, REAL_RMW, REAL_APPS (the apps' directory), REAL_LAUNCH
# (launch.sh), CARET_LIB (libcaret.so), BIN (caret's build/bin).

REAL_TREE=$1
REAL_RMW=${2:-cyclonedds}
REAL_PREFIX=${CARET_ROS_ROOT:-/opt/ros}
REAL_APPS=$CARET_BUILD_DIR/real/$REAL_TREE/bin
# the overlays on jazzy run jazzy's C++ apps
[[ $REAL_TREE == jazzy-caret || $REAL_TREE == jazzy-rclpy ]] && REAL_APPS=$CARET_BUILD_DIR/real/jazzy/bin
REAL_LAUNCH=$CARET_SOURCE_DIR/tests/real/launch.sh
CARET_LIB=$CARET_BUILD_DIR/lib/libcaret.so
BIN=$CARET_BUILD_DIR/bin

_real_setup=()
case $REAL_TREE in
humble) _real_setup=("$REAL_PREFIX/humble/setup.bash") ;;
humble-caret) _real_setup=("$REAL_PREFIX/humble/setup.bash" "$REAL_PREFIX/humble-caret/setup.bash") ;;
jazzy) _real_setup=("$REAL_PREFIX/jazzy/setup.bash") ;;
jazzy-caret) _real_setup=("$REAL_PREFIX/jazzy/setup.bash" "$REAL_PREFIX/jazzy-caret/setup.bash") ;;
jazzy-rclpy) _real_setup=("$REAL_PREFIX/jazzy/setup.bash" "$REAL_PREFIX/jazzy-rclpy/setup.bash") ;;
*)
	echo "real_env.sh: unknown tree '$REAL_TREE'" >&2
	exit 2
	;;
esac
for _s in "${_real_setup[@]}"; do
	if [[ ! -f $_s ]]; then
		echo "SKIP: real ROS 2 $REAL_TREE is not installed ($_s missing; 'make deps' installs it from shared/ros2)"
		exit 77
	fi
done
if [[ ! -x $REAL_APPS/real_pipeline ]]; then
	echo "FAIL: ROS 2 $REAL_TREE is installed but its apps are not built in $REAL_APPS" >&2
	exit 1
fi
set +u
for _s in "${_real_setup[@]}"; do
	# shellcheck disable=SC1090
	. "$_s"
done
set -u
# As a user's shell has it, minus what would make the runs depend on the
# machine: the trees set no ROS_DISTRO (the tracer must not need it).
unset ROS_DISTRO ROS_LOCALHOST_ONLY ROS_AUTOMATIC_DISCOVERY_RANGE ROS_STATIC_PEERS
case $REAL_RMW in
cyclonedds) export RMW_IMPLEMENTATION=rmw_cyclonedds_cpp ;;
fastdds | mixed)
	# in the tree or in the base an overlay's setup chains
	_fast=
	for _s in "${_real_setup[@]}"; do
		[[ -f $(dirname "$_s")/lib/librmw_fastrtps_cpp.so ]] && _fast=yes
	done
	if [[ -z $_fast ]]; then
		echo "real_env.sh: the $REAL_TREE tree has no rmw_fastrtps_cpp" >&2
		exit 2
	fi
	export RMW_IMPLEMENTATION=rmw_fastrtps_cpp
	;;
*)
	echo "real_env.sh: unknown RMW '$REAL_RMW'" >&2
	exit 2
	;;
esac
export REAL_RMW
export CYCLONEDDS_URI=${CYCLONEDDS_URI:-file://$CARET_SOURCE_DIR/scripts/cyclonedds-loopback.xml}
export FASTRTPS_DEFAULT_PROFILES_FILE=${FASTRTPS_DEFAULT_PROFILES_FILE:-$CARET_SOURCE_DIR/scripts/fastdds-loopback.xml}

# The apps run at niceness -15 where the test may set it (root): on a busy
# machine a thread preempted between a tracepoint and the app's own clock
# read makes the truth and the trace disagree by the time it waited, which
# is the machine's doing, not the tracer's or the analyzer's; so does
# discovery that ends after a short run. Not SCHED_FIFO: Fast DDS spins
# while it tears a participant down at exit, and two such spinners at a
# real-time priority on two cores starve the threads they wait for (seen:
# the original tracer's pipeline hung, both cores taken). (launch.sh reads
# REAL_NICE; bench/real measures the apps as they usually run, without it.)
if [[ -z ${REAL_NICE+set} ]]; then
	REAL_NICE=
	[[ $(nice -n -15 nice 2>/dev/null) == -15 ]] && REAL_NICE=-15
fi
export REAL_NICE

# real_record_start OUT [ARGS...]: `caret record -o OUT --immediate ARGS`
# (the session before the apps) in the background until real_record_stop;
# returns once the session records, not after a fixed sleep (creating it
# can take seconds on a busy machine). Its stderr in OUT.err.
real_record_start() {
	local out=$1 i
	shift
	"$BIN/caret" record -o "$out" --immediate "$@" >/dev/null 2>"$out.err" &
	REAL_RECORDER=$!
	caret_at_exit "kill -INT $REAL_RECORDER 2>/dev/null || true"
	for ((i = 0; i < 600; i++)); do
		grep -qs '^caret record: session ' "$out.err" && return 0
		kill -0 "$REAL_RECORDER" 2>/dev/null || break
		sleep 0.1
	done
	cat "$out.err" >&2
	echo "caret record did not start recording" >&2
	return 1
}

# real_record_stop OUT: ends the recording as Ctrl-C does, once what it must
# hold has happened; fails if caret record failed or lost events.
real_record_stop() {
	local out=$1 status=0
	kill -INT "$REAL_RECORDER" 2>/dev/null
	wait "$REAL_RECORDER" || status=$?
	if ((status != 0)) || ! grep -q ' 0 discarded$' "$out.err"; then
		cat "$out.err" >&2
		echo "caret record failed ($status) or lost events" >&2
		return 1
	fi
}

# real_from_start DIR SYSTEM [VAR=VALUE...]: the session first, then the
# system for REAL_RUN_S seconds, 2 unless set (the variables in its
# environment, the tracer preloaded),
# the recording stopped once it ended; its trace in DIR/trace, the apps'
# truth in DIR.
real_from_start() {
	local dir=$1 system=$2
	shift 2
	mkdir -p "$dir"
	real_record_start "$dir/trace"
	env "$@" LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" "$system" \
		"${REAL_RUN_S:-2}" "$dir" "$dir/pids" >/dev/null
	real_record_stop "$dir/trace"
}

# real_record_launched DIR SYSTEM: `caret record -- launch.sh SYSTEM` as a
# user types it, with nothing preloaded by hand (no LD_PRELOAD, no
# CARET_TRACER_LIB): the recorder preloads the tracer it finds beside itself
# ($BIN's caret: an installed tree's). The trace in DIR/trace, the apps'
# truth and pids in DIR; fails, saying why, unless caret record succeeds and
# its trace holds every process of the system recorded through libcaret.so
# (caret check: the process there, without "no caret_init"; ros2_tracing's
# own events alone would put the processes in the trace without the tracer).
real_record_launched() {
	local dir=$1 system=$2 status=0 role pid missing=()
	mkdir -p "$dir"
	env -u LD_PRELOAD -u CARET_TRACER_LIB "$BIN/caret" record -o "$dir/trace" --duration 30 -- \
		"${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" "$system" 2 "$dir" "$dir/pids" \
		>"$dir/record.out" 2>"$dir/record.err" || status=$?
	if ((status != 0)) || grep -q 'cannot be preloaded' "$dir/record.err"; then
		sort -u "$dir/record.err" | tail -5 >&2
		echo "caret record -- launch.sh $system failed ($status)" >&2
		return 1
	fi
	"$BIN/caret" check "$dir/trace" >"$dir/check.out" 2>&1
	while read -r role pid; do
		awk -v pid="$pid" '$1 == "process" { here = $2 == pid; seen = seen || here }
			here && /no caret_init/ { untraced = 1 } END { exit !seen || untraced }' \
			"$dir/check.out" || missing+=("$role ($pid)")
	done <"$dir/pids"
	if ((${#missing[@]})) || [[ ! -s $dir/pids ]]; then
		cat "$dir/check.out" >&2
		echo "the trace of caret record -- launch.sh $system lacks, recorded by libcaret.so:" \
			"${missing[*]:-every process}" >&2
		return 1
	fi
	echo "caret record -- launch.sh $system: $(grep -c '^process ' "$dir/check.out")" \
		"processes traced by libcaret.so ($(cut -d' ' -f1 "$dir/pids" | tr '\n' ' ')), $(tail -1 "$dir/check.out")"
}

# real_record_original DIR TRACER SYSTEM: the original CARET tracer
# (TRACER: its libcaret.so) in SYSTEM's apps for 3 s, recorded from their
# start by an LTTng session of its own, as CARET's users record it
# (scripts/lttng-session.sh: caret_lttng_start); the trace in DIR/trace,
# the apps' truth and pids in DIR. The tests need messages through the
# whole chain: a run in which /sink took none (by the apps' own account:
# DDS discovery can outlast the apps' 3 s on a busy machine) is said and
# run again, up to three times. So is a run in which an app died of
# SIGSEGV: the original Jazzy tracer crashed one app of the pipeline once
# in a CI-like run here (a fault of that tracer, not of what the tests
# check).
real_record_original() {
	local work=$1 original=$2 system=$3 attempt status
	for attempt in 1 2 3; do
		rm -rf "$work/trace" "$work/truth"
		CARET_TRACE_DIR=$work/trace
		caret_lttng_start caret-test-original 'ros2:*' 'ros2_caret:*'
		# it needs ROS_DISTRO (docs/real-ros2.md)
		status=0
		LD_PRELOAD=$original ROS_DISTRO=${REAL_TREE%-caret} "${CARET_GROUP[@]}" "$REAL_LAUNCH" \
			"$REAL_APPS" "$system" 3 "$work/truth" "$work/pids" >/dev/null \
			2>"$work/launch.err" || status=$?
		cat "$work/launch.err" >&2
		caret_lttng_stop
		if ((status != 0)); then
			if ((attempt < 3)) && grep -q 'exited with status 139$' "$work/launch.err"; then
				echo "note: an app died of SIGSEGV under the original tracer (attempt $attempt)"
				continue
			fi
			echo "FAIL: the apps failed (launch.sh exited $status)" >&2
			return 1
		fi
		real_chain_delivered "$work/truth" && return 0
		echo "note: /sink took no message on /topic_b in the apps' 3 s (attempt $attempt)"
	done
}

# real_chain_delivered TRUTH: the apps' truth has /sink receiving on
# /topic_b (DDS discovery can outlast a short run on a busy machine)
real_chain_delivered() {
	cat "$1"/*.receives.*.csv 2>/dev/null |
		awk -F, '$2 == "/sink" && $4 == "/topic_b" { n++ } END { exit !n }'
}

# real_anchor DIR: the original CARET analyzer (shared/anchors) in DIR,
# for PYTHONPATH
real_anchor() {
	mkdir -p "$1"
	tar --zstd -xf "$CARET_SHARED_DIR/anchors/caret_analyze-0.7.3.tar.zst" -C "$1"
}

# REAL_PYTHON: the Python of the steps that load libcaret-analyze.so (the
# Python package, the original analyzer beside it); in a sanitizers' build
# with their runtimes first (tests/CMakeLists.txt: CARET_PYTHON_PRELOAD).
# (REAL_PYTHON_ENV: that environment alone, for a script that runs Python)
REAL_PYTHON_ENV=()
[[ -z ${CARET_PYTHON_PRELOAD:-} ]] || REAL_PYTHON_ENV=(env "LD_PRELOAD=$CARET_PYTHON_PRELOAD"
	"ASAN_OPTIONS=${CARET_PYTHON_ASAN_OPTIONS:-detect_leaks=0}")
REAL_PYTHON=("${REAL_PYTHON_ENV[@]}" /usr/bin/python3)

# The node chain of the pipeline systems, for the path checks.
REAL_PATH=/sensor,/filter,/sink

# real_check TRACE TRUTH PIDS SYSTEM: the analyzer against the apps' truth:
# the architecture, every callback run, message and (pipelines, rclpy's
# py-pipeline* and py-mixed*) path instance, (services, py-services) every
# service call, and a clean `caret check`. On upstream Humble, intra-process
# messages are not traced: there the runs are checked, and `caret check`
# must say that messages cannot be linked.
real_check() {
	local trace=$1 truth=$2 pids=$3 system=$4 path=() out
	out=$(mktemp)
	caret_at_exit "rm -f '$out' '$out.err' '$out.html' '$out.services'"
	"$BIN/arch_check" "$trace" "$truth" "$pids" || return 1
	# the native CTF reader decodes it as babeltrace2 does, into the same tables
	# (decoding in a second thread, as on a large trace)
	CARET_READER_THREADS=2 "$BIN/ctf_reader_diff" "$trace" || return 1
	CARET_READER_THREADS=2 "$BIN/tables_diff" "$trace" || return 1
	# caret check's load, keeping no runtime event, gives the same model
	CARET_READER_THREADS=2 "$BIN/lean_diff" "$trace" || return 1
	[[ $system == pipeline* || $system == py-pipeline* || $system == py-mixed* ]] &&
		path=(--path "$REAL_PATH")
	if [[ $system == pipeline1-intra && $REAL_TREE == humble ]]; then
		"$BIN/records_check" --callbacks-only "$trace" "$truth" "$pids" || return 1
		"$BIN/caret" check "$trace" >"$out" 2>&1 || true # an error, as it must
		if ! grep -q "intra-process messages cannot be linked" "$out"; then
			cat "$out"
			echo "caret check does not say that intra-process messages cannot be linked" >&2
			return 1
		fi
		# and the verbs and the report say so too: the messages count as
		# not_published, the path has no message to follow
		local unlinked="intra-process messages were handled with nothing to link them"
		"$BIN/caret" latency topics --format csv "$trace" 2>"$out.err" |
			grep -qE '^/topic_a,intra,0,.*,[1-9][0-9]*$' &&
			grep -q "note: [0-9]* $unlinked" "$out.err" ||
			{ echo "latency topics does not say the messages cannot be linked" >&2; return 1; }
		"$BIN/caret" path latency --nodes "$REAL_PATH" "$trace" 2>"$out.err" >/dev/null &&
			grep -q "no publish of /sensor on /topic_a" "$out.err" &&
			grep -q "note: [0-9]* $unlinked" "$out.err" ||
			{ echo "path latency does not say the messages cannot be linked" >&2; return 1; }
		"$BIN/caret" report -o "$out.html" "$trace" >/dev/null &&
			grep -q "Note: [0-9]* $unlinked" "$out.html" ||
			{ echo "the report does not say the messages cannot be linked" >&2; return 1; }
	else
		"$BIN/records_check" "$trace" "$truth" "$pids" "${path[@]}" || return 1
		# one process, intra-process on: no inter-process row for the apps'
		# topics (a message lost at the end once showed up on one)
		if [[ $system == pipeline1-intra ]] &&
		   "$BIN/caret" latency topics --format csv "$trace" | grep -E '^/[a-z_/]+,inter,' |
		   grep -vE '^/(parameter_events|rosout),'; then
			echo "latency topics shows inter-process rows in a one-process system" >&2
			return 1
		fi
		if ! "$BIN/caret" check "$trace" >"$out" 2>&1 || ! grep -q '^result: ok' "$out"; then
			cat "$out"
			echo "caret check found problems" >&2
			return 1
		fi
		# every service call followed from the client's send to its take of
		# the response, as the apps saw them (services_check.py)
		# (rclpy's apps call /list_params: real_services.py)
		if [[ $system == services || $system == py-services ]]; then
			/usr/bin/python3 "$CARET_SOURCE_DIR/tests/real/services_check.py" "$trace" "$truth" \
				--caret "$BIN/caret" $([[ $system == py-* ]] && echo --service /list_params --rclpy) \
				>"$out.services" ||
				{ cat "$out.services"; return 1; }
			grep -E '^ok ([0-9]+ calls|no call|the median)' "$out.services" || true
		fi
		# the tracer binds every DDS write to its source timestamp, on
		# Cyclone DDS and on Fast DDS: no message is matched by time
		if grep -q 'no DDS source timestamps' "$out"; then
			grep 'no DDS source timestamps' "$out"
			echo "publishes without their DDS source timestamps" >&2
			return 1
		fi
	fi
	tail -1 "$out"
}
