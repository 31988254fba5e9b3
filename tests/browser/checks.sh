# checks.sh - sourced by tests: a trace's report opened in Chromium (and
# whole at its load event), its percentiles one definition, and its Trace
# Event export checked against the format's rules.
#   report_checks CARET TRACE WORK [--no-browser] [--expect-node NAME]...
#                 [-- REPORT_ARGS...]
# writes WORK/report.html (and report-all.html, export*.json) and returns 1
# with the failing checks printed when one fails. --no-browser: the report
# written and filtered, not opened (Chromium is the heaviest part).
report_checks() {
	local caret=$1 trace=$2 work=$3 here
	here=$(dirname "${BASH_SOURCE[0]}")
	shift 3
	local expect=() extra=() browser=1
	while (($#)); do
		if [[ $1 == --no-browser ]]; then
			browser=0
			shift
			continue
		fi
		if [[ $1 == -- ]]; then
			shift
			extra=("$@")
			break
		fi
		expect+=("$1")
		shift
	done
	mkdir -p "$work"
	"$caret" report "${extra[@]}" -o "$work/report.html" "$trace" >/dev/null || return 1
	"$caret" report --all "${extra[@]}" -o "$work/report-all.html" "$trace" >/dev/null || return 1
	/usr/bin/python3 "$here/report_filtered.py" "$work/report.html" "$work/report-all.html" ||
		return 1
	/usr/bin/python3 "$here/report_percentiles.py" "$work/report.html" || return 1
	if ((browser)); then
		local status=0
		node "$here/report_check.mjs" "$work/report.html" "${expect[@]}" >"$work/browser.out" \
			2>&1 || status=$?
		# whole at its load event, load after load
		node "$here/load_check.mjs" "$work/report.html" --times 3 >>"$work/browser.out" 2>&1 ||
			status=$?
		grep -v '^ok ' "$work/browser.out" || true
		echo "report in Chromium: $(grep -c '^ok ' "$work/browser.out") checks ok"
		((status == 0)) || return 1
	fi
	# the export, with every callback, against the callbacks' runs
	"$caret" export --all --format chrome-trace -o "$work/export-all.json" "$trace" || return 1
	"$caret" latency callbacks --records "$work/runs.csv" "$trace" >/dev/null || return 1
	/usr/bin/python3 "$here/../unit/chrome_trace_check.py" "$work/export-all.json" \
		--runs "$work/runs.csv" || return 1
	"$caret" export --format chrome-trace "${extra[@]}" -o "$work/export.json" "$trace" || return 1
	/usr/bin/python3 "$here/../unit/chrome_trace_check.py" "$work/export.json"
}
