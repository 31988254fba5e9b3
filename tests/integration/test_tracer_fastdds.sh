#!/usr/bin/env bash
# The tracer's Fast DDS hook (src/trace/hooks_fastdds.c) driven as
# rmw_fastrtps and Fast DDS drive it, with a stand-in Fast DDS library
# loaded RTLD_LOCAL (fastdds/): each application sample is bound to the
# message rmw_publish announced, with the sample's source timestamp;
# discovery's samples and unannounced ones are not; a timestamp that does
# not check out is not recorded and the tracer says it cannot read them;
# every sample still reaches Fast DDS's own function. Unmerged
# (dds_bind_addr_to_stamp) and merged (merged_publish_timing). The real
# Fast DDS: tests/real *_fastdds.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
caret_lttng_require
caret_lttng_ensure_daemon

for merge in 0 1; do
	echo "== CARET_MERGE=$merge"
	CARET_TRACE_DIR=$work/trace$merge
	caret_lttng_start caret-test-fastdds 'ros2:*' 'ros2_caret:*'
	CARET_MERGE=$merge CARET_DEBUG=1 LD_PRELOAD=$CARET_BUILD_DIR/lib/libcaret.so \
		caret_in_test_group "$bin/fastdds_driver" "$bin/libfake_fastrtps.so" \
		>"$work/expected$merge" 2>"$work/stderr$merge"
	caret_lttng_stop
	cat "$work/stderr$merge"
	# "bind ADDRESS STAMP" per recorded bind, in order
	if ((merge)); then
		babeltrace2 "$CARET_TRACE_DIR" | grep 'ros2_caret:merged_publish_timing' |
			sed -E 's/.* message = (0x[0-9A-Fa-f]+),.* source_stamp = ([0-9]+) .*/bind \1 \2/'
	else
		babeltrace2 "$CARET_TRACE_DIR" | grep 'ros2_caret:dds_bind_addr_to_stamp' |
			sed -E 's/.* addr = (0x[0-9A-Fa-f]+), source_stamp = ([0-9]+) .*/bind \1 \2/'
	fi | tr 'A-F' 'a-f' | grep -v ' 0$' >"$work/recorded$merge" || true
	if ! diff "$work/expected$merge" "$work/recorded$merge"; then
		echo "FAIL: the binds recorded (>) are not the expected ones (<)"
		exit 1
	fi
	echo "ok $(wc -l <"$work/recorded$merge") binds, as expected"
	grep -q "source timestamp the tracer cannot read" "$work/stderr$merge" ||
		{ echo "FAIL: the garbled timestamp was not reported"; exit 1; }
	echo "ok the garbled timestamp reported"
done
