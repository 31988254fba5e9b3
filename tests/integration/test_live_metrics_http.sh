#!/usr/bin/env bash
# caret live --metrics HOST:PORT without DDS (issue 46):
#   usage      a bad HOST:PORT (no port, no host, port 0 or over 65535, an
#              IPv6 address without brackets), --metrics with --relayd:
#              exit 2, one line
#   busy       a port another server listens on: exit 1 at once, one line,
#              before anything is recorded
#   served     the testbed pipeline recorded in chunks and played back to
#              caret live --watch --metrics (tests/lib/watch_chunks.sh):
#              GET /metrics in Prometheus's text format and, when Accept
#              asks, OpenMetrics' (ending with # EOF), each accepted by
#              promtool check metrics where it reads it; 404 elsewhere, 405
#              for POST; a client that sends nothing dropped in 2 s, the
#              next scrape answered; the host label on every callback and
#              process;
#              the counters equal to the totals of caret live --json's last
#              window, the histograms' counts to the counters
#   examples   examples/prometheus: the alert rules pass promtool check
#              rules and their unit tests (promtool test rules: each alert
#              fires when it should, not before), the scrape configuration
#              promtool check config
# usage: test_live_metrics_http.sh [CASE...]
set -uo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/lib/watch_chunks.sh"
caret=$CARET_BUILD_DIR/bin/caret
scrape=(python3 "$CARET_SOURCE_DIR/tests/lib/metrics_scrape.py")
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
cases=${*:-usage busy served examples}
failures=0
ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; failures=$((failures + 1)); }

# a port free on loopback now (the kernel's choice)
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

for c in $cases; do
	echo "== $c"
	case $c in
	usage)
		for arg in 9464 :9464 127.0.0.1: 127.0.0.1:0 127.0.0.1:65536 127.0.0.1:x ::1:9464 \
			'[::1]' '[]:9464'; do
			status=0
			"$caret" live --metrics "$arg" --duration 1 >/dev/null 2>"$work/usage.err" ||
				status=$?
			if ((status == 2)) && (($(wc -l <"$work/usage.err") == 1)) &&
				grep -q -- "--metrics" "$work/usage.err"; then
				ok "--metrics '$arg': exit 2, $(cat "$work/usage.err")"
			else
				bad "--metrics '$arg': exit $status: $(cat "$work/usage.err")"
			fi
		done
		status=0
		"$caret" live --relayd 127.0.0.1 --metrics 127.0.0.1:9464 2>"$work/usage.err" ||
			status=$?
		((status == 2)) && grep -q -- "--metrics go there" "$work/usage.err" &&
			ok "--relayd --metrics: exit 2" || bad "--relayd --metrics: exit $status"
		;;
	busy)
		port=$(free_port)
		python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1)
open(sys.argv[2], "w").close(); time.sleep(30)' "$port" "$work/listening" &
		holder=$!
		caret_at_exit "kill $holder 2>/dev/null || true"
		for ((i = 0; i < 100; i++)); do
			[[ -e $work/listening ]] && break
			sleep 0.1
		done
		status=0
		began=$SECONDS
		"$caret" live --metrics "127.0.0.1:$port" --session "metrics-busy-$$" --duration 20 \
			>"$work/busy.out" 2>"$work/busy.err" || status=$?
		kill "$holder"
		line="caret live: --metrics 127.0.0.1:$port: cannot listen there: Address already in use"
		if ((status == 1 && SECONDS - began < 5)) && [[ $(cat "$work/busy.err") == "$line" ]] &&
			! lttng list 2>/dev/null | grep -q "metrics-busy-$$"; then
			ok "a port in use: exit 1 at once, '$line'"
		else
			bad "a port in use: exit $status after $((SECONDS - began)) s: $(cat "$work/busy.err")"
		fi
		;;
	served)
		caret_lttng_require || exit 1
		caret_lttng_ensure_daemon || exit 1
		host=$(hostname)
		path=/sensing/camera,/sensing/image_filter,/perception/fusion
		watch_record "$work/rec" || { bad "the recording"; continue; }
		watch_pending "$work/rec" "$work/pending"
		mkdir -p "$work/watched/$host"
		port=$(free_port)
		url=http://127.0.0.1:$port
		"$caret" live --watch "$work/watched" --json --nodes "$path" --deadline 50ms \
			--window 600 --metrics "127.0.0.1:$port" >"$work/live.json" 2>"$work/live.err" &
		watcher=$!
		caret_at_exit "kill -INT $watcher 2>/dev/null || true"
		for ((i = 0; i < 100; i++)); do
			grep -qs "metrics at $url/metrics" "$work/live.err" && break
			sleep 0.1
		done
		# served before the first look: the families, no row yet
		"${scrape[@]}" get "$url/metrics" >"$work/first.txt"
		grep -qx "caret_live_looks_total 0" "$work/first.txt" &&
			ok "served before the first look" || bad "before the first look: $(head -c 300 "$work/first.txt")"
		# a scraper that connects and says nothing for 10 s: dropped after
		# 2 s, the next scrape answered (under 5 s on a busy machine), the
		# looks not held up (their counts below)
		python3 -c 'import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1]))); time.sleep(10)' "$port" &
		silent=$!
		sleep 0.2
		began=$(date +%s%N)
		"${scrape[@]}" get "$url/metrics" >"$work/after-silent.txt"
		waited=$((($(date +%s%N) - began) / 1000000))
		[[ $(head -1 "$work/after-silent.txt") == 200 ]] && ((waited < 5000)) &&
			ok "a silent client: the next scrape answered in $waited ms" ||
			bad "a silent client: the next scrape took $waited ms: $(head -1 "$work/after-silent.txt")"
		watch_play "$work/pending" "$work/watched/$host/session-1"
		kill "$silent" 2>/dev/null
		wait "$silent" 2>/dev/null
		sleep 1.5 # the last chunk looked at; no look after (no chunk comes)
		"${scrape[@]}" get "$url/metrics" >"$work/prom.txt"
		"${scrape[@]}" get "$url/metrics" --openmetrics >"$work/om.txt"
		"${scrape[@]}" get "$url/other" >"$work/404.txt"
		"${scrape[@]}" get "$url/metrics" --method POST >"$work/405.txt"
		cp "$work/live.json" "$work/live-then.json"
		"${scrape[@]}" get "$url/metrics" >"$work/prom-again.txt"
		kill -INT "$watcher"
		wait "$watcher"
		sed 's/^/  /' "$work/live.err"
		[[ $(sed -n 1p "$work/prom.txt") == 200 ]] &&
			[[ $(sed -n 2p "$work/prom.txt") == "text/plain; version=0.0.4; charset=utf-8" ]] &&
			ok "GET /metrics: 200, the text format 0.0.4" || bad "GET /metrics: $(head -2 "$work/prom.txt")"
		[[ $(sed -n 2p "$work/om.txt") == "application/openmetrics-text; version=1.0.0; charset=utf-8" ]] &&
			[[ $(tail -1 "$work/om.txt") == "# EOF" ]] && grep -q "^# UNIT " "$work/om.txt" &&
			ok "Accept: application/openmetrics-text: OpenMetrics, # EOF last" ||
			bad "OpenMetrics: $(sed -n 2p "$work/om.txt"), last line $(tail -1 "$work/om.txt")"
		[[ $(sed -n 1p "$work/404.txt") == 404 ]] && ok "GET /other: 404" ||
			bad "GET /other: $(sed -n 1p "$work/404.txt")"
		[[ $(sed -n 1p "$work/405.txt") == 405 ]] && ok "POST /metrics: 405" ||
			bad "POST /metrics: $(sed -n 1p "$work/405.txt")"
		if ! cmp -s "$work/prom.txt" "$work/prom-again.txt"; then
			bad "a look came between the scrapes (no chunk came): not compared"
			continue
		fi
		tail -n +3 "$work/prom.txt" >"$work/prom.body"
		if promtool check metrics <"$work/prom.body" >"$work/promtool.out" 2>&1; then
			ok "promtool check metrics: no problem"
		else
			bad "promtool check metrics: $(cat "$work/promtool.out")"
		fi
		python3 - "$work/prom.body" "$work/om.txt" "$work/live-then.json" "$host" \
			"$CARET_SOURCE_DIR/tests/lib" <<'PY' && ok "the counts: as caret live --json's" ||
