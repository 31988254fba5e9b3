#!/usr/bin/env bash
# Runs a testbed system under a real LTTng session, with the testbed's
# tracetools (and tb_probe recording the DDS source timestamps), and checks
# from the trace alone that it matches the description and the ground truth.
# usage: test_tb_systems.sh SYSTEM [DURATION]
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
system=$1 duration=${2:-3}
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
mkdir "$work/probe"

caret_lttng_require
caret_lttng_ensure_daemon
caret_lttng_start "caret-test-tb-$system" 'ros2:*' 'ros2_caret:*'
TB_PROBE_DIR=$work/probe caret_in_test_group "$bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/$system.yaml" \
	--duration "$duration" --truth "$work/truth" --pid-file "$work/pids" \
	--preload "$CARET_BUILD_DIR/lib/libtb_probe.so"
caret_lttng_stop
"$bin/tb_trace_check" "$CARET_SOURCE_DIR/testbed/systems/$system.yaml" \
	"$CARET_TRACE_DIR" "$work/truth" "$work/pids"
