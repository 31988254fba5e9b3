#!/usr/bin/env bash
# An action on real rclcpp_action (tests/real/apps/actions.cpp): a server
# that accepts and completes each goal, and a client that sends one goal
# at a time and asks for its result, in two processes. rclcpp_action
# carries a goal over the action's services: `caret latency services` must
# show its send_goal and get_result calls, and `caret latency actions`
# each goal from the client's send_goal request to its take of the result,
# next to the app's own clock reads (actions_check.py); recorded from the
# start (its report and export show the action), and while the apps run.
# usage: test_real_actions.sh TREE [RMW]   (RMW: see real_env.sh)
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${2:-}"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

echo "== recorded from the start"
real_from_start "$work/first" actions
/usr/bin/python3 "$CARET_SOURCE_DIR/tests/real/actions_check.py" "$work/first/trace" \
	"$work/first" --caret "$BIN/caret"

# The report and the export show the action and its services
# (tests/browser: report_services.py; the report opened in Chromium on
# Jazzy, Cyclone DDS)
. "$CARET_SOURCE_DIR/tests/browser/checks.sh"
browser=(--no-browser)
[[ $REAL_TREE == jazzy && $REAL_RMW == cyclonedds ]] && browser=()
report_checks "$BIN/caret" "$work/first/trace" "$work/first/report" "${browser[@]}" \
	--expect-node /action_server --expect-node /action_client
/usr/bin/python3 "$CARET_SOURCE_DIR/tests/browser/report_services.py" \
	"$work/first/report/report.html" "$work/first/report/export.json" \
	--service /lookup/_action/send_goal --client /action_client --server /action_server \
	--action /lookup

echo "== recorded while the apps run"
# the apps run until the recording is done, then stop as Ctrl-C stops them
mkdir -p "$work/late"
LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" actions 120 \
	"$work/late" "$work/late/pids" >/dev/null &
launcher=$!
caret_at_exit "kill -TERM $launcher 2>/dev/null || true"
sleep 1.5
"$BIN/caret" record -o "$work/late/trace" --duration 1.5 >/dev/null 2>"$work/late/record.err" ||
	{ cat "$work/late/record.err" >&2; exit 1; }
grep -q ' 0 discarded$' "$work/late/record.err" || { cat "$work/late/record.err" >&2; exit 1; }
grep -q "all 2 processes recording" "$work/late/record.err" ||
	{ cat "$work/late/record.err" >&2; exit 1; }
kill -TERM "$launcher"
wait "$launcher"
/usr/bin/python3 "$CARET_SOURCE_DIR/tests/real/actions_check.py" "$work/late/trace" \
	"$work/late" --caret "$BIN/caret"
