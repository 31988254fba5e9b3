#!/usr/bin/env bash
# fuzz_watch.sh - caret live --watch over randomly damaged chunks (issue
# 45): the testbed pipeline recorded once in chunks (caret record --rotate
# 0.5), then, run after run, its chunks filed one by one as lttng-relayd
# files a host's (tests/lib/watch_chunks.sh) with one to three damages
# drawn at random: a chunk missing, emptied, a FIFO for a stream, misnamed,
# a stream cut at a random byte, filed late, a stray folder beside, a
# second session under the hostname. Each run must end, without a sanitizer
# report, in either
#   exit 0 with every callback run and path instance of the undamaged run
#          counted (and no damage that loses data), or
#   exit 1 with a line naming the chunk or the session (and a damage).
# Prints the runs, what each outcome counted, and every failure with the
# damages that made it (replay: the same SEED); exits 1 on a failure.
#   usage: scripts/fuzz_watch.sh SECONDS [BUILD_DIR] [SEED]
#   BUILD_DIR: where caret, tb-launch and libcaret.so are (default build)
#   needs an LTTng session daemon (started if none runs) for the recording
set -uo pipefail
seconds=${1:?usage: fuzz_watch.sh SECONDS [BUILD_DIR] [SEED]}
here=$(cd "$(dirname "$0")/.." && pwd)
export CARET_SOURCE_DIR=$here CARET_BUILD_DIR=${2:-$here/build}
seed=${3:-$$}
# a sanitized build's libcaret.so preloaded ahead of its runtime
export ASAN_OPTIONS=${ASAN_OPTIONS:-verify_asan_link_order=0}
. "$here/scripts/lttng-session.sh"
. "$here/tests/lib/watch_chunks.sh"
caret=$CARET_BUILD_DIR/bin/caret
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require || exit 1
caret_lttng_ensure_daemon || exit 1
host=$(hostname)
path=/sensing/camera,/sensing/image_filter,/perception/fusion
RANDOM=$seed

watch_record "$work/rec" >/dev/null || { echo "fuzz_watch: the recording failed"; exit 1; }
# each chunk: its index, whether it has stream files, how many events
all=() streams=()
declare -A events=()
for c in "$work"/rec/archives/*; do
	i=${c##*-}
	all+=("$i")
	[[ -n $(find "$c" -type f -name 'caret_[0-9]*') ]] && streams+=("$i")
	events[$i]=$("$caret" check "$c" 2>/dev/null | sed -n 's/^trace: \([0-9]*\) events.*/\1/p')
done

# run NAME: the pending chunks of NAME (one folder a session) filed under a
# watch; sets status, totals, said (a chunk or session named)
run() {
	local name=$1 watcher p players=() waited
	mkdir -p "$work/$name/$host"
	"$caret" live --watch "$work/$name" --json --nodes "$path" --window 60 \
		>"$work/$name.json" 2>"$work/$name.err" &
	watcher=$!
	sleep 0.5
	for p in "$work/$name".pending*; do
		watch_play "$p" "$work/$name/$host/${p##*.}" "0.$((1 + RANDOM % 3))" &
		players+=($!)
	done
	wait "${players[@]}"
	sleep 1.5
	kill -INT "$watcher"
	for ((waited = 0; waited < 200; waited++)); do
		kill -0 "$watcher" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$watcher" 2>/dev/null; then
		kill -KILL "$watcher"
		status=hang
	else
		status=0
		wait "$watcher" || status=$?
	fi
	wait "$watcher" 2>/dev/null
	totals=$(watch_totals "$work/$name.json")
	said=$(grep -cE "^caret live: $host(: chunks? [0-9]+( to [0-9]+)? of |: .* is not a chunk| has a second session)" \
		"$work/$name.err")
}

watch_pending "$work/rec" "$work/clean.pending1"
run clean
clean=$totals
if [[ $status != 0 ]]; then
	echo "fuzz_watch: the undamaged run exited $status"
	cat "$work/clean.err"
	exit 1
