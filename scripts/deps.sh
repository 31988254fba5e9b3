#!/usr/bin/env bash
# deps.sh - installs every Debian package caret-c needs; quick when all are
# present. Called by `make deps` (and so by `make test` and `make demo`).
set -euo pipefail

packages=(
	build-essential cmake pkg-config binutils
	liblttng-ust-dev liblttng-ctl-dev lttng-tools
	babeltrace2 libbabeltrace2-dev
	cyclonedds-dev cyclonedds-tools
	libyaml-dev libcmocka-dev
	chromium
)

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
	echo "deps: all ${#packages[@]} packages present"
	exit 0
fi

echo "deps: installing ${missing[*]}"
if ((EUID == 0)); then
	as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	as_root=(sudo -n)
else
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: run 'sudo make deps' (installing needs root)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
