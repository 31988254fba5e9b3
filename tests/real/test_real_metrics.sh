#!/usr/bin/env bash
# caret live --metrics scraped by a real Prometheus server (issue 46): the
# pipeline as three processes at 100 Hz, /filter sleeping 150 ms once
# (--stall), caret live --arch (a 50 ms deadline on the path) --json
# --metrics on a free loopback port; Debian's prometheus started here on
# loopback with its own configuration (a scrape and an evaluation a
# second), data folder and the alert rules shipped in examples/prometheus
# (promtool check rules first), stopped by its PID. metrics_check.py then
# asks the server's HTTP API: every process up, the miss counter above 0
# and CaretDeadlineMissed firing while the apps run; once they are stopped,
# every process 0 with CaretProcessGone firing, the counters equal to
# caret live --json's totals, and histogram_quantile(0.99) in the bucket of
# the p99 caret live printed (the tolerance: that bucket's width).
# usage: test_real_metrics.sh TREE [RMW]   (RMW: see real_env.sh)
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/real/real_env.sh" "$1" "${2:-}"
work=$(mktemp -d)
[[ -n ${METRICS_KEEP:-} ]] && echo "kept: $work" || caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon
for tool in prometheus promtool; do
	command -v "$tool" >/dev/null ||
		{ echo "FAIL: $tool is not installed ('make deps' installs Debian's prometheus)"; exit 1; }
done
rules=$CARET_SOURCE_DIR/examples/prometheus/caret-alerts.yml
promtool check rules "$rules"

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
caret_port=$(free_port)
prom_port=$(free_port)
prom=http://127.0.0.1:$prom_port
path=sensor_to_sink
{
	cat "$CARET_SOURCE_DIR/tests/data/arch/real-sensor-sink.yaml"
	printf 'deadlines:\n- path_name: %s\n  deadline: 50ms\n' "$path"
} >"$work/arch.yaml"

echo "== prometheus on 127.0.0.1:$prom_port, scraping caret live on 127.0.0.1:$caret_port"
mkdir -p "$work/prom"
cat >"$work/prom/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $rules
scrape_configs:
  - job_name: caret
    static_configs:
      - targets: ['127.0.0.1:$caret_port']
YAML
promtool check config "$work/prom/prometheus.yml" >/dev/null
prometheus --config.file="$work/prom/prometheus.yml" --storage.tsdb.path="$work/prom/data" \
	--web.listen-address="127.0.0.1:$prom_port" >"$work/prom/log" 2>&1 &
prometheus=$!
caret_at_exit "kill -TERM $prometheus 2>/dev/null || true"
for ((i = 0; i < 300; i++)); do
	python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
		"$prom/-/ready" 2>/dev/null && break
	kill -0 "$prometheus" 2>/dev/null || { cat "$work/prom/log"; echo "FAIL: prometheus ended"; exit 1; }
	sleep 0.1
done

echo "== the apps, caret live --arch --json --metrics"
env LD_PRELOAD="$CARET_LIB" "${CARET_GROUP[@]}" "$REAL_LAUNCH" "$REAL_APPS" pipeline3 90 \
	"$work/truth" "$work/pids" --period-ms 10 --stall 150@8 >/dev/null 2>"$work/apps.err" &
launcher=$!
caret_at_exit "kill -TERM $launcher 2>/dev/null || true"
sleep 2
# callback_chain: the stalled run's output is its input's (as test_real_live);
# a window longer than the run: caret live's p99 is the whole run's, as the
# histogram's
"$BIN/caret" live --arch "$work/arch.yaml" --policy callback_chain --period 0.5 --window 600 \
	--json --metrics "127.0.0.1:$caret_port" --duration 120 >"$work/live.json" \
	2>"$work/live.err" &
live=$!
caret_at_exit "kill -INT $live 2>/dev/null || true"
status=0
python3 "$CARET_SOURCE_DIR/tests/real/metrics_check.py" running "$prom" "$work/pids" "$path" ||
	status=$?
kill -TERM "$launcher"
wait "$launcher" || true
if ((status == 0)); then
	python3 "$CARET_SOURCE_DIR/tests/real/metrics_check.py" stopped "$prom" "$work/pids" "$path" \
		"$work/live.json" || status=$?
fi
# what Prometheus scraped last, kept with METRICS_KEEP=1
python3 "$CARET_SOURCE_DIR/tests/lib/metrics_scrape.py" get "http://127.0.0.1:$caret_port/metrics" \
	>"$work/metrics.txt" || true
kill -INT "$live" 2>/dev/null || true # (ended already: its stderr says why)
live_status=0
wait "$live" || live_status=$?
cat "$work/live.err"
kill -TERM "$prometheus"
wait "$prometheus" || true
if ((status != 0)); then
	tail -5 "$work/prom/log"
	exit 1
fi
if ((live_status != 3)); then
	echo "FAIL: caret live exited $live_status, not 3 (a deadline missed)"
	exit 1
fi
grep -q "caret live: metrics at http://127.0.0.1:$caret_port/metrics" "$work/live.err"
echo "ok"
