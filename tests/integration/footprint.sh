# footprint.sh - sourced by the harmless tests: what the tracer left in a
# running process that made no node.
# tracer_footprint PID: prints "THREAD_NAMES... | N udp" (the process's
# thread names and how many UDP sockets it has open); returns 1 if the
# tracer's control thread runs there or a UDP socket is open (a DDS
# participant), else 0.
tracer_footprint() {
	local pid=$1 threads udp=0 fd inode
	threads=$(cat /proc/"$pid"/task/*/comm 2>/dev/null | tr '\n' ' ')
	for fd in /proc/"$pid"/fd/*; do
		inode=$(readlink "$fd" | sed -n 's/^socket:\[\([0-9]*\)\]$/\1/p')
		[[ -n $inode ]] && grep -q " $inode " /proc/net/udp /proc/net/udp6 && udp=$((udp + 1))
	done
	echo "${threads}| $udp udp"
	[[ -n $threads && $threads != *caret_control* ]] && ((udp == 0))
}
