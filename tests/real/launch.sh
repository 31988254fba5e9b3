#!/usr/bin/env bash
# launch.sh - runs one system of real rclcpp apps (tests/real/apps) to its
# end: every process in the background, each under its own name (a link
# to the app named after its role, so LTTng's procname and
# CARET_IGNORE_PROCESSES see it), "NAME PID" lines in the pid file; exits 1
# if a process failed. The environment (LD_PRELOAD, CARET_*, ROS) passes to
# the apps; `caret record -- launch.sh ...` preloads the tracer that way.
#
# With REAL_NICE=N every app runs at niceness N (tests/real set -15 where
# allowed, see real_env.sh).
#
# With REAL_RMW=mixed, the processes alternate between Fast DDS and Cyclone
# DDS in the order they start (the first on rmw_fastrtps_cpp); otherwise
# RMW_IMPLEMENTATION chooses for all.
#
# usage: launch.sh APPS_DIR SYSTEM DURATION TRUTH_DIR PID_FILE [APP ARGS...]
#   APP ARGS go to every app (e.g. --period-ms 1)
#   pipeline3        /sensor, /filter, /sink in three processes
#   split3           pipeline3 with /busy in /filter's process: a timer that
#                    spins 15 ms every 37 ms (not a multiple of /sensor's
#                    20 ms: every phase comes), keeping that executor busy
#                    (/topic_a's messages wait for it; /sink's are not held)
#   pipeline1        the three in one process
#   latest3          pipeline3 with /filter timer-driven: /sensor every 50 ms,
#                    /filter's timer every 20 ms publishes its latest input
#   consume3         the same, /filter's input carried by its next output
#                    only (the later ones carry none)
#   pipeline1-intra  the same with intra-process communication
#   executors        multi-threaded (reentrant group) and static executors
#   services         /server and /client in two processes
#   services-chain   the same, and /listener of the answers the client's
#                    response callback publishes, with /client
#   actions          /action_server and /action_client (rclcpp_action), two
#                    processes
#   churn            nodes created and destroyed while others run
#   tutorial         the system CARET's tutorials measure (/sensor_dummy_node
#                    ... /actuator_dummy_node), one process, every 50 ms
#   events           the pipeline in one process on Jazzy's EventsExecutor
#   tf4              /wheels, /odometry (tf broadcaster), /map_static (static
#                    broadcaster), /planner (tf lookups) in four processes
#   tf1              the four in one process
# rclpy's (tests/real/apps_py, run by /usr/bin/python3 from there; they need
# rclpy in the environment, the jazzy-rclpy overlay: without it the launch
# fails, saying so):
#   py-pipeline3     pipeline3 as three rclpy processes
#   py-pipeline1     the three rclpy nodes in one process
#   py-mixed         rclcpp /sensor -> rclpy /filter -> rclcpp /sink, three
#                    processes (a chain crossing rclcpp -> rclpy -> rclcpp)
#   py-mixed-filter  rclpy /sensor -> rclcpp /filter -> rclpy /sink
#   py-services      rclpy /server and /client in two processes
#                    (/list_params: rcl_interfaces/srv/ListParameters)
#   py-executors     rclpy's MultiThreadedExecutor (three threads): two
#                    timers in a mutually exclusive group, two subscriptions
#                    in a reentrant one, one process
set -uo pipefail
if (($# < 5)); then
	sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
fi
apps=$1 system=$2 duration=$3 truth=$4 pids=$5
shift 5
extra=("$@")
names=$(mktemp -d)
trap 'rm -rf "$names"' EXIT
: >"$pids"
started=()
roles=() # pid -> role, for what is said of a process

rmws=(rmw_fastrtps_cpp rmw_cyclonedds_cpp)
apps_py=$(cd "$(dirname "$0")" && pwd)/apps_py
python=/usr/bin/python3
start() { # ROLE APP ARGS... (APP NAME.py: rclpy's, run by Python)
	local role=$1 app=$2 rmw=() rt=() script=()
	shift 2
	if [[ $app == *.py ]]; then
		# Python under the role's name (LTTng's procname), the script after it
		ln -s "$python" "$names/$role"
		script=("$apps_py/$app")
	else
		ln -s "$apps/$app" "$names/$role"
	fi
	[[ ${REAL_RMW:-} == mixed ]] && rmw=(env "RMW_IMPLEMENTATION=${rmws[${#started[@]} % 2]}")
	[[ -n ${REAL_NICE:-} ]] && rt=(nice -n "$REAL_NICE")
	"${rt[@]}" "${rmw[@]}" "$names/$role" "${script[@]}" --process "$role" --truth "$truth" --duration "$duration" \
		"$@" "${extra[@]}" &
	echo "$role $!" >>"$pids"
	started+=("$!")
	roles[$!]=$role
}

if [[ $system == py-* ]] && ! env -u LD_PRELOAD "$python" -c 'import rclpy' 2>/dev/null; then
	echo "launch.sh: $system needs rclpy, which $python cannot import here" \
		"(the jazzy-rclpy overlay: . /opt/ros/jazzy-rclpy/setup.bash)" >&2
	exit 2
fi
case $system in
pipeline3)
	start sensor real_pipeline --nodes sensor
	start filter real_pipeline --nodes filter
	start sink real_pipeline --nodes sink
	;;
split3)
	start sensor real_pipeline --nodes sensor
	start filter real_pipeline --nodes filter,busy --busy 15:37
	start sink real_pipeline --nodes sink
	;;