fi

pick() { local a=("$@"); echo "${a[RANDOM % ${#a[@]}]}"; }
runs=0 failures=0 succeeded=0 refused=0
declare -A drawn=()
end=$((SECONDS + seconds))
while ((SECONDS < end)); do
	runs=$((runs + 1))
	name=run$runs
	rm -rf "$work/$name"*
	watch_pending "$work/rec" "$work/$name.pending1"
	# lossy: a damage to a chunk with events (exit 1 and a line, then);
	# harmless: one that loses nothing (exit 0, every count, then); a
	# chunk without events damaged: either, as long as it is true
	damages=() lossy=0 harmless=1 n=$((1 + RANDOM % 3))
	for ((d = 0; d < n; d++)); do
		op=$(pick gap empty fifo stray truncate late extra dup)
		case $op in
		fifo | truncate) k=$(pick "${streams[@]}") ;;
		*) k=$(pick "${all[@]}") ;;
		esac
		[[ -d $(_watch_chunk "$work/$name.pending1" "$k" 2>/dev/null) ]] || continue
		case $op in
		dup)
			[[ -d $work/$name.pending2 ]] || watch_pending "$work/rec" "$work/$name.pending2"
			damages+=(dup)
			lossy=1 harmless=0
			;;
		truncate)
			stream=$(ls -S "$(_watch_chunk "$work/$name.pending1" "$k")"/ust/uid/*/*/caret_[0-9]* |
				head -1)
			cut=$((RANDOM * 32768 + RANDOM))
			cut=$((cut % $(stat -c %s "$stream")))
			watch_mutate "$work/$name.pending1" truncate "$k" "$cut"
			damages+=("truncate $k to $cut")
			;;
		*)
			watch_mutate "$work/$name.pending1" "$op" "$k"
			damages+=("$op $k")
			;;
		esac
		# a stray folder added, a chunk filed a moment late, an empty
		# folder emptied lose nothing
		if [[ $op == extra || $op == late ||
			($op == empty && " ${streams[*]} " != *" $k "* && ${events[$k]:-0} == 0) ]]; then
			:
		elif ((${events[$k]:-0} > 0)); then
			lossy=1 harmless=0
		else
			harmless=0
		fi
		drawn[$op]=$((${drawn[$op]:-0} + 1))
	done
	run "$name"
	why=
	if [[ $status == hang ]]; then
		why="did not end 20 s after SIGINT"
	elif grep -qE "runtime error|AddressSanitizer|LeakSanitizer" "$work/$name.err"; then
		why="a sanitizer report: $(grep -m1 -E 'runtime error|Sanitizer' "$work/$name.err")"
	elif ((status == 0)); then
		if [[ $totals != "$clean" ]]; then
			why="exit 0 over lost data: counted $totals, the undamaged run $clean"
		elif ((lossy)); then
			why="exit 0 with a damage that loses data"
		else
			succeeded=$((succeeded + 1))
		fi
	elif ((status == 1)); then
		if ((!said)); then
			why="exit 1 without naming a chunk or a session"
		elif ((harmless)); then
			why="exit 1 where no data was lost"
		else
			refused=$((refused + 1))
		fi
	else
		why="exit $status"
	fi
	if [[ -n $why ]]; then
		failures=$((failures + 1))
		echo "FAIL run $runs (${damages[*]}): $why"
		sed 's/^/  /' "$work/$name.err" | head -20
	fi
	rm -rf "$work/$name"*
done
ops=
for op in "${!drawn[@]}"; do ops+=" $op ${drawn[$op]},"; done
echo "fuzz_watch: seed $seed, $runs runs in $seconds s (damages drawn:${ops%,}):" \
	"$succeeded all counted, exit 0; $refused said, exit 1; $failures failures"
((failures == 0))
