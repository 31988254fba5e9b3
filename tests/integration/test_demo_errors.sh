#!/usr/bin/env bash
# `make demo` says what is wrong and exits non-zero when LTTng is missing or
# when no session daemon can be started.
set -uo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
cp "$CARET_SOURCE_DIR/scripts/demo.sh" "$CARET_SOURCE_DIR/scripts/lttng-session.sh" "$work/"
mkdir -p "$work/build/bin"

expect_failure() { # name expected-message command...
	local name=$1 message=$2
	shift 2
	"$@" >"$work/out" 2>&1
	local status=$?
	cat "$work/out"
	if ((status == 0)); then echo "FAIL $name: exit 0"; exit 1; fi
	grep -q "$message" "$work/out" || { echo "FAIL $name: no '$message'"; exit 1; }
	echo "ok $name (exit $status)"
}

# 1. LTTng missing: a PATH with every tool of this machine except lttng's.
mkdir "$work/path"
for f in /usr/local/bin/* /usr/bin/* /bin/*; do
	name=${f##*/}
	[[ $name == lttng* || -e $work/path/$name ]] && continue
	ln -s "$f" "$work/path/$name"
done
expect_failure lttng-missing "LTTng is not installed" \
	env PATH="$work/path" bash "$work/demo.sh" "$work/build"

# 2. No permission to start a session daemon: an unprivileged user whose
#    home cannot hold LTTng's runtime directory.
if ((EUID != 0)); then
	echo "skip no-permission case: needs root to switch to user nobody"
	exit 0
fi
expect_failure no-permission "cannot start an LTTng session daemon" \
	runuser -u nobody -- env HOME=/nonexistent PATH="$PATH" \
	bash "$work/demo.sh" "$work/build"
