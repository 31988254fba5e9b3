#!/usr/bin/env bash
# make install, as a user would use it: installs the build into a
# temporary prefix and checks what is there (the command, the tracer in
# lib/caret, libcaret-analyze.so with its SONAME and only caret_* exported,
# the headers, man pages that render without warnings, bash completion of
# verbs, options and named paths); `caret record -- CMD` from the prefix
# on a real ROS 2 Humble system, the installed tracer preloaded by the
# installed caret; builds the API example against the install with
# pkg-config and with CMake's find_package(caret) and runs both on a real
# trace; imports the Python package from the prefix and from pip's
# offline install; then uninstalls and finds nothing left.
set -euo pipefail
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
build=$CARET_BUILD_DIR src=$CARET_SOURCE_DIR
trace=$CARET_SHARED_DIR/data/real-humble/caret-fork-inter
work=$(mktemp -d)
caret_at_exit "rm -rf '$work'"
prefix=$work/prefix
fails=0
check() { # OK MESSAGE
	if [[ $1 == 0 ]]; then echo "ok $2"; else echo "FAIL $2"; fails=$((fails + 1)); fi
}

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")
wanted=(bin/caret "$libdir/caret/libcaret.so" "$libdir/caret/libcaret-lttng.so"
	"$libdir/libcaret-analyze.so"
	"$libdir/libcaret-analyze.so.0" include/caret/analyze.h include/caret/error.h
	include/caret/export.h "$libdir/pkgconfig/caret-analyze.pc"
	"$libdir/cmake/caret/caretConfig.cmake" "$libdir/cmake/caret/caretConfigVersion.cmake"
	share/man/man1/caret.1 share/man/man1/caret-check.1 share/man/man1/caret-env.1
	share/bash-completion/completions/caret)
missing=()
for f in "${wanted[@]}"; do [[ -e $prefix/$f ]] || missing+=("$f"); done
check "${#missing[@]}" "installed: ${#wanted[@]} files in place (missing: ${missing[*]:-none})"

