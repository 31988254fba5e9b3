#!/usr/bin/env bash
# `caret summary events` on the real Humble traces: the output equals the
# golden files (tests/data/golden), and every count agrees with an
# independent count (tb_event_counts, which walks the trace without the
# analyzer's tables). Bad input: a clear one-line error and exit 1.
set -uo pipefail
bin=$1 golden=$2 shared=$3
failures=0
for trace in caret-fork-inter caret-fork-intra caret-upstream-inter tracetools-fork-inter; do
	path=$shared/data/real-humble/$trace
	out=$("$bin/caret" summary events --format csv "$path")
	if ! diff <(echo "$out") "$golden/summary-events-$trace.csv"; then
		echo "FAIL $trace: output differs from the golden file"
		failures=$((failures + 1))
	fi
	if ! diff <("$bin/tb_event_counts" "$path" | awk '$2 > 0 && $1 ~ /:/ { print $1 "," $2 }') \
		<(grep ':' <<<"$out"); then
		echo "FAIL $trace: counts differ from tb_event_counts"
		failures=$((failures + 1))
	fi
done
err=$("$bin/caret" summary events /nonexistent/trace 2>&1 >/dev/null)
status=$?
if ((status != 1)) || [[ $(wc -l <<<"$err") != 1 || $err != *"path=/nonexistent/trace"* ]]; then
	echo "FAIL missing path: exit $status: $err"
	failures=$((failures + 1))
fi
empty=$(mktemp -d)
err=$("$bin/caret" summary events "$empty" 2>&1 >/dev/null)
status=$?
rmdir "$empty"
if ((status != 1)) || [[ $err != *"no CTF trace"* ]]; then
	echo "FAIL empty directory: exit $status: $err"
	failures=$((failures + 1))
fi
echo "$failures failures"
((failures == 0))