latest3 | consume3)
	mode=keep
	[[ $system == consume3 ]] && mode=consume
	start sensor real_pipeline --nodes sensor --period-ms 50
	start filter real_pipeline --nodes filter --filter-timer "20:$mode"
	start sink real_pipeline --nodes sink
	;;
pipeline1) start pipeline real_pipeline ;;
pipeline1-intra) start pipeline real_pipeline --intra ;;
executors) start executors real_executors --period-ms 30 ;;
services)
	start server real_services --nodes server
	start client real_services --nodes client --period-ms 50
	;;
services-chain)
	start server real_services --nodes server
	start client real_services --nodes client,listener --period-ms 50
	;;
actions)
	start action_server real_actions --nodes action_server
	start action_client real_actions --nodes action_client --period-ms 50
	;;
churn) start churn real_churn ;;
tutorial) start tutorial real_tutorial --period-ms 50 ;;
events) start pipeline real_pipeline --executor events ;;
tf4)
	start map_static real_tf --nodes map_static
	start planner real_tf --nodes planner
	start odometry real_tf --nodes odometry
	start wheels real_tf --nodes wheels
	;;
tf1) start tf real_tf ;;
py-pipeline3)
	start sensor real_pipeline.py --nodes sensor
	start filter real_pipeline.py --nodes filter
	start sink real_pipeline.py --nodes sink
	;;
py-pipeline1) start pipeline real_pipeline.py ;;
py-mixed)
	start sensor real_pipeline --nodes sensor
	start filter real_pipeline.py --nodes filter
	start sink real_pipeline --nodes sink
	;;
py-mixed-filter)
	start sensor real_pipeline.py --nodes sensor
	start filter real_pipeline --nodes filter
	start sink real_pipeline.py --nodes sink
	;;
py-services)
	start server real_services.py --nodes server
	start client real_services.py --nodes client --period-ms 50
	;;
py-executors) start executors real_executors.py --period-ms 30 ;;
*)
	echo "launch.sh: no system '$system'" >&2
	exit 2
	;;
esac

# Ctrl-C / TERM reach every app, which then stops as rclcpp does. (A
# script that started this in the background stops it with TERM: there
# bash ignores INT, and a signal ignored on entry cannot be trapped.)
# A process still there 30 s after its run should have ended, or after it
# was told to stop, has hung (seen: Fast DDS's teardown at exit with the
# original CARET tracer preloaded, about one process in sixty): it is
# killed and said, and the launch fails.
deadline=$((SECONDS + ${duration%.*} + 30))
trap 'kill -INT "${started[@]}" 2>/dev/null; deadline=$((SECONDS + 30))' INT TERM
alive() { # PID: running, not a zombie
	local state
	state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) && [[ $state != Z ]]
}
failed=0
for pid in "${started[@]}"; do
	while alive "$pid" && ((SECONDS < deadline)); do
		sleep 0.1
	done
	hung=0
	if alive "$pid"; then
		echo "launch.sh: $system: process $pid (${roles[$pid]}) hung at exit: killed" >&2
		# where its threads were, for the log (gdb where installed)
		if command -v gdb >/dev/null; then
			timeout 60 gdb -p "$pid" -batch -ex 'thread apply all bt 30' 2>/dev/null |
				grep -E '^(#|Thread)' | sed 's/^/launch.sh:   /' >&2
		fi
		kill -KILL "$pid" 2>/dev/null
		hung=1 failed=1
	fi
	while :; do
		wait "$pid"
		status=$?
		# interrupted by a trapped signal: wait again for the same pid
		((status > 128)) && alive "$pid" && continue
		break
	done
	if ((status != 0 && !hung)); then
		echo "launch.sh: $system: process $pid (${roles[$pid]}) exited with status $status" >&2
		failed=1
	fi
done
exit "$failed"