import json, sys
sys.path.insert(0, sys.argv[5])
from metrics_scrape import samples, value
prom = open(sys.argv[1]).read()
om = open(sys.argv[2]).read().split('\n', 2)[2]
host = sys.argv[4]
last = [json.loads(l) for l in open(sys.argv[3]) if l.startswith('{"type": "window"')][-1]
fails = []
def check(what, got, want):
    if got != want:
        fails.append('%s: %s, not %s' % (what, got, want))
runs = sum(c['total'] for c in last['callbacks'])
check('callback runs', value(prom, 'caret_callback_runs_total'), runs)
check('histogram counts', value(prom, 'caret_callback_latency_seconds_count'), runs)
p = last['paths'][0]
check('path instances', value(prom, 'caret_path_instances_total', path=p['name']), p['total'])
check('path misses', value(prom, 'caret_path_deadline_misses_total', path=p['name']),
      p['total_misses'])
check('path deadline', value(prom, 'caret_path_deadline_seconds', path=p['name']), 0.05)
if runs < 100 or p['total'] < 20:
    fails.append('too little counted: %d runs, %d instances' % (runs, p['total']))
# every callback's series and every process carry the host's name
rows = [(n, l) for n, l, v in samples(prom)
        if n.startswith('caret_callback_') or n == 'caret_process_up']
check('rows without host="%s"' % host, [r for r in rows if r[1].get('host') != host], [])
check('processes', value(prom, 'caret_process_up') is not None, True)
# the buckets cumulative, +Inf equal to the count
for c in last['callbacks']:
    b = [(float(l['le']), v) for n, l, v in samples(prom)
         if n == 'caret_callback_latency_seconds_bucket' and l['callback'] == c['name']]
    check(c['name'] + ' buckets cumulative', all(x[1] <= y[1] for x, y in zip(b, b[1:])), True)
    check(c['name'] + ' +Inf', b[-1], (float('inf'), c['total']))
# the same numbers in OpenMetrics
check('OpenMetrics runs', value(om.rsplit('# EOF', 1)[0], 'caret_callback_runs_total'), runs)
print('callback runs %d, path instances %d, misses %d; %d samples' %
      (runs, p['total'], p['total_misses'], len(samples(prom))))
for f in fails:
    print('  ' + f)
sys.exit(1 if fails else 0)
PY
			bad "the counts differ from caret live --json's"
		;;
	examples)
		if (cd "$CARET_SOURCE_DIR/examples/prometheus" &&
			promtool check rules caret-alerts.yml && promtool test rules caret-alerts.test.yml &&
			promtool check config prometheus.yml) \
			>"$work/examples.out" 2>&1; then
			ok "examples/prometheus: $(grep -c SUCCESS "$work/examples.out") promtool checks"
		else
			bad "examples/prometheus: $(cat "$work/examples.out")"
		fi
		;;
	*)
		bad "no case $c"
		;;
	esac
done
((failures == 0)) && echo "ok" || { echo "$failures failed"; exit 1; }
