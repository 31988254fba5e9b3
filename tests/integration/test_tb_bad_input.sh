#!/usr/bin/env bash
# Bad input to the testbed: malformed or inconsistent descriptions are
# rejected with the file, line and reason; a missing executable and a
# crashing process are reported by tb-launch, which leaves no process behind,
# even when the launcher itself is killed.
set -uo pipefail
launch=$CARET_BUILD_DIR/bin/tb-launch
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failures=0

# reject NAME EXPECTED-MESSAGE: the description on stdin must be refused.
reject() {
	local file=$work/$1.yaml
	cat >"$file"
	"$launch" "$file" --check >"$work/out" 2>&1
	local status=$?
	if ((status != 2)) || ! grep -qF -- "$2" "$work/out"; then
		echo "FAIL $1: exit $status, wanted 2 and '$2'; got: $(cat "$work/out")"
		failures=$((failures + 1))
	else
		echo "ok $1: $(cat "$work/out")"
	fi
}

reject syntax "syntax.yaml:5: did not find expected ',' or '}'" <<'Y'
system: s
processes:
  - name: a
    nodes: [ {name: n
Y
reject unknown-key "unknown-key.yaml:6: unknown key 'perod_ms' in timer" <<'Y'
system: s
processes:
  - name: a
    nodes:
      - name: n
        timers: [ {perod_ms: 10} ]
Y
reject unknown-node "unknown-node.yaml:9: executor names node 'ghost'" <<'Y'
system: s
processes:
  - name: a
    nodes:
      - name: n
        timers: [ {period_ms: 10, publish: [/t]} ]
      - {name: m, subscriptions: [ {topic: /t} ]}
    executors:
      - {type: single_threaded, nodes: [n, m, ghost]}
Y
reject no-publisher "no-publisher.yaml:6: topic /nowhere is subscribed but nothing publishes it" <<'Y'
system: s
processes:
  - name: a
    nodes:
      - name: n
        subscriptions: [ {topic: /nowhere} ]
Y
reject unspun "unspun.yaml:7: node /m is in 0 executors" <<'Y'
system: s
processes:
  - name: a
    nodes:
      - name: n
        timers: [ {period_ms: 10} ]
      - name: m
        timers: [ {period_ms: 10} ]
    executors:
      - {nodes: [n]}
Y
reject bad-group "bad-group.yaml:6: callback group 'fast' is not declared in node /n" <<'Y'
system: s
processes:
  - name: a
    nodes:
      - name: n
        timers: [ {period_ms: 10, group: fast} ]
Y
reject bad-type "bad-type.yaml:4: executor type 'turbo' is not" <<'Y'
system: s
processes:
  - name: a
    executors: [ {type: turbo, nodes: [n]} ]
    nodes: [ {name: n, timers: [ {period_ms: 10} ]} ]
Y
reject empty "empty.yaml:1: empty system description" </dev/null
"$launch" "$work/nonexistent.yaml" >"$work/out" 2>&1
grep -q "nonexistent.yaml: No such file or directory" "$work/out" ||
	{ echo "FAIL missing file: $(cat "$work/out")"; failures=$((failures + 1)); }

# run_failing NAME EXPECTED...: the system in $work/NAME.yaml fails; tb-launch
# reports each expected text, exits 1, and leaves none of its processes.
run_failing() {
	local name=$1
	shift
	"$launch" "$work/$name.yaml" --duration 10 --pid-file "$work/$name.pids" >"$work/out" 2>&1
	local status=$?
	cat "$work/out"
	for want in "$@" "some failed"; do
		grep -qF -- "$want" "$work/out" ||
			{ echo "FAIL $name: no '$want'"; failures=$((failures + 1)); }
	done
	((status == 1)) || { echo "FAIL $name: exit $status, wanted 1"; failures=$((failures + 1)); }
	while read -r process pid; do
		if kill -0 "$pid" 2>/dev/null; then
			echo "FAIL $name: $process (pid $pid) left running"
			failures=$((failures + 1))
			kill -KILL "$pid"
		fi
	done <"$work/$name.pids"
}

# A missing executable, next to a healthy long-running process.
cat >"$work/missing.yaml" <<'Y'
system: missing
processes:
  - name: healthy
    command: [sleep, "60"]
  - name: driver
    command: [/nonexistent/robot_driver]
Y
run_failing missing "driver (pid" "cannot execute /nonexistent/robot_driver" \
	"exited with status 127"

# A crash, next to a healthy process and a testbed app with a timer.
cat >"$work/crash.yaml" <<'Y'
system: crash
processes:
  - name: healthy
    command: [sleep, "60"]
  - name: app
    nodes: [ {name: ticker, timers: [ {period_ms: 20} ]} ]
  - name: crasher
    command: [sh, -c, "sleep 0.5; kill -SEGV $$"]
Y
run_failing crash "crasher (pid" "killed by signal 11"

# The launcher killed outright: its children die with it.
cat >"$work/orphan.yaml" <<'Y'
system: orphan
processes:
  - name: sleeper
    command: [sleep, "60"]
Y
"$launch" "$work/orphan.yaml" --pid-file "$work/orphan.pids" 2>/dev/null &
launcher=$!
for _ in $(seq 50); do [[ -s $work/orphan.pids ]] && break; sleep 0.1; done
read -r _ child <"$work/orphan.pids"
kill -KILL "$launcher"
wait "$launcher" 2>/dev/null
for _ in $(seq 20); do kill -0 "$child" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$child" 2>/dev/null; then
	echo "FAIL orphan: child $child survived its launcher"
	kill -KILL "$child"
	failures=$((failures + 1))
else
	echo "ok orphan: child $child ended with its launcher"
fi

echo "$failures failures"
((failures == 0))
