#!/usr/bin/env bash
# make deb, as a robot would take it: builds the Debian package (CPack,
# for /usr, no tests) and requires lintian to find no error; installs it
# with dpkg -i into a fresh root of its own (--root: its own dpkg database;
# the libraries it depends on are the machine's); then, with the installed
# files only, runs caret --version, caret check on a real trace, and
# records a testbed system and a real ROS 2 Humble rclcpp system with the
# installed tracer preloaded (the path caret env gives) by the installed
# caret, and checks those traces with it; and `caret record -- CMD` of
# that system, the package's caret preloading the package's tracer by
# itself (lib/<multiarch>/caret).
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
src=$CARET_SOURCE_DIR bin=$CARET_BUILD_DIR/bin
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
fails=0
check() { # OK MESSAGE
	if [[ $1 == 0 ]]; then echo "ok $2"; else echo "FAIL $2"; fails=$((fails + 1)); fi
}

# two jobs at niceness 10: the build takes what the other tests of make
# test leave of the two cores and gives way to them when they need it
nice -n 10 make -C "$src" --no-print-directory deb DEB_BUILD_DIR="$work/build" JOBS=2 \
	>"$work/make.log" 2>&1 ||
	{ tail -30 "$work/make.log"; exit 1; }
deb=$(ls "$work"/build/package/caret-c_*.deb)
check 0 "make deb: $(basename "$deb"), $(stat -c %s "$deb") bytes, lintian: no error ($(grep -c '^W:' "$work/make.log") warnings)"
echo "  Depends: $(dpkg-deb -f "$deb" Depends)"

root=$work/root
mkdir -p "$root"/var/lib/dpkg/{info,updates,triggers} "$root/var/log"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
# the dependencies are the machine's, not this root's: --force-depends;
# the maintainer scripts do nothing and need no chroot
dpkg --root="$root" --force-depends --force-script-chrootless -i "$deb" >"$work/dpkg.log" 2>&1
check $? "dpkg -i into a fresh root"
dpkg --root="$root" -s caret-c | grep -q "^Status: install ok installed"
check $? "dpkg says caret-c is installed there"
caret=$root/usr/bin/caret
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
tracer=$root/usr/lib/$multiarch/caret/libcaret.so
"$caret" --version | grep -q "^caret [0-9]"
check $? "caret --version: $("$caret" --version | head -1)"
"$caret" env | grep -qxF "export LD_PRELOAD=$tracer\${LD_PRELOAD:+:\$LD_PRELOAD}"
check $? "caret env names the package's tracer ($tracer)"
[[ -f ${tracer%/*}/libcaret-lttng.so ]]
check $? "the tracer's probes, libcaret-lttng.so, beside it"
"$caret" check "$CARET_SHARED_DIR/data/real-humble/caret-fork-inter" >"$work/check.out"
check $? "caret check of a real trace: $(tail -1 "$work/check.out")"
# the package's Python package, finding the package's library by itself
shared_trace=$CARET_SHARED_DIR/data/real-humble/caret-fork-inter
truth=$("$caret" latency callbacks --format csv "$shared_trace" | awk -F, '$1 == "/sensor/callback_0" { print $2 }')
out=$(cd "$work" && unset CARET_ANALYZE_LIBRARY && PYTHONDONTWRITEBYTECODE=1 \
	PYTHONPATH=$root/usr/lib/python3/dist-packages /usr/bin/python3 -c 'import caret_c, sys
lt = caret_c.Lttng(sys.argv[1])
app = caret_c.Application(caret_c.Architecture("lttng", sys.argv[1]), lt)
print(caret_c.library_path, len(app.get_callback("/sensor/callback_0").to_dataframe().dropna()))' \
	"$shared_trace")
[[ $(realpath "${out% *}") == $(realpath "$root/usr/lib/$multiarch/libcaret-analyze.so.0") &&
	${out##* } == "$truth" ]]
check $? "the package's caret_c loads the package's library; /sensor/callback_0: ${out##* } runs (caret's: $truth)"

# the installed tracer in a testbed system, recorded in a session of its own
caret_lttng_require
caret_lttng_ensure_daemon
caret_lttng_start caret-test-deb 'ros2:*' 'ros2_caret:*'
caret_in_test_group "$bin/tb-launch" "$src/testbed/systems/pipeline.yaml" --duration 2 \
	--truth "$work/truth" --pid-file "$work/pids" --preload "$tracer"
caret_lttng_stop
"$caret" check "$CARET_TRACE_DIR" >"$work/recorded.out" 2>&1
check $? "caret check of the trace the package's tracer recorded: $(tail -1 "$work/recorded.out")"
runs=$("$caret" latency callbacks --format csv "$CARET_TRACE_DIR" | awk -F, 'NR > 1 { n += $2 } END { print n + 0 }')
((runs > 0))
check $? "its callback runs, by the package's caret: $runs"

# a real Humble system (tests/real's pipeline3), recorded by the package's
# caret with the package's tracer, from the package's files only (in a
# subshell: the tree's environment stays there)
status=0
(
	. "$src/tests/real/real_env.sh" humble
	CARET_LIB=$tracer BIN=$root/usr/bin real_from_start "$work/real" pipeline3
) >"$work/real.log" 2>&1 || status=$?
[[ $status == 77 ]] && { cat "$work/real.log"; exit 1; } # no tree: make deps installs it
check $status "a real Humble pipeline recorded by the package's caret and tracer"
"$caret" check "$work/real/trace" >"$work/real-check.out" 2>&1
check $? "caret check of it: $(tail -1 "$work/real-check.out")"
reached=$("$caret" path latency --nodes /sensor,/filter,/sink --format csv "$work/real/trace" 2>/dev/null |
	awk -F, '$1 == "end to end" { print $2 }')
((${reached:-0} > 0))
check $? "the package's caret follows ${reached:-0} messages along /sensor,/filter,/sink"

status=0
(
	. "$src/tests/real/real_env.sh" humble
	BIN=$root/usr/bin real_record_launched "$work/launched" pipeline3
) >"$work/launched.log" 2>&1 || status=$?
((status == 0)) || cat "$work/launched.log"
check $status "caret record -- CMD with the package's caret: $(tail -1 "$work/launched.log")"
echo "$fails failures"
((fails == 0))
