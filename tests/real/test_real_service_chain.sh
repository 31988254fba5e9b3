#!/usr/bin/env bash
# A chain through a service and on (tests/real/apps/services.cpp with
# /listener): /client's timer calls /list_nodes, /server answers, the
# client's response callback publishes on /answers and /listener takes
# it. Recorded from the start; services_check.py --chain: every call
# followed, and `caret path latency --nodes /client,/server,/client,/listener`
# through the service, the client's response run and the topic; the
# report and the export show the service.
# (Not in test_real_app.sh: the original analyzer, which it compares with,
# starts paths from publishes outside callback runs and caret-c does not.)
# usage: test_real_service_chain.sh TREE [RMW]   (RMW: see real_env.sh)
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${2:-}"
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

real_from_start "$work" services-chain
/usr/bin/python3 "$CARET_SOURCE_DIR/tests/real/services_check.py" "$work/trace" "$work" \
	--caret "$BIN/caret" --chain
# The report and the export show the user's service (tests/browser:
# report_services.py; the report opened in Chromium on Jazzy)
. "$CARET_SOURCE_DIR/tests/browser/checks.sh"
browser=(--no-browser)
[[ $REAL_TREE == jazzy ]] && browser=()
report_checks "$BIN/caret" "$work/trace" "$work/report" "${browser[@]}" --expect-node /server \
	--expect-node /client --expect-node /listener
/usr/bin/python3 "$CARET_SOURCE_DIR/tests/browser/report_services.py" "$work/report/report.html" \
	"$work/report/export.json" --service /list_nodes --client /client --server /server \
	--service-callback
