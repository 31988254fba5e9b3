#!/usr/bin/env bash
# caret live on real rclcpp: the pipeline as three processes at 100 Hz,
# /filter sleeping 150 ms once (--stall); caret live attached while they
# run, --deadline 50ms on the path, its JSON lines checked by
# live_check.py against the whole trace it kept (-o): every callback run
# and path instance counted once, the miss found within 2 s with /filter's
# node hop as the one that took the time, and the flight recorder's
# snapshot holding it (read by caret path latency and caret report). Then
# a caret live whose session is destroyed under it: exit 1, saying so.
# usage: test_real_live.sh TREE [RMW]   (RMW: see real_env.sh)
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${2:-}"
work=$(mktemp -d)
[[ -n ${LIVE_KEEP:-} ]] && echo "kept: $work" || caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

# the apps run until both looks are done (then stopped as Ctrl-C does)
env LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" pipeline3 60 \
	"$work/truth" "$work/pids" --period-ms 10 --stall 150@5 >/dev/null 2>"$work/apps.err" &
launcher=$!
caret_at_exit "kill -TERM $launcher 2>/dev/null || true"
sleep 2

echo "== caret live --deadline 50ms, a miss on purpose"
status=0
# a look every 0.5 s: a miss found within 2 s even on a machine as busy as
# make test's (a look then takes up to a second)
# callback_chain: /filter publishes from the run that took the message, so
# the stalled run's output is its input's (use_latest_message drops that
# message when the next one is published during the stall and lost)
"$BIN/caret" live --nodes "$REAL_PATH" --deadline 50ms --duration 10 --period 0.5 --window 60 \
	--policy callback_chain --json \
	--snapshot-on-miss "$work/snaps" -o "$work/trace" >"$work/live.json" 2>"$work/live.err" ||
	status=$?
cat "$work/live.err"
if ((status != 3)); then
	echo "FAIL: caret live exited $status, not 3 (a deadline missed)"
	exit 1
fi
grep -q "all 3 processes recording" "$work/live.err"
python3 "$CARET_SOURCE_DIR/tests/real/live_check.py" "$BIN/caret" "$work/live.json" \
	"$work/trace" "$REAL_PATH" 50 150 --policy callback_chain

echo "== the session destroyed under caret live"
"$BIN/caret" live --session "live-destroyed-$$" --duration 60 --json >"$work/gone.json" \
	2>"$work/gone.err" &
live=$!
caret_at_exit "kill -INT $live 2>/dev/null || true"
for ((i = 0; i < 300; i++)); do
	[[ -s $work/gone.json ]] && break
	sleep 0.1
done
lttng destroy "live-destroyed-$$" >/dev/null
status=0
wait "$live" || status=$?
cat "$work/gone.err"
if ((status != 1)) || ! grep -q "session live-destroyed-$$ was destroyed by someone else" \
	"$work/gone.err"; then
	echo "FAIL: caret live exited $status when its session was destroyed"
	exit 1
fi
grep -q '"type": "window"' "$work/gone.json"
kill -TERM "$launcher"
wait "$launcher" || true
echo "ok"
