#!/usr/bin/env bash
# caret-c as a ROS package: `colcon build` of this source tree in a fresh
# workspace, with the ROS tree sourced as a user's shell has it; then, from
# the workspace's install space alone (its setup.bash, `caret env` for the
# tracer's path), a real rclcpp system recorded with the installed caret
# and libcaret.so, and the trace checked against the apps' own truth; and
# `caret record -- CMD` of that system, the installed caret preloading the
# installed tracer by itself.
# usage: test_real_colcon.sh TREE
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon
command -v colcon >/dev/null || { echo "FAIL: colcon is not installed (make deps)" >&2; exit 1; }

ws=$work/ws
mkdir -p "$ws/src"
ln -s "$CARET_SOURCE_DIR" "$ws/src/caret_c"
# two jobs at niceness 10: the build takes what the other tests of make
# test leave of the two cores (their apps mostly wait) and gives way to
# them when they need it (one job at their priority took 50 to 120 s)
(cd "$ws" && MAKEFLAGS=-j2 nice -n 10 colcon build --parallel-workers 1 \
	--cmake-args -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	--event-handlers console_direct-) >"$work/colcon.log" 2>&1 ||
	{ tail -40 "$work/colcon.log"; echo "FAIL: colcon build" >&2; exit 1; }
echo "ok colcon build on $REAL_TREE: $(grep -o 'Summary: .*' "$work/colcon.log")"

# the user's shell: the workspace sourced over the tree
set +u
# shellcheck disable=SC1091
. "$ws/install/setup.bash"
set -u
caret_cmd=$(command -v caret)
[[ $caret_cmd == "$ws/install/"* ]] ||
	{ echo "FAIL: caret on PATH is $caret_cmd, not the workspace's" >&2; exit 1; }
echo "ok caret on PATH from the install space: $caret_cmd ($(caret --version | head -1))"
preload=$(caret env | sed -n 's/^export LD_PRELOAD=\([^$]*\).*/\1/p')
[[ $preload == "$(cd "$ws/install" && pwd -P)/"*/libcaret.so && -r $preload ]] ||
	{ echo "FAIL: caret env gives '$preload'" >&2; exit 1; }
echo "ok caret env: LD_PRELOAD=$preload"

# a real system recorded by the installed caret with the installed tracer
CARET_LIB=$preload BIN=$(dirname "$caret_cmd") real_from_start "$work/run" pipeline3
real_check "$work/run/trace" "$work/run" "$work/run/pids" pipeline3
caret path latency --nodes "$REAL_PATH" --format csv "$work/run/trace" >"$work/path.csv"
reached=$(awk -F, '$1 == "end to end" { print $2 }' "$work/path.csv")
((reached > 0)) || { cat "$work/path.csv"; echo "FAIL: no message along $REAL_PATH" >&2; exit 1; }
echo "ok the installed caret follows $reached messages along $REAL_PATH"

# caret record -- CMD: the installed caret finds the installed tracer
BIN=$(dirname "$caret_cmd") real_record_launched "$work/launched" pipeline3 | sed 's/^/ok /'
