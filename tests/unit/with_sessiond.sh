#!/usr/bin/env bash
# with_sessiond.sh PROGRAM [ARGS...] - runs a unit test that talks to the
# LTTng session daemon, starting one first if none is running (a fresh
# machine has none until some test starts it; the test must not skip then).
set -eu
CARET_SOURCE_DIR=$(cd "$(dirname "$0")/../.." && pwd)
. "$CARET_SOURCE_DIR/scripts/lttng-session.sh"
caret_lttng_require
caret_lttng_ensure_daemon
"$@"
