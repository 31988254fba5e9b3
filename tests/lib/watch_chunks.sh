# watch_chunks.sh - a relay daemon's output played back from a recording's
# chunks, for `caret live --watch` (sourced by tests/integration/
# test_live_watch.sh and scripts/fuzz_watch.sh; bash, set -e).
#
#   watch_record DIR        records the testbed pipeline with caret record
#                           --rotate 0.5 (libcaret.so preloaded, in the
#                           test's group): its chunks in DIR/archives;
#                           needs an LTTng session daemon
#   watch_pending SRC DEST  copies the chunks of SRC/archives to DEST (a
#                           folder on the watched folder's file system),
#                           where a mutation (below) can damage them
#   watch_mutate DEST OP K [BYTES]
#                           one damage to chunk K (its index) of DEST:
#                           gap (the chunk is not there), empty (its folder
#                           holds no file), fifo (a FIFO stands for its
#                           largest runtime stream), stray (its folder
#                           misnamed), truncate (that stream cut to BYTES,
#                           default half of it), late (filed after the
#                           chunk that follows it), extra (a stray folder
#                           beside it; no damage), split (the runtime
#                           streams of chunk K + 1 filed first, as chunk K,
#                           then chunk K, then K + 1's initialization
#                           streams, the later chunks one index up: as
#                           LTTng, cutting each stream on its own at a
#                           rotation, may file a replay in the chunk after
#                           the runtime events that follow it; no damage)
#   watch_play DEST SESSION [DELAY]
#                           files DEST's entries in SESSION/archives/ in
#                           their chunks' order, one each DELAY seconds
#                           (default 0.3; a late one after the next), as
#                           lttng-relayd moves each chunk a session closes
#                           there, with a chunk under way beside archives/
#                           until the last has come (the session then
#                           ended cleanly)
#   watch_totals JSON       the last window line's totals: "callbacks N
#                           paths M" (every run and instance since the start)
#
# The host's folder must be named as the trace's hostname (`hostname`:
# caret live --watch puts each host's processes on its folder's name).

watch_record() { # DIR
	local dir=$1 bin=$CARET_BUILD_DIR/bin rec status=0
	"$bin/caret" record --immediate --rotate 0.5 -d 5 -o "$dir" >/dev/null \
		2>"$dir.record.err" &
	rec=$!
	sleep 1
	"${CARET_GROUP[@]}" "$bin/tb-launch" "$CARET_SOURCE_DIR/testbed/systems/pipeline.yaml" \
		--duration 2.5 --preload "$CARET_BUILD_DIR/lib/libcaret.so" >/dev/null 2>&1
	wait "$rec" || status=$?
	cat "$dir.record.err"
	((status == 0)) && [[ -d $dir/archives ]]
}

# the index N of a chunk's folder BEGIN-END-N
_watch_index() { echo "${1##*-}"; }

_watch_chunk() { # DEST K: the folder of chunk K
	local c
	for c in "$1"/*; do
		[[ $(_watch_index "$c") == "$2" ]] && { echo "$c"; return; }
	done
	return 1
}

watch_pending() { # SRC DEST
	mkdir -p "$2"
	cp -R "$1"/archives/. "$2"/
}

watch_mutate() { # DEST OP K [BYTES]
	local dest=$1 op=$2 k=$3 chunk stream
	chunk=$(_watch_chunk "$dest" "$k") || { echo "watch_mutate: no chunk $k" >&2; return 1; }
	# its largest runtime stream (the others may hold no event)
	stream=$(ls -S "$chunk"/ust/uid/*/*/caret_[0-9]* 2>/dev/null | head -1)
	case $op in
	gap) rm -rf "$chunk" ;;
	empty) find "$chunk" -type f -delete ;;
	fifo) rm -f "$stream" && mkfifo "$stream" ;;
	stray) mv "$chunk" "$dest/stray-$k.tmp" ;;
	truncate) truncate -s "${4:-$(($(stat -c %s "$stream") / 2))}" "$stream" ;;
	late) mv "$chunk" "$chunk.late" ;;
	extra) mkdir -p "$dest/notes-$k.tmp" ;;
	split) _watch_split "$dest" "$chunk" "$k" ;;
	*) echo "watch_mutate: no operation $op" >&2; return 1 ;;
	esac
}

_watch_split() { # DEST CHUNK K
	local dest=$1 chunk=$2 k=$3 c i after stream
	after=$(_watch_chunk "$dest" $((k + 1))) || { echo "watch_mutate: no chunk $((k + 1))" >&2; return 1; }
	for c in $(ls "$dest" | awk -F- -v k="$k" '$NF + 0 > k + 1 { print $NF + 0, $0 }' |
		sort -rn | cut -d' ' -f2); do
		i=$(_watch_index "$c")
		mv "$dest/$c" "$dest/${c%-*}-$((i + 1))"
	done
	mv "$after" "${after%-*}-$((k + 2))"
	after=${after%-*}-$((k + 2))
	mv "$chunk" "${chunk%-*}-$((k + 1))"
	cp -R "$after" "${after%-*}-$k"
	for stream in "$after"/ust/uid/*/*/caret_[0-9]* "$after"/ust/uid/*/*/index/caret_[0-9]*; do
		rm -f "$stream"
	done
	for stream in "${after%-*}-$k"/ust/uid/*/*/caret_init_* \
		"${after%-*}-$k"/ust/uid/*/*/index/caret_init_*; do
		rm -f "$stream"
	done
}

watch_play() { # DEST SESSION [DELAY]
	local dest=$1 session=$2 delay=${3:-0.3} entry held=() late
	mkdir -p "$session/archives" "$session/under-way"
	# in their chunk's order: the index after the last '-' (a stray name too)
	for entry in $(ls "$dest" | awk -F- '{ print $NF + 0, $0 }' | sort -n | cut -d' ' -f2); do
		if [[ $entry == *.late ]]; then
			held+=("$entry")
			continue
		fi
		mv "$dest/$entry" "$session/archives/$entry"
		touch "$session"
		sleep "$delay"
		for late in "${held[@]}"; do
			mv "$dest/$late" "$session/archives/${late%.late}"
		done
		((${#held[@]} == 0)) || sleep "$delay"
		held=()
	done
	for late in "${held[@]}"; do
		mv "$dest/$late" "$session/archives/${late%.late}"
	done
	rmdir "$session/under-way"
}

watch_totals() { # JSON
	python3 - "$1" <<'PY'
import json, sys
w = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"type": "window"')]
last = w[-1] if w else {'callbacks': [], 'paths': []}
print('callbacks', sum(c['total'] for c in last['callbacks']),
      'paths', sum(p['total'] for p in last['paths']))
PY
}
