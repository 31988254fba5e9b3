#!/usr/bin/env bash
# bench/rclpy: what tracing costs a pipeline of Python nodes, next to the
# same pipeline of rclcpp nodes, in one run: bench/real/run.sh on Jazzy
# for tests/real's pipeline3 (rclcpp) and py-pipeline3 (the same three
# processes as rclpy nodes, tests/real/apps_py), on one middleware, at one
# rate. Each table gives, per mode (plain, tracetools, caret-merged,
# caret-unmerged), the publish -> callback start latency and the CPU time
# of the three processes per message /sensor published; the last lines
# what the tracer adds per message in each (caret-merged's and
# caret-unmerged's CPU per message minus plain's).
# usage: bench/rclpy/run.sh [BUILD_DIR] [SECONDS] [ROUNDS] [RMW] [PERIOD_MS]
#        (defaults: build, 5 s, 3 rounds, cyclonedds, 1 ms)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
seconds=${2:-5}
rounds=${3:-3}
rmw=${4:-cyclonedds}
export BENCH_PERIOD_MS=${5:-1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$here/../real/run.sh" "$build" "$seconds" "$rounds" jazzy "$rmw" pipeline3 | tee "$out/rclcpp"
"$here/../real/run.sh" "$build" "$seconds" "$rounds" jazzy-rclpy "$rmw" py-pipeline3 |
	tee "$out/rclpy"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# added NAME FILE: the tracer's CPU per message over plain's, both forms
added() {
	awk -v name="$1" '
		$1 == "plain" { plain = $7 }
		$1 == "caret-merged" { merged = $7 }
		$1 == "caret-unmerged" { unmerged = $7 }
		END {
			printf "%-7s tracer adds %6.1f us CPU per message merged (x%.2f), %6.1f unmerged (x%.2f); plain %.1f us\n",
				name, merged - plain, merged / plain, unmerged - plain, unmerged / plain, plain
		}' "$2"
}
echo
added rclcpp "$out/rclcpp"
added rclpy "$out/rclpy"
