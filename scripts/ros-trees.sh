#!/usr/bin/env bash
# ros-trees.sh - installs the real ROS 2 trees of shared/ros2/ into
# /opt/ros/<name> where that prefix is missing or holds an older tree the
# project installed from there; never over another installation. Called by
# scripts/deps.sh (make deps).
#
#   CARET_SHARED_DIR  the shared/ folder (default: beside the repository, or
#                     beside the repository a clone was made from)
#   CARET_ROS_ROOT    where the trees go (default /opt/ros)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

. "$here/as-root.sh"

shared=${CARET_SHARED_DIR:-}
if [[ -z $shared ]]; then
	shared=$here/../../shared
	if [[ ! -d $shared/ros2 ]]; then
		origin=$(git -C "$here/.." config --get remote.origin.url 2>/dev/null || true)
		[[ -n $origin && -d $origin/../shared/ros2 ]] && shared=$origin/../shared
	fi
fi
root=${CARET_ROS_ROOT:-/opt/ros}
stamp_name=.caret-tarball.sha256

# install_tree TREE PREFIX TARBALL SUM: unpacked beside the prefix and
# renamed into place (an interrupted install never leaves a half tree that
# looks installed); the tarball's checksum is the stamp that says the
# project installed this tree, and from which tarball.
install_tree() {
	local tree=$1 prefix=$2 tarball=$3 sum=$4
	echo "deps: installing ROS 2 $tree into $prefix"
	as_root mkdir -p "$root"
	as_root rm -rf "$prefix.partial"
	as_root mkdir "$prefix.partial"
	as_root tar --zstd -xf "$tarball" -C "$prefix.partial"
	echo "$sum" | as_root tee "$prefix.partial/$stamp_name" >/dev/null
	if [[ -e $prefix ]]; then
		as_root rm -rf "$prefix.replaced"
		as_root mv "$prefix" "$prefix.replaced"
	fi
	as_root mv "$prefix.partial" "$prefix"
	as_root rm -rf "$prefix.replaced"
}

# A tree is replaced only when the project installed it: its stamp names
# another tarball, or (installed before the stamps existed) it has no stamp
# but is a tree of shared/ros2 (a VERSIONS.txt of "owner+repo ref commit"
# lines) whose VERSIONS.txt differs from the tarball's. Any other tree -- a
# ROS 2 installed from packages or by hand -- is left alone.
# each base before its overlay
for tree in humble humble-caret jazzy jazzy-caret jazzy-rclpy; do
	prefix=$root/$tree tarball=$shared/ros2/$tree.tar.zst
	if [[ ! -f $tarball ]]; then
		[[ -e $prefix ]] || echo "deps: no $tarball; the tests on real ROS 2 $tree will be skipped"
		continue
	fi
	if [[ ! -e $prefix ]]; then
		install_tree "$tree" "$prefix" "$tarball" "$(sha256sum <"$tarball" | cut -d' ' -f1)"
		continue
	fi
	if [[ ! -f $prefix/setup.bash ]]; then
		echo "deps: $prefix exists but has no setup.bash; left alone"
		continue
	fi
	if [[ -f $prefix/$stamp_name ]]; then
		sum=$(sha256sum <"$tarball" | cut -d' ' -f1)
		[[ $(<"$prefix/$stamp_name") == "$sum" ]] && continue
		echo "deps: $tarball changed since $prefix was installed"
		install_tree "$tree" "$prefix" "$tarball" "$sum"
		continue
	fi
	if [[ ! -f $prefix/VERSIONS.txt ]] || grep -qvE '^[^ +]+\+[^ ]+ [^ ]+ [0-9a-f]{40}$' "$prefix/VERSIONS.txt"; then
		continue # not a tree of shared/ros2: never touched
	fi
	sum=$(sha256sum <"$tarball" | cut -d' ' -f1)
	if tar --zstd -xOf "$tarball" ./VERSIONS.txt | cmp -s - "$prefix/VERSIONS.txt"; then
		# the same sources: the tree the tarball holds, stamped from now on
		echo "$sum" | as_root tee "$prefix/$stamp_name" >/dev/null
	else
		echo "deps: $prefix is an older build of $tarball"
		install_tree "$tree" "$prefix" "$tarball" "$sum"
	fi
done
