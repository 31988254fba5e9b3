#!/usr/bin/env bash
# deps.sh - installs every Debian package caret-c needs, and the real ROS 2
# trees of shared/ros2/ into /opt/ros/<name> where that prefix is missing or
# holds an older tree the project installed from there (never over another
# installation); quick when all are present.
# Called by `make deps` (and so by `make test` and `make demo`).
#
#   CARET_SHARED_DIR, CARET_ROS_ROOT: see scripts/ros-trees.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

packages=(
	build-essential cmake pkg-config binutils
	liblttng-ust-dev liblttng-ctl-dev lttng-tools
	babeltrace2 libbabeltrace2-dev
	cyclonedds-dev cyclonedds-tools
	libyaml-dev libcmocka-dev
	# the fuzz targets (make test-fuzz): clang with libFuzzer
	clang libclang-rt-14-dev
	# the report's browser tests (puppeteer-core drives Debian's Chromium)
	chromium
	# the loopback check of the demo's DDS traffic
	tcpdump
	# the real ROS 2 trees: unpacking, their run-time libraries
	# (../shared/ros2/README.md), and building rclcpp apps against them
	zstd python3 g++
	libacl1 libconsole-bridge1.0 libddsc0debian libfastcdr1 libfastrtps2.9 libfmt9
	libfoonathan-memory0.7.2 libiceoryx-binding-c2 libiceoryx-hoofs2 libiceoryx-platform2
	libiceoryx-posh2 liblttng-ust-common1 liblttng-ust1 libnuma1 libspdlog1.10
	libsqlite3-0 libssl3 libtinyxml2-9 libyaml-0-2 libuuid1
	python3-catkin-pkg python3-empy python3-lark python3-yaml
	libspdlog-dev libconsole-bridge-dev libfastrtps-dev libfastcdr-dev
	# Jazzy's Fast DDS 2.14 (in its tree) is configured against these
	libfoonathan-memory-dev libtinyxml2-dev libssl-dev
	# make install's and make deb's checks: man pages rendered, the
	# package's shared-library dependencies and lintian, colcon builds
	groff-base dpkg-dev lintian colcon
	# colcon's common extensions (as colcon-common-extensions has them)
	python3-colcon-cmake python3-colcon-ros python3-colcon-bash
	python3-colcon-recursive-crawl python3-colcon-package-selection
	python3-colcon-parallel-executor python3-colcon-library-path python3-colcon-pkg-config
	python3-colcon-defaults python3-colcon-metadata python3-colcon-output
	python3-colcon-package-information python3-colcon-test-result
	# the Python package caret_c (python/): pip install --no-index ./python
	python3-pip python3-setuptools python3-wheel
	# its plots (caret_c.plot) and the example notebook, run headless by make test
	python3-matplotlib python3-nbconvert python3-nbclient python3-ipykernel
	# the original CARET analyzer (shared/anchors), which tests compare with
	python3-bt2 python3-pandas python3-numpy python3-colorcet python3-pydantic
	python3-graphviz python3-tqdm python3-packaging libyaml-cpp0.7
	# (rclpy, the jazzy-rclpy tree, runs on Debian's python3 with python3-numpy
	# and python3-yaml, above)
)

. "$here/as-root.sh"

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
	echo "deps: all ${#packages[@]} packages present"
else
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	as_root apt-get update -qq
	as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Prometheus and promtool, for caret live --metrics' real test (it starts
# its own server on loopback, on a free port). Debian's postinst enables
# the prometheus service and starts it on :9090: when deps installs it,
# it is kept from starting (a policy-rc.d refusing, where none is there)
# and disabled, so that nothing listens where no one asked for it, now or
# after a reboot. One the user installed is left as it is.
if [[ $(dpkg-query -W -f='${Status}' prometheus 2>/dev/null || true) != "install ok installed" ]]; then
	echo "deps: installing prometheus (its service kept from starting, and disabled)"
	policy=/usr/sbin/policy-rc.d
	made_policy=
	if [[ ! -e $policy ]]; then
		as_root sh -c "printf '#!/bin/sh\nexit 101\n' >$policy && chmod 755 $policy"
		made_policy=yes
	fi
	export DEBIAN_FRONTEND=noninteractive
	status=0
	as_root apt-get update -qq && as_root apt-get install -y -qq --no-install-recommends \
		prometheus || status=$?
	if [[ -n $made_policy ]]; then
		as_root rm -f "$policy"
	fi
	((status == 0)) || exit "$status"
	if [[ -d /run/systemd/system ]]; then
		as_root systemctl disable --now prometheus.service >/dev/null 2>&1 || true
	elif command -v update-rc.d >/dev/null; then
		as_root update-rc.d prometheus disable >/dev/null 2>&1 || true
	fi
fi

# The npm packages, pinned by their package-lock.json: the chart library the
# report inlines at build time, and puppeteer-core for its browser tests.
# Installed again when the lock file changed (a copy of it is the stamp).
if ! command -v npm >/dev/null; then
	echo "deps: installing npm"
	as_root apt-get install -y -qq --no-install-recommends npm
fi
for dir in "$here/../src/analyze/report/web" "$here/../tests/browser"; do
	stamp=$dir/node_modules/.caret-lock.json
	cmp -s "$dir/package-lock.json" "$stamp" 2>/dev/null && continue
	echo "deps: npm ci in ${dir#"$here/../"}"
	(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >&2
	cp "$dir/package-lock.json" "$stamp"
done

# The real ROS 2 trees of shared/ros2 (scripts/ros-trees.sh).
"$here/ros-trees.sh"
