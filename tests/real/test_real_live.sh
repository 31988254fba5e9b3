#!/usr/bin/env bash
# caret live on real rclcpp: the pipeline as three processes at 100 Hz,
# /filter sleeping 150 ms once (--stall); caret live attached while they
# run, --deadline 50ms on the path, its JSON lines checked by
# live_check.py against the whole trace it kept (-o): every callback run
# and path instance counted once, the miss found within 2 s with /filter's
# node hop as the one that took the time, and the flight recorder's
# snapshot holding it (read by caret path latency and caret report). A
# node not there: exit 1 with the nearest names. A caret live whose session
# is destroyed under it: exit 1, saying so. Then services and an action
# (live_services_check.py): their rows, a process gone, two joining.
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

echo "== a node that is not there: exit 1 at the first look, the nearest names"
status=0
began=$SECONDS
"$BIN/caret" live --nodes /sensr,/sink --duration 20 >"$work/none.out" 2>"$work/none.err" ||
	status=$?
cat "$work/none.err"
if ((status != 1)) || ! grep -q "no node /sensr in the trace (did you mean /sensor?" \
	"$work/none.err" || ((SECONDS - began > 10)); then
	echo "FAIL: caret live --nodes /sensr,/sink exited $status after $((SECONDS - began)) s"
	exit 1
fi

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

echo "== services and an action; a process gone, two joining"
# the services' two processes first; 3 s into caret live the action's two
# start (joined), 2 s later the services' client is killed (gone)
env LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" services 60 \
	"$work/truth-svc" "$work/pids-svc" >/dev/null 2>"$work/svc.err" &
services=$!
caret_at_exit "kill -TERM $services 2>/dev/null || true"
sleep 2
"$BIN/caret" live --duration 11 --period 0.5 --window 60 --json -o "$work/svc-trace" \
	>"$work/svc.json" 2>"$work/svc-live.err" &
live=$!
sleep 3
env LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" actions 60 \
	"$work/truth-act" "$work/pids-act" >/dev/null 2>"$work/act.err" &
actions=$!
caret_at_exit "kill -TERM $actions 2>/dev/null || true"
sleep 2
client=$(sed -n 's/^client //p' "$work/pids-svc")
kill -TERM "$client"
status=0
wait "$live" || status=$?
cat "$work/svc-live.err"
((status == 0)) || { echo "FAIL: caret live exited $status"; exit 1; }
python3 "$CARET_SOURCE_DIR/tests/real/live_services_check.py" "$BIN/caret" "$work/svc.json" \
	"$work/svc-trace" "$client" "$(cut -d' ' -f2 "$work/pids-act" | paste -sd,)"
kill -TERM "$services" "$actions"
wait "$services" "$actions" || true
echo "ok"
