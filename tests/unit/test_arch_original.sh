#!/usr/bin/env bash
# Architecture files travel both ways between the original CARET and
# caret-c (issue 15). On each real trace, the original analyzer
# (shared/anchors) exports its architecture:
#   - `caret arch` writes the same file: the same names, objects, order and
#     keys, compared as parsed YAML (the two fold long lines differently);
#   - `caret arch --check` accepts the original's (its `callbacks:` under
#     callback_chain contexts included), and on the CARET traces `caret path
#     latency --arch` on it, with the path /sensor -> /sink it names, gives
#     the original's own end-to-end numbers: count, min, mean, p50, p90,
#     p99, max.
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
	theirs=$(PYTHONPATH=$work/anchor /usr/bin/python3 "$(dirname "$0")/original_path.py" \
		"$work/$trace" "$work/$trace.yaml" 2>"$work/err" | tail -n 1)
	if [[ $theirs != "end to end,"* ]]; then
		echo "FAIL $trace: the original analyzer: $(tail -n 3 "$work/err")"
		failures=$((failures + 1))
		continue
	fi
	if ! "$caret" arch --check "$work/$trace.yaml" >"$work/check" 2>&1; then
		echo "FAIL $trace: the original's architecture file: $(cat "$work/check")"
		failures=$((failures + 1))
		continue
	fi
	ours=$("$caret" path latency --arch "$work/$trace.yaml" --path sensor_to_sink \
		--format csv "$shared/data/real-humble/$trace" | sed -n 2p)
	# the same numbers to 1e-9 (the two print the same doubles differently)
	if awk -F, -v a="$ours" 'BEGIN { n = split(a, o, ",") }
		{ for (i = 2; i <= 8; i++) { d = $i - o[i]; if (d < 0) d = -d
		  if (d > 1e-9 * ($i < 0 ? -$i : $i) + 1e-9) exit 1 } }' <<<"$theirs"; then
		echo "ok $trace: $(cut -c1-60 "$work/check"); path: $ours"
	else
		echo "FAIL $trace: path latency differs"
		echo "  original: $theirs"
		echo "  caret-c:  $ours"
		failures=$((failures + 1))
	fi
done
echo "$failures failures"
((failures == 0))
