#!/usr/bin/env bash
# Architecture files travel both ways between the original CARET and
# caret-c (issue 15). On each real trace, the original analyzer
# (shared/anchors) exports its architecture:
#   - `caret arch` writes the same file: the same names, objects, order and
#     keys, compared as parsed YAML (the two fold long lines differently);
#   - `caret arch --check` accepts the original's (its `callbacks:` under
#     callback_chain contexts included), and on the CARET traces `caret path
#     latency --arch` on it, with the path /sensor -> /sink it names, gives
#     the original's own numbers (count, min, mean, p50, p90, p99, max) for
#     the end-to-end latency and the four response-time cases, with and
#     without the first and the last callback.
# usage: test_arch_original.sh BIN_DIR SHARED_DIR
set -uo pipefail
bin=$1 shared=$2
caret=$bin/caret
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
anchor=$shared/anchors/caret_analyze-0.7.3.tar.zst
[[ -f $anchor ]] || { echo "FAIL: $anchor missing"; exit 1; }
mkdir -p "$work/anchor"
tar --zstd -xf "$anchor" -C "$work/anchor" || exit 1

same_yaml() { # OURS THEIRS: equal once parsed, named_paths aside
	/usr/bin/python3 - "$1" "$2" <<'PY'
import sys, yaml
ours, theirs = (yaml.safe_load(open(f)) for f in sys.argv[1:3])
theirs['named_paths'] = ours['named_paths'] = []
if ours != theirs:
    for key in ('executors', 'nodes'):
        for a, b in zip(ours[key], theirs[key]):
            if a != b:
                print(f'first difference in {key}:\n  ours:     {a}\n  original: {b}')
                break
        if len(ours[key]) != len(theirs[key]):
            print(f'{key}: {len(ours[key])} here, {len(theirs[key])} in the original')
sys.exit(ours != theirs)
PY
}

for trace in caret-fork-inter caret-fork-intra caret-upstream-inter tracetools-fork-inter; do
	cp -r "$shared/data/real-humble/$trace" "$work/$trace" # it writes a cache there
	chmod -R u+w "$work/$trace"
	PYTHONPATH=$work/anchor /usr/bin/python3 "$(dirname "$0")/original_path.py" \
		"$work/$trace" "$work/$trace-export.yaml" --export-only 2>"$work/err" ||
		{ echo "FAIL $trace: the original's export: $(tail -n 3 "$work/err")"; failures=$((failures + 1)); continue; }
	"$caret" arch -o "$work/$trace-ours.yaml" "$shared/data/real-humble/$trace"
	if same_yaml "$work/$trace-ours.yaml" "$work/$trace-export.yaml" >"$work/diff"; then
		echo "ok $trace: caret arch writes the original's architecture file"
	else
		echo "FAIL $trace: caret arch differs from the original's export"
		cat "$work/diff"
		failures=$((failures + 1))
	fi
	[[ $trace == tracetools-* ]] && continue # no callbacks in the original: no path
	PYTHONPATH=$work/anchor /usr/bin/python3 "$(dirname "$0")/original_path.py" \
		"$work/$trace" "$work/$trace.yaml" 2>"$work/err" | grep -E '^[01],[01],' >"$work/theirs"
	if ! grep -q '^1,1,end to end,' "$work/theirs"; then
		echo "FAIL $trace: the original analyzer: $(tail -n 3 "$work/err")"
		failures=$((failures + 1))
		continue
	fi
	if ! "$caret" arch --check "$work/$trace.yaml" >"$work/check" 2>&1; then
		echo "FAIL $trace: the original's architecture file: $(cat "$work/check")"
		failures=$((failures + 1))
		continue
	fi
	echo "ok $trace: $(cut -c1-60 "$work/check")"
	: >"$work/ours"
	for first in 0 1; do
		for last in 0 1; do
			flags=()
			((first)) && flags+=(--include-first-callback)
			((last)) && flags+=(--include-last-callback)
			"$caret" path latency --arch "$work/$trace.yaml" --path sensor_to_sink \
				"${flags[@]}" --format csv "$shared/data/real-humble/$trace" |
				grep -E '^(end to end|response time)' | sed "s/^/$first,$last,/" >>"$work/ours"
		done
	done
	# the same rows, numbers equal to 1e-9 (the two print doubles differently)
	if paste -d'|' "$work/theirs" "$work/ours" | awk -F'|' '
		{ n = split($1, a, ","); m = split($2, b, ",")
		  bad = n != m || a[1] != b[1] || a[2] != b[2] || a[3] != b[3]
		  for (i = 4; i <= n && !bad; i++) { d = a[i] - b[i]; if (d < 0) d = -d
		    if (d > 1e-9 * (a[i] < 0 ? -a[i] : a[i]) + 1e-9) bad = 1 }
		  if (bad) { print "  original: " $1; print "  caret-c:  " $2; failed = 1 } }
		END { exit failed }' >"$work/diff" && (($(wc -l <"$work/ours") == 20)); then
		echo "ok $trace: the path's latency and response times, 4 spans x 5 rows," \
			"equal the original's"
	else
		echo "FAIL $trace: path numbers differ from the original's"
		cat "$work/diff"
		failures=$((failures + 1))
	fi
done
echo "$failures failures"
((failures == 0))
