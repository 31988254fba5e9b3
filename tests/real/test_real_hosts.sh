#!/usr/bin/env bash
# Two hosts on real rclcpp (Humble): network, mount and UTS namespaces made
# by tests/lib/hosts.sh, each with its own session daemon and apps, DDS on
# their private link only. Host A runs /sensor and /sink, host B /filter:
# /topic_a crosses A -> B, /topic_b B -> A. Each host's `caret record
# --relayd` streams its trace to one lttng-relayd on the analysis side,
# which files it under the host's name. Then, on the relay daemon's output
# (--merge):
#   - caret check names both hosts and estimates B's clock against A's from
#     the messages crossing both ways, within the bound it prints (the true
#     offset is 0: the namespaces share one clock);
#   - the same trace with a known offset added to B's clock (its metadata's
#     clock offset, +1.5 s): the estimate recovers it within the bound it
#     prints, and caret path latency across the hosts gives the latencies
#     of the unshifted trace (within that bound);
#   - every message the sink took is followed across the hosts;
#   - caret live --watch on the analysis side while host A records with
#     caret record --rotate 1 and host B with caret live --relayd, and
#     /filter on B sleeps once: every run and instance
#     counted once across the hosts, the miss found with its hop; its
#     --metrics labels each callback and process with its host, the
#     counters as its JSON's totals;
#   - bad input: host B's recorder killed under caret live --watch: said,
#     exit 1, host A's data still counted; a relay daemon that is not there (exit 1, said); a second
#     host whose processes exchange nothing with the first: its clock
#     cannot be estimated, said as a warning, the first host's data kept.
# usage: test_real_hosts.sh TREE
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1"
((EUID == 0)) || { echo "SKIP: needs root (namespaces, a session daemon per host)"; exit 77; }
for tool in lttng-sessiond lttng-relayd ip bridge nsenter unshare ss; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
. "$CARET_SOURCE_DIR/tests/lib/hosts.sh"
caret=$BIN/caret
hosts_setup 2
hosts_sessiond_start A
hosts_sessiond_start B
out=$HOSTS_DIR/relayd
hosts_relayd_start "$out"
work=$HOSTS_DIR
# the hosts' own session daemons see only their apps: no vgid to track
unset CARET_TEST_VGID

echo "== caret record --relayd in each host, the apps after it"
for h in A B; do
	host_spawn "$h" "$caret" record --immediate --relayd "$HOSTS_RELAYD_ADDR" \
		--session "hosts-$h" 2>"$work/record-$h.err" >/dev/null
	declare "rec_$h=$HOSTS_LAST_PID"
done
for h in A B; do
	for ((i = 0; i < 300; i++)); do
		grep -q "session hosts-$h" "$work/record-$h.err" && break
		sleep 0.1
	done
done
mkdir -p "$work/bin" "$work/truth-A" "$work/truth-B"
ln -s "$REAL_APPS/real_pipeline" "$work/bin/sensor_sink"
ln -s "$REAL_APPS/real_pipeline" "$work/bin/filter"
host_spawn B env LD_PRELOAD="$CARET_LIB" "$work/bin/filter" --nodes filter --duration 6 \
	--period-ms 20 --process filter --truth "$work/truth-B" >"$work/filter.log" 2>&1
app_b=$HOSTS_LAST_PID
host_spawn A env LD_PRELOAD="$CARET_LIB" "$work/bin/sensor_sink" --nodes sensor,sink \
	--duration 6 --period-ms 20 --process sensor_sink --truth "$work/truth-A" \
	>"$work/sensor_sink.log" 2>&1
app_a=$HOSTS_LAST_PID
wait "$app_a"
wait "$app_b"
for h in A B; do
	rec=rec_$h
	kill -INT "${!rec}"
	status=0
	wait "${!rec}" || status=$?
	cat "$work/record-$h.err"
	if ((status != 0)); then
		echo "FAIL: caret record in host $h exited $status"
		exit 1
	fi
	grep -q "streamed to lttng-relayd on $HOSTS_RELAYD_ADDR" "$work/record-$h.err"
done
ls "$out"
[[ -d $out/$HOST_A_HOSTNAME && -d $out/$HOST_B_HOSTNAME ]]

python3 "$CARET_SOURCE_DIR/tests/real/hosts_check.py" "$caret" "$out" "$work/shifted" \
	"$HOST_B_HOSTNAME" 1500000000 "$work/truth-A" "$REAL_PATH"

echo "== caret live --watch on the analysis side; each host: caret record --rotate 1"
sleep 3 # the sessions above ended: the watch follows new ones
status=0
metrics_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$caret" live --watch "$out" --hosts 2 --nodes "$REAL_PATH" --deadline 50ms --window 60 \
	--policy callback_chain --json --metrics "127.0.0.1:$metrics_port" >"$work/watch.json" \
	2>"$work/watch.err" &
watcher=$!
caret_at_exit "kill -INT $watcher 2>/dev/null || true"
sleep 1
# host A as caret record --rotate 1, host B as caret live --relayd: the same
host_spawn A "$caret" record --immediate --relayd "$HOSTS_RELAYD_ADDR" \
	--session watched-A --rotate 0.5 -d 10 2>"$work/watched-A.err" >/dev/null
rec_A=$HOSTS_LAST_PID
host_spawn B "$caret" live --relayd "$HOSTS_RELAYD_ADDR" --session watched-B --period 0.5 -d 10 \
	2>"$work/watched-B.err" >/dev/null
rec_B=$HOSTS_LAST_PID
sleep 1
host_spawn B env LD_PRELOAD="$CARET_LIB" "$work/bin/filter" --nodes filter --duration 7 \
	--period-ms 20 --stall 150@3 >/dev/null 2>&1