soname=$(readelf -d "$prefix/$libdir/libcaret-analyze.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[[ $soname == libcaret-analyze.so.0 ]]
check $? "libcaret-analyze.so's SONAME is $soname"
others=$(nm -D --defined-only "$prefix/$libdir/libcaret-analyze.so" | awk '$3 !~ /^caret_/' | wc -l)
check "$others" "libcaret-analyze.so exports caret_* only ($others others)"

"$prefix/bin/caret" --version | grep -q "^caret [0-9]"
check $? "caret --version: $("$prefix/bin/caret" --version | head -1)"
tracer=$(cd "$prefix/$libdir/caret" && pwd -P)/libcaret.so
"$prefix/bin/caret" env | grep -qxF "export LD_PRELOAD=$tracer\${LD_PRELOAD:+:\$LD_PRELOAD}"
check $? "caret env names the installed tracer ($tracer)"
# and the tracer it names loads into a process (LTTng-UST and all)
LD_PRELOAD=$tracer /bin/true
check $? "the installed tracer preloads into a process"
# and finds its probes (libcaret-lttng.so) beside it
! CARET_DEBUG=1 LD_PRELOAD=$tracer /bin/true 2>&1 | grep "stays out"
check $? "the installed tracer loads LTTng-UST"
# and caret record -- CMD preloads it by itself: a real Humble pipeline
# (tests/real's pipeline3, three processes) recorded from the prefix (in a
# subshell: the tree's environment stays there)
caret_lttng_require
caret_lttng_ensure_daemon
status=0
(
	. "$src/tests/real/real_env.sh" humble
	BIN=$prefix/bin real_record_launched "$work/launched" pipeline3
) >"$work/launched.log" 2>&1 || status=$?
[[ $status == 77 ]] && { cat "$work/launched.log"; exit 1; } # no tree: make deps installs it
((status == 0)) || cat "$work/launched.log"
check $status "caret record -- CMD from the prefix: $(tail -1 "$work/launched.log")"

warnings=0
for page in "$prefix"/share/man/man1/*.1; do
	out=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
	[[ -z $out ]] || { echo "$page: $out"; warnings=$((warnings + 1)); }
done
check "$warnings" "$(ls "$prefix"/share/man/man1 | wc -l) man pages render without warnings"
grep -q "caret latency" "$prefix/share/man/man1/caret-latency.1"
check $? "caret-latency(1) holds caret latency --help"

# completion: a verb, an option of a sub-verb, a named path of --arch's file
complete_line() { # WORDS...: what completion offers for the last word
	PATH=$prefix/bin:$PATH bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_caret; printf "%s\n" "${COMPREPLY[@]}"' _ \
		"$prefix/share/bash-completion/completions/caret" "$@"
}
[[ $(complete_line caret lat) == latency ]]
check $? "completion: caret lat -> $(complete_line caret lat | tr '\n' ' ')"
complete_line caret latency callbacks --for | grep -qx -- --format
check $? "completion: caret latency callbacks --for -> --format"
arch=$src/tests/data/arch/real-sensor-sink.yaml
name=$(sed -n 's/^[[:space:]-]*path_name:[[:space:]]*//p' "$arch" | head -1)
complete_line caret path latency --arch "$arch" --path "" | grep -qxF "$name"
check $? "completion: --path offers the named paths of --arch's file ($name)"

# the API example against the install: pkg-config, then CMake
example=$src/examples/api/trace_summary.c
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
# shellcheck disable=SC2046
# shellcheck disable=SC2086 # EXAMPLE_CFLAGS: the sanitizers of an ASan build
cc ${EXAMPLE_CFLAGS:-} -o "$work/summary_pc" "$example" $(pkg-config --cflags --libs caret-analyze)
LD_LIBRARY_PATH=$prefix/$libdir "$work/summary_pc" "$trace" /sensor /sink >"$work/pc.out"
check $? "built with pkg-config, it runs: $(grep -c . "$work/pc.out") lines"
mkdir "$work/cm"
cat >"$work/cm/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(summary C)
find_package(caret 0.1 REQUIRED)
add_executable(summary $example)
target_link_libraries(summary PRIVATE caret::analyze)
CMAKE
cmake -S "$work/cm" -B "$work/cm/build" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_C_FLAGS="${EXAMPLE_CFLAGS:-}" >"$work/cm.log" &&
	cmake --build "$work/cm/build" >>"$work/cm.log"
check $? "built with find_package(caret) and caret::analyze"
"$work/cm/build/summary" "$trace" /sensor /sink >"$work/cm.out"
cmp -s "$work/pc.out" "$work/cm.out"
check $? "built with CMake, it prints what the pkg-config build prints"
# the numbers are the CLI's: the end-to-end count and mean of the path
cli=$("$build/bin/caret" path latency --nodes /sensor,/filter,/sink --format csv "$trace" |
	awk -F, '$1 == "end to end" { print "messages=" $2 ".*mean_ns=" $4 }')
grep -q "^end to end $cli\$" "$work/pc.out"
check $? "its end-to-end latency is the CLI's ($cli)"

# the Python package (docs/python.md): where make install put it, finding
# the installed library by itself; then pip's offline install of python/
# into a virtual environment (Debian's numpy, pandas and PyYAML), finding
# the library through CARET_ANALYZE_LIBRARY, then through the loader's path
pydir=$(sed -n 's/^CARET_PYTHON_DIR:STRING=//p' "$build/CMakeCache.txt")
export PYTHONDONTWRITEBYTECODE=1 # nothing left behind for the uninstall to miss
truth=$("$build/bin/caret" latency callbacks --format csv "$trace" |
	awk -F, '$1 == "/sensor/callback_0" { print $2 }')
# (in a sanitizers' build, with their runtimes first: tests/CMakeLists.txt)
python_env=()
[[ -n ${CARET_PYTHON_PRELOAD:-} ]] &&
	python_env=(env "LD_PRELOAD=$CARET_PYTHON_PRELOAD" "ASAN_OPTIONS=$CARET_PYTHON_ASAN_OPTIONS")
pycheck() { # PYTHON: the library it loaded, and the sensor's runs
	(cd "$work" && "${python_env[@]}" "$1" -c 'import caret_c, sys
app = caret_c.Application(caret_c.Architecture("lttng", sys.argv[1]), caret_c.Lttng(sys.argv[1]))
df = app.get_callback("/sensor/callback_0").to_dataframe()
print(caret_c.library_path, len(df.dropna()))' "$trace")
}
unset CARET_ANALYZE_LIBRARY
out=$(PYTHONPATH="$prefix/$pydir" pycheck /usr/bin/python3)
[[ $(realpath "${out% *}") == $(realpath "$prefix/$libdir/libcaret-analyze.so.0") &&
	${out##* } == "$truth" ]]
check $? "caret_c from $pydir loads $(basename "${out% *}") of the prefix; /sensor/callback_0: ${out##* } runs (the CLI's: $truth)"
cp -r "$src/python" "$work/pysrc"
rm -rf "$work/pysrc/build" "$work/pysrc"/*.egg-info "$work/pysrc/caret_c/__pycache__"
/usr/bin/python3 -m venv --system-site-packages "$work/venv" &&
	"$work/venv/bin/pip" install --no-index --no-build-isolation "$work/pysrc" >"$work/pip.log" 2>&1
check $? "pip install --no-index --no-build-isolation ./python (in a venv)"
out=$(CARET_ANALYZE_LIBRARY=$prefix/$libdir/libcaret-analyze.so.0 pycheck "$work/venv/bin/python")
[[ ${out% *} == "$prefix/$libdir/libcaret-analyze.so.0" && ${out##* } == "$truth" ]]
check $? "pip's caret_c with CARET_ANALYZE_LIBRARY: ${out##* } runs"
out=$(LD_LIBRARY_PATH=$prefix/$libdir pycheck "$work/venv/bin/python")
[[ ${out##* } == "$truth" ]]
check $? "pip's caret_c through the loader's path (${out% *}): ${out##* } runs"
out=$(CARET_ANALYZE_LIBRARY=/nonexistent/lib.so "$work/venv/bin/python" -c 'import caret_c' 2>&1 || true)
grep -q "cannot find libcaret-analyze.so.0.*nonexistent" <<<"$out"
check $? "a wrong CARET_ANALYZE_LIBRARY is an ImportError naming it"

cmake -DMANIFEST="$build/install_manifest.txt" -P "$src/cmake/uninstall.cmake" >/dev/null
left=$(find "$prefix" -type f -o -type l | wc -l)
check "$left" "uninstalled: $left files left in the prefix"
echo "$fails failures"
((fails == 0))
