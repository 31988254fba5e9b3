#!/usr/bin/env bash
# caret live over lost chunks (issue 45): never a success over data it did
# not count. The testbed pipeline recorded once with caret record --rotate
# 0.5; its chunks then filed one by one under a watched folder, as
# lttng-relayd files a host's (tests/lib/watch_chunks.sh), for caret live
# --watch:
#   clean      every chunk: exit 0, the callbacks and the path counted
#   gap        a chunk in the middle missing: said (host, chunk), the later
#              chunks still read (what was counted and the runs caret live
#              says the chunk held make 90 % of the clean run's at least:
#              stopping at the gap misses every later chunk's; a chunk's
#              share varies with the load: 0.7 s of a 5.2 s recording
#              once, 33 % of its runs), exit 1
#   empty      the same chunk's folder with no file: said, exit 1
#   fifo       a FIFO for its runtime stream: said, exit 1
#   stray      its folder misnamed: the stray entry named, the gap said, exit 1
#   truncate   its runtime stream cut in half (at a packet's end, or within
#              one): said, the later ones read, exit 1
#   dup        a second session under the same hostname: said, exit 1
#   split      the first chunk with events cut in two as LTTng may cut it
#              (the initialization's streams in the chunk after the runtime
#              ones): no loss said, exit 0, every run counted
# and for caret live recording here:
#   deleted    its trace folder deleted while it runs: said at the next
#              look, exit 1
#   snapshots  --snapshot-on-miss on a read-only or a full file system, or
#              a file: refused before anything is recorded, naming it
# usage: test_live_watch.sh [CASE...]
set -uo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
. "$CARET_SOURCE_DIR/tests/lib/watch_chunks.sh"
bin=$CARET_BUILD_DIR/bin
caret=$bin/caret
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1
cases=${*:-clean gap empty fifo stray truncate dup split deleted snapshots}
failures=0
host=$(hostname)
path=/sensing/camera,/sensing/image_filter,/perception/fusion

ok() { echo "ok $*"; }
bad() { echo "FAIL $*"; failures=$((failures + 1)); }

echo "== the pipeline recorded in chunks"
watch_record "$work/rec" || { echo "FAIL: the recording"; exit 1; }
# the chunk to damage: the middle one of those holding events
data=()
for c in "$work"/rec/archives/*; do
	events=$("$caret" check "$c" 2>/dev/null | sed -n 's/^trace: \([0-9]*\) events.*/\1/p')
	((${events:-0} > 20)) && data+=("${c##*-}")
