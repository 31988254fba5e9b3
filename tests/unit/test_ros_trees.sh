#!/usr/bin/env bash
# scripts/ros-trees.sh (make deps) on small stand-in tarballs: a missing
# tree is installed and stamped; a stamped tree is replaced only when its
# tarball changed; a tree of shared/ros2 installed before the stamps is
# stamped when it is the tarball's build and replaced when it is an older
# one; any other tree is never touched.
# usage: test_ros_trees.sh SOURCE_DIR
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/shared/ros2" "$work/root"

# tarball TREE VERSION: a tree of shared/ros2's shape, its VERSIONS.txt
# naming VERSION as a commit
tarball() {
	local t=$work/build/$1
	rm -rf "$t" && mkdir -p "$t"
	echo "# $1 $2" >"$t/setup.bash"
	printf 'ros2+rclcpp %s %040d\n' "$1" "$2" >"$t/VERSIONS.txt"
	echo "$2" >"$t/version"
	tar --zstd -cf "$work/shared/ros2/$1.tar.zst" -C "$t" .
}
run() { CARET_SHARED_DIR=$work/shared CARET_ROS_ROOT=$work/root "$src/scripts/ros-trees.sh"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
version() { cat "$work/root/$1/version"; }

tarball humble 1
tarball jazzy 1
run >"$work/out"
[[ $(version humble) == 1 && $(version jazzy) == 1 ]] || fail "missing trees not installed"
[[ -f $work/root/humble/.caret-tarball.sha256 ]] || fail "no stamp"
grep -q 'no .*humble-caret.tar.zst' "$work/out" || fail "a missing tarball not named"

touch "$work/root/jazzy/kept"
run >/dev/null
[[ -f $work/root/jazzy/kept ]] || fail "an unchanged tree was re-extracted"

tarball jazzy 2
run >"$work/out"
[[ $(version jazzy) == 2 && ! -e $work/root/jazzy/kept ]] || fail "a changed tarball did not replace its tree"
grep -q 'changed since' "$work/out" || fail "the replacement not said"
[[ ! -e $work/root/jazzy.replaced && ! -e $work/root/jazzy.partial ]] || fail "the old tree left beside"

# installed before the stamps: the same build is stamped, an older one replaced
rm "$work/root/jazzy/.caret-tarball.sha256"
touch "$work/root/jazzy/kept"
run >/dev/null
[[ -f $work/root/jazzy/kept && -f $work/root/jazzy/.caret-tarball.sha256 ]] ||
	fail "an unstamped tree of the same build was not just stamped"
rm "$work/root/humble/.caret-tarball.sha256"
tarball humble 3
run >"$work/out"
[[ $(version humble) == 3 ]] || fail "an unstamped older build was not replaced"

# not the project's: no VERSIONS.txt, or one of another shape
for foreign in "" "rclcpp 28.1.6"; do
	rm -rf "$work/root/humble" && mkdir "$work/root/humble"
	echo "# a ROS 2 installed otherwise" >"$work/root/humble/setup.bash"
	[[ -n $foreign ]] && echo "$foreign" >"$work/root/humble/VERSIONS.txt"
	run >/dev/null
	[[ ! -e $work/root/humble/version ]] || fail "a tree the project did not install was replaced"
done
echo "ok: ros-trees.sh installs, keeps, replaces and leaves alone as it must"
