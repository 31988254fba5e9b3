#!/usr/bin/env bash
# A trace of the original CARET tracer (caret_trace 0.7.3, in humble-caret)
# on real rclcpp apps, as CARET's users record it (an LTTng session, then
# the apps with the original libcaret.so preloaded): caret-c's analyzer must
# give the original analyzer's answers on it (tests/unit/original_vs_caret.py)
# and `caret check` must be clean. On Fast DDS the original binds every
# sample a writer adds to its history, discovery's included, to address 0:
# the analyzer must still link each publish to its own source timestamp.
# caret check names each process the original tracer's, with the rmw its
# rmw_implementation event says. (On Debian's Cyclone DDS the original
# binds nothing: the function it hooks, dds_write_impl, is not exported
# there: test_real_original_no_dds. Its Cyclone DDS traces with a DDS
# stage are those of shared/data/real-humble, test_original_differential.)
# usage: test_real_original_tracer.sh TREE SYSTEM [RMW]   (TREE: humble-caret)
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${3:-}"
system=$2
original=$REAL_PREFIX/$REAL_TREE/lib/libcaret.so
[[ -f $original ]] || { echo "FAIL: no original tracer at $original" >&2; exit 1; }
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

real_record_original "$work" "$original" "$system"
"$BIN/caret" summary events "$work/trace" | grep -E '^(ros2_caret:dds_bind_addr_to_stamp|total) '
"$BIN/caret" summary events "$work/trace" | grep -q '^ros2_caret:dds_bind_addr_to_stamp ' ||
	{ echo "the original tracer recorded no dds_bind_addr_to_stamp" >&2; exit 1; }

# every message taken on the apps' topics linked to its publish (the last
# ones published may not be received: the apps stop)
"$BIN/caret" latency topics --format csv "$work/trace" >"$work/topics"
cat "$work/topics"
if ! awk -F, '$1 ~ /^\/topic_/ { n++; if ($3 == 0 || $11 != 0) bad = 1 }
	END { exit bad || !n }' "$work/topics"; then
	echo "messages of the apps' topics not linked to their publishes" >&2
	exit 1
fi
"$BIN/caret" check "$work/trace" >"$work/check" 2>&1 || true
tail -1 "$work/check"
grep -q '^result: ok' "$work/check" || { cat "$work/check"; exit 1; }
# each process named as the original tracer's, with the rmw its
# rmw_implementation event says
said="caret_init: the original CARET tracer, distribution ${REAL_TREE%-caret}, rmw $RMW_IMPLEMENTATION"
(($(grep -c "^  $said\$" "$work/check") == $(wc -l <"$work/pids"))) ||
	{ grep caret_init "$work/check"; echo "FAIL: not '$said' for every process" >&2; exit 1; }
echo "ok $said"

real_anchor "$work/anchor"
PYTHONPATH=$work/anchor /usr/bin/python3 "$CARET_SOURCE_DIR/tests/unit/original_vs_caret.py" \
	"$BIN/caret" "$work/trace" >"$work/compared" 2>"$work/original.err" ||
	{ grep -E '^(FAIL|  )' "$work/compared"; tail -5 "$work/original.err"; exit 1; }
grep -E 'differences' "$work/compared"
