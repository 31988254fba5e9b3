#!/usr/bin/env bash
# demo.sh - `make demo`: records a short real LTTng trace of every ros2 and
# ros2_caret event and prints the event counts. (Until the tracer and the
# analyzer exist; see README.md.)
#
# usage: scripts/demo.sh [BUILD_DIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" 2>/dev/null && pwd) || {
	echo "caret: build directory ${1:-build} not found; run 'make build'" >&2
	exit 1
}
# shellcheck source=lttng-session.sh
. "$here/lttng-session.sh"

caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1
for tool in tb_emit_all tb_event_counts; do
	[[ -x $build/bin/$tool ]] || { caret_log "$build/bin/$tool missing; run 'make build'"; exit 1; }
done

export CARET_TRACE_DIR=${CARET_TRACE_DIR:-$build/demo/trace-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$(dirname "$CARET_TRACE_DIR")"
caret_lttng_start caret-demo 'ros2:*' 'ros2_caret:*' || exit 1
echo "caret demo: recording session $CARET_SESSION" >&2

LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	"${CARET_GROUP[@]}" "$build/bin/tb_emit_all" &
pid=$!
wait "$pid" || { caret_log "tb_emit_all failed"; exit 1; }
caret_lttng_stop || exit 1

echo "caret demo: trace in $CARET_TRACE_DIR (process $pid)"
"$build/bin/tb_event_counts" --vpid "$pid" --require-all "$CARET_TRACE_DIR"
