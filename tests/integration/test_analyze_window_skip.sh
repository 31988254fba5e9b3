#!/usr/bin/env bash
# Time windows skip packets: a bench_chain trace recorded as `caret record`
# records (initialization events in a channel of their own, caret_init),
# in small sub-buffers (hundreds of packets). For several windows, the
# native reader leaves the packets of runtime events that lie wholly
# outside the window unread (a note says how many), and `caret latency
# callbacks`, `caret path latency` and the findings of `caret check` are
# the same as through babeltrace2, which reads every event. A trace of one
# channel (initialization events among the runtime ones) is read whole.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
caret_lttng_require
caret_lttng_ensure_daemon
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"

record() { # DIR SPLIT: bench_chain, 20000 messages along 6 nodes
	CARET_INIT_CHANNEL=$2 CARET_SUBBUF_SIZE=64k CARET_NUM_SUBBUF=8 CARET_TRACE_DIR=$1 \
		caret_lttng_start caret-test-window "ros2:*" "ros2_caret:*"
	LD_PRELOAD=$CARET_BUILD_DIR/lib/libcaret.so CARET_MERGE=0 caret_in_test_group \
		"$bin/bench_chain" 20000 >/dev/null
	caret_lttng_stop
}
record "$work/split" 1
record "$work/one" 0
ls "$work/split"/ust/uid/*/64-bit/ | grep -q '^caret_init_' ||
	{ echo "FAIL: no caret_init channel in the trace"; exit 1; }

path=/bench/n0,/bench/n1,/bench/n2,/bench/n3
failures=0
# the native reader in a second thread, as on a large trace: the notes of
# packets left unread go through its queues
export CARET_READER_THREADS=2
# verb output, without the trace-wide event count (events read) of check
run() { # READER TRACE WINDOW...
	local reader=$1 trace=$2 status=0
	shift 2
	{
		"$bin/caret" latency callbacks --reader "$reader" "$@" "$trace" || status=$?
		"$bin/caret" path latency --reader "$reader" --nodes "$path" "$@" "$trace" || status=$?
		"$bin/caret" check --reader "$reader" "$@" "$trace" | grep -v '^trace: ' || true
	} 2>"$work/notes"
	return "$status"
}
failed() { # WHAT: a run that exited non-zero, said with its last note
	echo "FAIL $1: caret exited non-zero: $(tail -1 "$work/notes")"
	failures=$((failures + 1))
}
# windows by the recorded callback starts, in seconds from the trace's
# first event: the small buffers discard events, and a window by the
# trace's length alone could fall in a gap and hold no callback. Each
# trace's own: the two recordings' lengths differ under load, and a window
# past a trace's end is an error.
starts() { # TRACE: its callback starts into TRACE.starts; prints its first and last events
	babeltrace2 --clock-seconds "$1" | awk -v starts="$1.starts" '
		{ t = substr($1, 2, length($1) - 2) }
		NR == 1 { first = t }
		/ ros2:callback_start: / { print t > starts }
		END { print first, t }'
}
read -r split_first split_last < <(starts "$work/split")
read -r one_first one_last < <(starts "$work/one")
at() { # TRACE F: from the first event to the callback start at quantile F
	local first=${1}_first
	awk -v q="$2" -v a="${!first}" '{ t[NR] = $1 } END { i = int(q * NR); if (i < 1) i = 1
		printf "%.6f", t[i] - a }' "$work/$1.starts"
}
before_end() { # TRACE F: from the callback start at quantile 1 - F to the last event
	local last=${1}_last
	awk -v q="$2" -v z="${!last}" '{ t[NR] = $1 } END { i = int((1 - q) * NR); if (i < 1) i = 1
		printf "%.6f", z - t[i] }' "$work/$1.starts"
}
windows() { # TRACE: the windows, one a line
	echo "--since $(at "$1" 0.3)"
	echo "--until $(at "$1" 0.4)"
	echo "--strip-start $(at "$1" 0.2) --strip-end $(before_end "$1" 0.3)"
	echo "--since $(at "$1" 0.45) --until $(at "$1" 0.55)"
}
mapfile -t split_windows < <(windows split)
mapfile -t one_windows < <(windows one)
for i in "${!split_windows[@]}"; do
	window=${split_windows[i]}
	read -ra w <<<"$window"
	run native "$work/split" "${w[@]}" >"$work/native" || { failed "$window"; continue; }
	skipped=$(sed -n 's/.*note: \([0-9]*\) packets\? .*not read/\1/p' "$work/notes" | head -1)
	run babeltrace2 "$work/split" "${w[@]}" >"$work/bt" || { failed "$window (babeltrace2)"; continue; }
	callbacks=$(grep -c '^/bench/' "$work/native" || true)
	if ! cmp -s "$work/native" "$work/bt"; then
		echo "FAIL $window: the readers differ"
		diff "$work/native" "$work/bt" | head -10
		failures=$((failures + 1))
	elif ((${skipped:-0} == 0 || callbacks == 0)); then
		echo "FAIL $window: $skipped packets skipped, $callbacks callbacks in the window"
		failures=$((failures + 1))
	else
		echo "ok $window: $skipped packets unread, the same results as babeltrace2 ($callbacks callback rows)"
	fi
	read -ra w <<<"${one_windows[i]}"
	run native "$work/one" "${w[@]}" >/dev/null || { failed "${one_windows[i]} (one channel)"; continue; }
	if grep -q 'packets .*not read' "$work/notes"; then
		echo "FAIL $window: packets skipped in a trace whose channel holds initialization events"
		failures=$((failures + 1))
	fi
done
((failures == 0))
