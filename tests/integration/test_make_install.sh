#!/usr/bin/env bash
# make install builds only what it installs (issue 44, item 10): in a build
# directory of its own, configured without the tests (CARET_BUILD_TESTS
# OFF), so that neither the tests, the testbed, the benchmarks nor the
# real-ROS test apps are built (it built them all: 5 minutes against
# colcon's 32 s) and cmocka is not needed; what it installs is whole (the
# command runs, caret env names the installed tracer); make uninstall then
# leaves nothing. And a missing uPlot is said with what to do.
# usage: test_make_install.sh
set -uo pipefail # each check says its own failure
src=$CARET_SOURCE_DIR
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() { # OK MESSAGE
	if [[ $1 == 0 ]]; then echo "ok $2"; else echo "FAIL $2"; fails=$((fails + 1)); fi
}

# two jobs at niceness 10, as test_deb: it gives way to the other tests
began=$SECONDS
nice -n 10 make -C "$src" --no-print-directory install INSTALL_BUILD_DIR="$work/build" \
	PREFIX="$work/prefix" JOBS=2 >"$work/make.log" 2>&1 ||
	{ tail -30 "$work/make.log"; exit 1; }
took=$((SECONDS - began))
grep -q '^CARET_BUILD_TESTS:BOOL=OFF$' "$work/build/CMakeCache.txt"
check $? "make install configured $work/build without the tests ($took s)"
# the command, and gen_tp, which writes the tracer's tracepoint provider
built=$(find "$work/build/bin" -type f -perm -u+x -printf '%f\n' | sort | tr '\n' ' ')
[[ $built == "caret " || $built == "caret gen_tp " ]]
check $? "its bin/ holds the command (and the build's gen_tp) alone: $built"
[[ ! -e $work/build/real && ! -e $work/build/testbed && ! -e $work/build/tests ]]
check $? "no real-ROS test apps, testbed or tests built ($(ls "$work/build" | tr '\n' ' '))"
! grep -qE 'real_apps_|Built target (tb_|test_|bench_)' "$work/make.log"
check $? "the build log names no test target"

"$work/prefix/bin/caret" --version | grep -q "^caret [0-9]"
check $? "the installed caret runs: $("$work/prefix/bin/caret" --version | head -1)"
tracer=$(cd "$work/prefix" && find . -path '*/caret/libcaret.so' | head -1)
"$work/prefix/bin/caret" env | grep -qF "$(cd "$work/prefix" && pwd -P)/${tracer#./}"
check $? "caret env names the installed tracer (${tracer#./})"
make -C "$src" --no-print-directory uninstall INSTALL_BUILD_DIR="$work/build" >/dev/null
left=$(find "$work/prefix" -type f | wc -l)
check "$left" "make uninstall: $left files left"

# uPlot missing and no npm: one line saying what to do, before any build
mkdir "$work/nonpm"
mk=$(command -v make)
out=$(PATH=$work/nonpm "$mk" -C "$src" --no-print-directory uplot UPLOT_JS=/nonexistent 2>&1) &&
	status=0 || status=$?
((status != 0)) && grep -q "apt install npm, or CARET_UPLOT_DIR=DIR" <<<"$out"
check $? "no uPlot and no npm: $out"
echo "$fails failures"
((fails == 0))