done
mapfile -t data < <(printf '%s\n' "${data[@]}" | sort -n)
k=${data[${#data[@]} / 2]}
echo "chunks with events: ${data[*]}; the one damaged: $k"

# play NAME [SESSIONS]: the chunks (damaged in $work/NAME.pending) filed
# for caret live --watch; its exit status in $status, its totals in $totals
play() {
	local name=$1 sessions=${2:-1} watcher i players=()
	mkdir -p "$work/$name/$host"
	"$caret" live --watch "$work/$name" --json --nodes "$path" --window 60 \
		>"$work/$name.json" 2>"$work/$name.err" &
	watcher=$!
	sleep 0.5
	for ((i = 1; i <= sessions; i++)); do
		[[ -d $work/$name.pending$i ]] || watch_pending "$work/rec" "$work/$name.pending$i"
		watch_play "$work/$name.pending$i" "$work/$name/$host/session-$i" &
		players+=($!)
	done
	wait "${players[@]}"
	sleep 1.5 # the last chunk looked at
	kill -INT "$watcher"
	status=0
	wait "$watcher" || status=$?
	totals=$(watch_totals "$work/$name.json")
	echo "$name: exit $status, counted $totals"
	sed 's/^/  /' "$work/$name.err"
}
runs() { awk '{ print $2 }' <<<"$1"; }

# a damage to chunk $k: said, the later chunks read, exit 1
damaged() { # OP LINE...
	local op=$1 line
	shift
	watch_pending "$work/rec" "$work/$op.pending1"
	watch_mutate "$work/$op.pending1" "$op" "$k"
	play "$op"
	local counted not_counted
	counted=$(runs "$totals")
	not_counted=$(grep -oE 'about [0-9]+ callback runs' "$work/$op.err" | head -1 | grep -oE '[0-9]+')
	for line in "$@"; do
		grep -qF -- "$line" "$work/$op.err" || { bad "$op: no line '$line'"; return; }
	done
	if ((status != 1)); then
		bad "$op: exit $status, not 1"
	elif (((counted + ${not_counted:-0}) * 10 < clean_runs * 9 || counted >= clean_runs)); then
		bad "$op: $counted of the clean run's $clean_runs callback runs counted" \
			"(${not_counted:-no} said not counted)"
	else
		ok "$op: said, $counted of $clean_runs runs counted, exit 1"
	fi
}

clean_runs=0
for c in $cases; do
	echo "== $c"
	case $c in
	clean)
		play clean
		clean_runs=$(runs "$totals")
		if ((status == 0 && clean_runs > 100)) && ! grep -q "chunk [0-9]" "$work/clean.err"; then
			ok "clean: $totals, exit 0"
		else
			bad "clean: exit $status, $totals"
		fi
		;;
	gap | empty | fifo | truncate)
		((clean_runs)) || { play clean; clean_runs=$(runs "$totals"); }
		case $c in
		gap) said="missing (chunk $((k + 1)) came after)" ;;
		empty) said="no file in its folder" ;;
		fifo) said="a FIFO where a stream file is expected" ;;
		truncate) said="cannot be read: " ;;
		esac
		damaged "$c" "caret live: $host: chunk $k of $work/$c/$host/session-1: " "$said" \
			"caret live: $host: chunk $k: "
		;;
	split)
		((clean_runs)) || { play clean; clean_runs=$(runs "$totals"); }
		first=${data[0]}
		watch_pending "$work/rec" "$work/split.pending1"
		watch_mutate "$work/split.pending1" split "$first"
		# (babeltrace2: caret check reads no trace without its initialization)
		runtime=$(babeltrace2 "$(_watch_chunk "$work/split.pending1" "$first")" 2>/dev/null |
			wc -l)
		play split
		if ((${runtime:-0} == 0)); then
			bad "split: chunk $first held no runtime event to come before its initialization"
		elif ((status == 0 && $(runs "$totals") == clean_runs)) &&
			! grep -q "chunk [0-9]" "$work/split.err"; then
			ok "split: $runtime runtime events before the chunk of the initialization;" \
				"$totals, exit 0"
		else
			bad "split: exit $status, $totals (the clean run: $clean_runs runs)"
		fi
		;;
	stray)
		((clean_runs)) || { play clean; clean_runs=$(runs "$totals"); }
		damaged stray "stray-$k.tmp is not a chunk" "chunk $k of" "missing"
		;;
	dup)
		play dup 2
		if ((status == 1)) && grep -q "$host has a second session, $work/dup/$host/session-" \
			"$work/dup.err"; then
			ok "dup: said, exit 1"
		else
			bad "dup: exit $status"
		fi
		;;
	deleted)
		"${CARET_GROUP[@]}" "$bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/pipeline.yaml" \
			--duration 20 --preload "$CARET_BUILD_DIR/lib/libcaret.so" >/dev/null 2>&1 &
		launcher=$!
		caret_at_exit "kill $launcher 2>/dev/null || true"
		sleep 2
		"$caret" live --duration 15 --period 0.5 --json -o "$work/deleted" \
			>"$work/deleted.json" 2>"$work/deleted.err" &
		live=$!
		for ((i = 0; i < 100; i++)); do
			(($(grep -c '"window"' "$work/deleted.json") >= 2)) && break
			sleep 0.1
		done
		rm -rf "$work/deleted"
		gone=$SECONDS
		status=0
		wait "$live" || status=$?
		kill "$launcher" 2>/dev/null
		wait "$launcher" 2>/dev/null
		cat "$work/deleted.err"
		if ((status == 1 && SECONDS - gone <= 5)) &&
			grep -Eq "$work/deleted.*(is not there|was deleted)" "$work/deleted.err"; then
			ok "deleted: said, exit 1 after $((SECONDS - gone)) s"
		else
			bad "deleted: exit $status $((SECONDS - gone)) s after the folder went"
		fi
		;;
	snapshots)
		if ((EUID != 0)); then
			echo "skipped $c: mounting small file systems needs root"
			continue
		fi
		mkdir -p "$work/ro" "$work/full"
		mount -t tmpfs -o size=1m,ro tmpfs "$work/ro" && mount -t tmpfs -o size=1m tmpfs \
			"$work/full" || { bad "$c: cannot mount"; continue; }
		caret_at_exit "umount '$work/ro' '$work/full' 2>/dev/null || true"
		dd if=/dev/zero of="$work/full/filler" bs=1k count=1024 status=none 2>/dev/null
		touch "$work/a-file"
		for dir in "$work/ro/snaps" "$work/full/snaps" "$work/a-file"; do
			status=0
			began=$SECONDS
			"$caret" live --snapshot-on-miss "$dir" --duration 30 >/dev/null \
				2>"$work/snap.err" || status=$?
			if ((status == 1 && SECONDS - began < 5)) &&
				grep -q "^caret live: --snapshot-on-miss $dir: cannot write there" \
					"$work/snap.err" && ! grep -q "session" "$work/snap.err"; then
				ok "snapshots: $(cat "$work/snap.err")"
			else
				bad "snapshots: $dir: exit $status: $(cat "$work/snap.err")"
			fi
		done
		umount "$work/ro" "$work/full"
		;;
	esac
done
echo "$failures failures"
((failures == 0))
