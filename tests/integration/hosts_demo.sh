#!/usr/bin/env bash
# hosts_demo.sh - two simulated hosts recording one ROS 2 system into one
# lttng-relayd (tests/lib/hosts.sh; issue 34, multi-host tracing):
#   1. hosts A and B (network + mount + UTS namespaces, a bridge on the
#      analysis side), each with its own root lttng-sessiond; lttng-relayd
#      on the analysis side;
#   2. real_pipeline on real ROS 2 Humble with libcaret.so preloaded, on
#      Cyclone DDS pinned to each host's veth, no multicast, unicast peers:
#      /sensor and /filter in host A, /sink in host B (/topic_b crosses
#      A -> bridge -> B);
#   3. one streaming session per host (lttng create --set-url net://RELAYD),
#      started before the apps, stopped and destroyed after them; the
#      relayd's output tree (one folder per hostname), then caret check and
#      caret path latency with --merge on it (printed, not judged: the
#      analyzer does not know about hosts yet);
#   4. teardown of everything on every exit (hosts_teardown).
# Exit 0 only if the sink in B received /topic_b from A's publisher
# (the apps' truth files) and both hosts' traces are in the relayd's output
# (metadata and a non-empty data stream each); 77 (skip) without root,
# LTTng, ROS 2 Humble or the built apps; 1 otherwise.
#
# Environment: CARET_BUILD_DIR (default: this tree's build/), ROS_SETUP
# (default /opt/ros/humble/setup.bash), HOSTS_KEEP=1 keeps the temporary
# directory (relayd output, truth, logs) and says where it is,
# DURATION (default 6) seconds the apps run.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${CARET_BUILD_DIR:-$src/build}
caret=$build/bin/caret
tracer=$build/lib/libcaret.so
app=$build/real/humble/bin/real_pipeline
ros_setup=${ROS_SETUP:-/opt/ros/humble/setup.bash}
duration=${DURATION:-6}

skip() { echo "SKIP: $*"; exit 77; }
((EUID == 0)) || skip "needs root (network and mount namespaces, a root lttng-sessiond per host)"
for tool in lttng lttng-sessiond lttng-relayd ip bridge nsenter unshare ss; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done
[[ -f $ros_setup ]] || skip "ROS 2 Humble is not installed ($ros_setup)"
for f in "$caret" "$tracer" "$app"; do
	[[ -e $f ]] || skip "$f is not built"
done

# shellcheck source=tests/lib/hosts.sh
. "$src/tests/lib/hosts.sh"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f s", b - a }'; }
step() { echo; echo "== $*"; }

t=$(now)
step "1. hosts"
hosts_setup 2
echo "hosts: A $HOST_A_HOSTNAME $HOST_A_ADDR (netns $HOST_A_NETNS, holder $HOST_A_PID)," \
	"B $HOST_B_HOSTNAME $HOST_B_ADDR (netns $HOST_B_NETNS, holder $HOST_B_PID);" \
	"analysis side $HOSTS_RELAYD_ADDR (netns $HOSTS_ANALYSIS_NETNS); $(since "$t")"
[[ ${HOSTS_KEEP:-0} == 1 ]] && echo "kept after the run: $HOSTS_DIR"
t=$(now)
hosts_sessiond_start A
hosts_sessiond_start B
echo "session daemons: A pid ${HOSTS_SESSIOND_PIDS[A]}, B pid ${HOSTS_SESSIOND_PIDS[B]}; $(since "$t")"
out=$HOSTS_DIR/relayd
t=$(now)
hosts_relayd_start "$out"
echo "lttng-relayd: pid $HOSTS_RELAYD_PID, net://$HOSTS_RELAYD_ADDR (ports 5342, 5343), output $out; $(since "$t")"

step "3a. one streaming session per host, before the apps"
t=$(now)
for h in A B; do
	s=caret-$h
	host_exec "$h" lttng create "$s" --set-url "net://$HOSTS_RELAYD_ADDR" >/dev/null
	host_exec "$h" lttng enable-channel -u -s "$s" --subbuf-size=1M --num-subbuf=4 caret >/dev/null
	host_exec "$h" lttng enable-event -u -s "$s" -c caret 'ros2*' >/dev/null
	host_exec "$h" lttng add-context -u -s "$s" -c caret -t vpid -t vtid -t procname >/dev/null
	host_exec "$h" lttng start "$s" >/dev/null
	echo "host $h: $(host_exec "$h" lttng list "$s" | sed -n 's/^Recording session //p; s/^ *Trace output: / output /p' | tr '\n' ' ')"
done
echo "sessions started; $(since "$t")"

step "2. the pipeline: /sensor, /filter in host A; /sink in host B"
set +u
# shellcheck disable=SC1090
. "$ros_setup"
set -u
export RMW_IMPLEMENTATION=rmw_cyclonedds_cpp
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-$((HOSTS_ID % 100 + 100))}
# Named after their role: LTTng's procname.
mkdir -p "$HOSTS_DIR/bin" "$HOSTS_DIR/truth-A" "$HOSTS_DIR/truth-B"
ln -s "$app" "$HOSTS_DIR/bin/sensor_filter"
ln -s "$app" "$HOSTS_DIR/bin/sink"
echo "DDS: domain $ROS_DOMAIN_ID; A: $HOST_A_CYCLONEDDS_URI; B: $HOST_B_CYCLONEDDS_URI"
t=$(now)
host_spawn B env LD_PRELOAD="$tracer" "$HOSTS_DIR/bin/sink" --nodes sink --duration "$duration" \
	--period-ms 20 --process sink --truth "$HOSTS_DIR/truth-B" >"$HOSTS_DIR/sink.log" 2>&1