app_b=$HOSTS_LAST_PID
host_spawn A env LD_PRELOAD="$CARET_LIB" "$work/bin/sensor_sink" --nodes sensor,sink \
	--duration 7 --period-ms 20 >/dev/null 2>&1
app_a=$HOSTS_LAST_PID
wait "$app_a"
wait "$app_b"
wait "$rec_A"
wait "$rec_B"
sleep 2 # the last chunks archived and seen, then the watch ends as Ctrl-C ends it
python3 "$CARET_SOURCE_DIR/tests/lib/metrics_scrape.py" get \
	"http://127.0.0.1:$metrics_port/metrics" >"$work/watch.metrics"
cp "$work/watch.json" "$work/watch-then.json"
kill -INT "$watcher"
wait "$watcher" || status=$?
cat "$work/watch.err"
if ((status != 3)); then
	echo "FAIL: caret live --watch exited $status, not 3 (a deadline missed)"
	exit 1
fi
# --metrics: every host's series, each callback and process on its host
python3 - "$work/watch.metrics" "$work/watch-then.json" "$HOST_A_HOSTNAME" "$HOST_B_HOSTNAME" \
	"$CARET_SOURCE_DIR/tests/lib" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[5])
from metrics_scrape import samples, value
text = open(sys.argv[1]).read().split('\n', 2)[2]
a, b = sys.argv[3], sys.argv[4]
last = [json.loads(l) for l in open(sys.argv[2]) if l.startswith('{"type": "window"')][-1]
want = {'/sensor': a, '/sink': a, '/filter': b}
hosts = {l['node']: l.get('host') for n, l, v in samples(text) if n == 'caret_callback_runs_total'}
procs = {l['process']: l.get('host') for n, l, v in samples(text) if n == 'caret_process_up'}
path = last['paths'][0]
got = (hosts, procs.get('filter'), value(text, 'caret_path_deadline_misses_total'),
       value(text, 'caret_callback_runs_total'))
expected = (want, b, path['total_misses'], sum(c['total'] for c in last['callbacks']))
print('--metrics: callbacks on', hosts, '; processes on', procs)
if got != expected:
    print('FAIL: --metrics gave %s, not %s' % (got, expected))
    sys.exit(1)
PY
python3 "$CARET_SOURCE_DIR/tests/real/live_check.py" "$caret" "$work/watch.json" \
	"$(echo "$out"/$HOST_A_HOSTNAME/watched-A-*):$(echo "$out"/$HOST_B_HOSTNAME/watched-B-*)" \
	"$REAL_PATH" 50 150 --no-snapshot --policy callback_chain

echo "== bad input: host B vanishes under caret live --watch"
sleep 3
status=0
"$caret" live --watch "$out" --json --duration 12 >"$work/vanish.json" 2>"$work/vanish.err" &
watcher=$!
caret_at_exit "kill -INT $watcher 2>/dev/null || true"
sleep 1
for h in A B; do
	host_spawn "$h" "$caret" record --immediate --relayd "$HOSTS_RELAYD_ADDR" \
		--session "vanish-$h" --rotate 1 -d 9 2>"$work/vanish-$h.err" >/dev/null
	declare "rec_$h=$HOSTS_LAST_PID"
done
sleep 1
host_spawn B env LD_PRELOAD="$CARET_LIB" "$work/bin/filter" --nodes filter --duration 8 \
	--period-ms 20 >/dev/null 2>&1
app_b=$HOSTS_LAST_PID
host_spawn A env LD_PRELOAD="$CARET_LIB" "$work/bin/sensor_sink" --nodes sensor,sink \
	--duration 8 --period-ms 20 >/dev/null 2>&1
app_a=$HOSTS_LAST_PID
sleep 3
kill -KILL "$rec_B" # host B's recorder gone: its session rotates no more
wait "$app_a"
wait "$app_b"
wait "$rec_A"
wait "$rec_B" || true
wait "$watcher" || status=$?
cat "$work/vanish.err"
if ((status != 1)) || ! grep -q "$HOST_B_HOSTNAME stopped sending with its session recording" \
	"$work/vanish.err"; then
	echo "FAIL: caret live --watch exited $status when host B vanished"
	exit 1
fi
# host A's data kept: its timer ran on, a window after B left counts it
python3 - "$work/vanish.json" <<'PY'
import json, sys
w = [json.loads(l) for l in open(sys.argv[1]) if '"window"' in l]
runs = [c['total'] for c in w[-1]['callbacks'] if c['name'] == '/sensor/callback_0']
print(f"after host B left: /sensor's timer counted {runs} runs")
sys.exit(0 if runs and runs[0] > 200 else 1)
PY

echo "== bad input: no relay daemon there"
status=0
host_exec A "$caret" record --immediate --relayd "$HOSTS_SUBNET.99" -d 1 \
	2>"$work/nowhere.err" >/dev/null || status=$?
cat "$work/nowhere.err"
((status == 1)) && grep -q "cannot stream to the relay daemon at $HOSTS_SUBNET.99" "$work/nowhere.err"

echo "== bad input: a host whose processes exchange nothing with the first"
mkdir -p "$work/apart"
cp -r "$out/$HOST_A_HOSTNAME" "$work/apart/"
cp -r "$CARET_SHARED_DIR/data/real-humble/caret-fork-inter" "$work/apart/other"
status=0
"$caret" check --merge "$work/apart" >"$work/apart.out" 2>&1 || status=$?
cat "$work/apart.out"
grep -q "its clock cannot be estimated: no message crosses between it and" "$work/apart.out"
grep -q "^result: ok (1 warning)" "$work/apart.out" ||
	grep -q "^result: ok ([0-9]* warnings)" "$work/apart.out"
echo "ok"
