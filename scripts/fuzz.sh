#!/usr/bin/env bash
# fuzz.sh - builds the libFuzzer targets of tests/fuzz with clang (ASan,
# UBSan, coverage; in BUILD_DIR, default build-fuzz) and runs each for
# SECONDS, seeded with tests/data/bad and the real traces (fuzz_folder:
# with each of its folder operations). Prints, per
# target, the runs, the coverage reached and the crashes; exits 1 when a
# target found a crash, a leak-free hang or an assertion (the input is kept
# in BUILD_DIR/fuzz-artifacts/ for a test case). From 60 s on, also caret
# live --watch over damaged chunks (scripts/fuzz_watch.sh) for SECONDS.
#   usage: scripts/fuzz.sh SECONDS [BUILD_DIR]
#   CARET_SHARED_DIR  the shared/ folder (the trace template)
set -uo pipefail
seconds=${1:?usage: fuzz.sh SECONDS [BUILD_DIR]}
here=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$here/build-fuzz}
shared=${CARET_SHARED_DIR:-$here/../shared}
[[ -d $shared/data/real-humble ]] || shared=$(git -C "$here" config --get remote.origin.url)/../shared
export CARET_SHARED_DIR=$shared
export CYCLONEDDS_URI=file://$here/scripts/cyclonedds-loopback.xml
export LSAN_OPTIONS=suppressions=$here/tests/lsan.supp:print_suppressions=0
# the trace reader's second thread, which inputs this small would not get
export CARET_READER_THREADS=2
# a domain of its own (the tests use 100-221, test_fuzz_short 158):
# fuzz_status's table must hear no other tracer, a concurrent fuzz run's
# included
export ROS_DOMAIN_ID=${CARET_FUZZ_DOMAIN:-$((222 + $$ % 11))}

CC=clang cmake -S "$here" -B "$build" -DCARET_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCARET_SHARED_DIR="$shared" >/dev/null || exit 1
cmake --build "$build" -j "$(nproc)" --target fuzz_trace fuzz_folder fuzz_arch fuzz_status \
	fuzz_api fuzz_options >/dev/null || exit 1

corpus=$build/fuzz-corpus
artifacts=$build/fuzz-artifacts
mkdir -p "$corpus"/{trace,folder,arch,status,api,options} "$artifacts"
# seeds: each file of a real trace behind its selector byte; the hostile
# and the real architecture files; a tracer's Status and a foreign one
t=$shared/data/real-humble/caret-fork-inter/ust/uid/0/64-bit
i=0
for f in metadata ch0_0 ch0_1 index/ch0_0.idx; do
	{ printf "\\x$(printf %02x $i)"; cat "$t/$f"; } >"$corpus/trace/seed-$i"
	i=$((i + 1))
done
# each folder operation once (fuzz_folder.c: operation, two arguments),
# after the byte that keeps the runtime events or not
for op in 0 1 2 3 4 5 6 7 8 9; do
	printf "\\x0$((op % 2))\\x0$op\\x01\\x03" >"$corpus/folder/seed-$op"
done
cp "$here"/tests/data/bad/*.yaml "$here"/tests/data/arch/*.yaml "$corpus/arch/"
printf '\x00\x03\x01\x02\x00\x00\x00\x00\x00\x00caret_trace_0123abcd_0000_0000_0000_000000000000\x00/node\x00' \
	>"$corpus/status/tracer"
printf '\x01\x01\x01\x02\x00\x00\x00\x00\x00\x00caret_trace_ffffffff_0000_0000_0000_000000000000\x00/x\x00' \
	>"$corpus/status/foreign"
# the C API's: a callback's runs, a search and its path followed, a made
# path, the iterators, an open with options (fuzz_api.c reads the bytes)
printf '\x00\x00\x01\x01\x01' >"$corpus/api/runs"
printf '\x03\x00\x02\x01\x01\x00\x01\x01\x01\x01\x01\x01\x00\x01\x01\x01\x01\x01\x01\x01' \
	>"$corpus/api/search"
printf '\x04\x03\x00\x03\x02\x01\x04\x03\x02\x05\x02\x01\x01\x01\x01\x01\x01\x01' >"$corpus/api/made"
printf '\x05\x01\x10\x01\x01\x01' >"$corpus/api/iterate"
printf '\x06\x5a\x02\x02\x03\x00\x00\x01\x00\x01\x01\x01\x01\x01' >"$corpus/api/open"

# an option's value behind the byte that picks its bounds
i=0
for v in 10 2.5 500ms 50ms 1e300 inf nan -1 4294967296 4M 0x10 1.5s 0.1ns 99999999999999G; do
	{ printf "\\x$(printf %02x $((i * 7 % 256)))"; printf '%s' "$v"; } >"$corpus/options/seed-$i"
	i=$((i + 1))
done

failed=0
run() { # TARGET MAX_LEN EXTRA...
	local target=$1 max_len=$2
	shift 2
	local log=$build/$target.log
	"$build/bin/$target" "$corpus/${target#fuzz_}" -max_total_time="$seconds" \
		-max_len="$max_len" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
		-artifact_prefix="$artifacts/$target-" "$@" >"$log" 2>&1
	local status=$?
	local runs cov
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1)
	if ((status != 0)); then
		failed=1
		echo "fuzz $target: FAILED after ${runs:-?} runs ($cov): $(grep -m1 -E 'ERROR|==[0-9]+==' "$log")"
		ls "$artifacts" | grep "^$target-" | sed 's/^/  input kept: /'
	else
		echo "fuzz $target: ${runs:-?} runs in ${seconds} s, $cov, no crash, hang or leak"
	fi
}
# caret live --watch over randomly damaged chunks (scripts/fuzz_watch.sh):
# a recording first, a run every few seconds, so only in a long run (make
# test-fuzz), with caret and the testbed built in this tree (ASan, UBSan)
if ((seconds >= 60)); then
	if cmake --build "$build" -j "$(nproc)" --target caret_cli caret tb-launch tb_app \
		>/dev/null; then
		"$here/scripts/fuzz_watch.sh" "$seconds" "$build" | tail -n 30 || failed=1
	else
		echo "fuzz_watch: caret and the testbed did not build in $build"
		failed=1
	fi
fi
# the trace targets abandon libbabeltrace2's graph when its guard fires, and
# babeltrace2's plugins (which read metadata the native reader hands over)
# are unloaded with what they allocated: no leak detection there
ASAN_OPTIONS=detect_leaks=0 run fuzz_trace 70000 -detect_leaks=0
ASAN_OPTIONS=detect_leaks=0 run fuzz_folder 25 -detect_leaks=0
run fuzz_arch 65536
run fuzz_status 1024
run fuzz_api 512
run fuzz_options 64
exit $failed
