#!/usr/bin/env bash
# demo.sh - `make demo`, the main job end to end: the `pipeline` system
# (5 nodes in 3 processes over Cyclone DDS) runs with libcaret.so
# preloaded; a few seconds later `caret record` starts recording it while
# it runs; the system stops; then `caret check`, the callback and path
# latency, and the HTML report in out/demo/report.html.
#
# usage: scripts/demo.sh [BUILD_DIR]
#   CARET_DEMO_OUT  where to write (default: out/demo under the source tree)
#   ROS_DOMAIN_ID   the DDS domain of the demo system (default 87)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/.." && pwd)
build=$(cd "${1:-$here/../build}" 2>/dev/null && pwd) || {
	echo "caret: build directory ${1:-build} not found; run 'make build'" >&2
	exit 1
}
# shellcheck source=lttng-session.sh
. "$here/lttng-session.sh"
# shellcheck source=dds-loopback.sh
. "$here/dds-loopback.sh"

caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1
for tool in caret tb-launch; do
	[[ -x $build/bin/$tool ]] || { caret_log "$build/bin/$tool missing; run 'make build'"; exit 1; }
done
[[ -f $build/lib/libcaret.so ]] || { caret_log "$build/lib/libcaret.so missing; run 'make build'"; exit 1; }

out=${CARET_DEMO_OUT:-$source_dir/out/demo}
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-87}
rm -rf "$out/trace" "$out/report.html"
mkdir -p "$out" || exit 1
system=$source_dir/testbed/systems/pipeline.yaml
chain=/sensing/camera,/sensing/image_filter,/perception/fusion,/planning/planner,/control/actuator

say() { printf '\n== %s\n' "$*"; }

say "1. the pipeline system runs, libcaret.so preloaded (every process waits: no session yet)"
"${CARET_GROUP[@]}" "$build/bin/tb-launch" "$system" --duration 60 --pid-file "$out/pids" \
	--preload "$build/lib/libcaret.so" &
launcher=$! running=1
# shellcheck disable=SC2016 # evaluated at exit: only while it still runs
caret_at_exit '((running)) && kill -INT "$launcher" 2>/dev/null && wait "$launcher"'

sleep 3
kill -0 "$launcher" 2>/dev/null || { caret_log "the pipeline system did not start"; exit 1; }

say "2. caret record, while it runs: 5 s"
"$build/bin/caret" record -o "$out/trace" --duration 5 >/dev/null || exit 1

say "3. the system stops"
kill -INT "$launcher"
wait "$launcher"
status=$? running=0
((status == 0)) || { caret_log "the pipeline system did not stop cleanly"; exit 1; }

say "4. caret check"
"$build/bin/caret" check "$out/trace"
check=$?

say "5. callback latency"
"$build/bin/caret" latency callbacks "$out/trace" || exit 1

say "6. end-to-end latency, camera to actuator"
"$build/bin/caret" path latency --nodes "$chain" "$out/trace" || exit 1

say "7. the report"
"$build/bin/caret" report -o "$out/report.html" "$out/trace" >/dev/null || exit 1
echo "trace:  $out/trace"
echo "report: $out/report.html"
exit "$check"