pid_b=$HOSTS_LAST_PID
host_spawn A env LD_PRELOAD="$tracer" "$HOSTS_DIR/bin/sensor_filter" --nodes sensor,filter \
	--duration "$duration" --period-ms 20 --process sensor_filter --truth "$HOSTS_DIR/truth-A" \
	>"$HOSTS_DIR/sensor_filter.log" 2>&1
pid_a=$HOSTS_LAST_PID
rc_a=0 rc_b=0
wait "$pid_a" || rc_a=$?
wait "$pid_b" || rc_b=$?
echo "host A sensor_filter (pid $pid_a): exit $rc_a: $(tail -1 "$HOSTS_DIR/sensor_filter.log")"
echo "host B sink (pid $pid_b): exit $rc_b: $(tail -1 "$HOSTS_DIR/sink.log")"
echo "apps ran $(since "$t")"

# What crossed: A's /topic_b publisher ids (its truth), B's receptions of them.
published=$(awk -F, 'FNR > 1 && $3 == "/topic_b" { n++ } END { print n + 0 }' "$HOSTS_DIR"/truth-A/*.publishes.*.csv)
received=$(awk -F, 'FNR == NR { if (FNR > 1 && $3 == "/topic_b") ids[$4] = 1; next }
	FNR > 1 && $4 == "/topic_b" && ($5 in ids) && $11 == "inter" { n++ } END { print n + 0 }' \
	"$HOSTS_DIR"/truth-A/*.publishes.*.csv "$HOSTS_DIR"/truth-B/*.receives.*.csv)
latency=$(awk -F, 'FNR > 1 { print $9 }' "$HOSTS_DIR"/truth-B/*.e2e.*.csv | sort -n |
	awk '{ s[++n] = $1 } END { if (n) printf "median %.2f ms, max %.2f ms", s[int((n + 1) / 2)] / 1e6, s[n] / 1e6; else print "-" }')
# The bridge's ports: what each host sent into the bridge and received from it.
for h in A B; do
	rx=$(hosts_analysis_exec cat "/sys/class/net/v$h/statistics/rx_packets")
	tx=$(hosts_analysis_exec cat "/sys/class/net/v$h/statistics/tx_packets")
	echo "bridge port v$h: host $h sent $rx packets into the bridge, received $tx"
done
echo "/topic_b: host A published $published, host B's /sink received $received of them" \
	"(sensor -> sink, the apps' own clocks: $latency)"

step "3b. stop and destroy the sessions"
t=$(now)
for h in A B; do
	host_exec "$h" lttng stop "caret-$h" >/dev/null
	host_exec "$h" lttng destroy "caret-$h" >/dev/null
done
echo "stopped and destroyed; $(since "$t")"

step "relayd output ($out)"
(cd "$out" && find . -type f -printf '%p %s\n' | sort)

# Both hosts' traces: a metadata file and a non-empty data stream each.
traces_ok=1
for h in A B; do
	hn=$(_hosts_var "$h" HOSTNAME)
	meta=$(find "$out/$hn" -path '*/ust/*' -name metadata 2>/dev/null | head -1)
	data=$(find "$out/$hn" -path '*/ust/*' -name 'caret_*' -size +0 ! -name '*.idx' 2>/dev/null | head -1)
	if [[ -z $meta || -z $data ]]; then
		echo "host $h: no trace under $out/$hn" >&2
		traces_ok=0
	fi
done

step "caret check of each host's folder"
for h in A B; do
	hn=$(_hosts_var "$h" HOSTNAME)
	rc=0
	"$caret" check "$out/$hn" >"$HOSTS_DIR/check-$h" 2>&1 || rc=$?
	echo "-- caret check $out/$hn: exit $rc"
	sed -n '1p; /^process /p; /^result/p; /error/p' "$HOSTS_DIR/check-$h"
done

step "caret check --merge $out"
rc=0
"$caret" check --merge "$out" 2>&1 || rc=$?
echo "(exit $rc)"

step "caret path latency --merge --nodes /sensor,/filter,/sink $out"
rc=0
"$caret" path latency --merge --nodes /sensor,/filter,/sink "$out" 2>&1 || rc=$?
echo "(exit $rc)"

step "verdict"
status=0
if ((rc_a != 0 || rc_b != 0)); then
	echo "FAIL: an app failed (A $rc_a, B $rc_b)"
	status=1
fi
if ((received == 0)); then
	echo "FAIL: the sink in host B received nothing from host A"
	status=1
fi
if ((traces_ok == 0)); then
	echo "FAIL: the relayd's output lacks a host's trace"
	status=1
fi
((status == 0)) && echo "OK: B received $received messages from A; relayd holds $HOST_A_HOSTNAME and $HOST_B_HOSTNAME"
t=$(now)
hosts_teardown
echo "teardown $(since "$t")"
exit $status
