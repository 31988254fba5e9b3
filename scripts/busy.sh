#!/usr/bin/env bash
# busy.sh - runs a command while other work keeps every core busy, as a
# contributor's machine is during another build: N processes (default two
# per core) that spin at normal priority, started before the command and
# ended (by their PIDs) when it ends, however it ends. Exits with the
# command's status; prints the load average before and after.
# usage: busy.sh [-n N] -- CMD [ARGS...]
set -euo pipefail
n=$(($(nproc) * 2))
while (($#)) && [[ $1 != -- ]]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	*) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
[[ ${1:-} == -- ]] && shift
(($#)) || { echo "busy.sh: no command" >&2; exit 2; }

spinners=()
stop() {
	((${#spinners[@]})) && kill "${spinners[@]}" 2>/dev/null
	wait "${spinners[@]}" 2>/dev/null || true
	echo "busy.sh: $n spinners ended; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
}
trap stop EXIT
for ((i = 0; i < n; i++)); do
	# a shell loop: busy on a core, no I/O, nothing to clean up
	bash -c 'while :; do :; done' &
	spinners+=("$!")
done
echo "busy.sh: $n spinners on $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
status=0
"$@" || status=$?
exit "$status"
