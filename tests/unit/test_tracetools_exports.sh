#!/usr/bin/env bash
# `nm -D libtracetools.so` lists every function of the tracetools ABI
# reference (Humble and the CARET fork), and nothing else named ros_trace_*.
# Jazzy's additions (ros_trace_enabled_*, ros_trace_do_*) are a later step.
set -euo pipefail
lib=$1 reference=$2
[[ -f $reference ]] || { echo "reference not found: $reference"; exit 1; }

want=$(sed -n '/^## Jazzy/q;p' "$reference" | grep -o 'ros_trace_[a-z][a-z_]*' | sort -u)
have=$(nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^ros_trace_/ {print $3}' | sort -u)

missing=$(comm -23 <(echo "$want") <(echo "$have"))
extra=$(comm -13 <(echo "$want") <(echo "$have"))
[[ -z $missing ]] || { echo "not exported: $missing"; exit 1; }
[[ -z $extra ]] || { echo "exported but not in the reference: $extra"; exit 1; }
echo "all $(echo "$want" | wc -l) ros_trace_* functions of the reference are exported"
